import { describe, expect, it, vi } from 'vitest';
import { focusFirstField } from './dialog-focus.ts';

// elements as the rule reads them: what the dialog holds, and what each one is
const element = (matches: (s: string) => boolean) => ({ matches }) as unknown as Element;
const field = element((s) => s.includes('input'));
const dialogElement = element(() => false);
const outside = element((s) => s.includes('button'));
const dialog = { contains: (n: Node | null) => n === (field as unknown) || n === (dialogElement as unknown) };

describe("a dialog's first focus", () => {
  it('goes to the first field when the dialog itself, something outside or nothing has the focus', () => {
    const focus = vi.fn();
    focusFirstField(dialog, focus, dialogElement); // react-bootstrap focuses the dialog when it opens
    focusFirstField(dialog, focus, outside); // the button that opened it
    focusFirstField(dialog, focus, null);
    expect(focus).toHaveBeenCalledTimes(3);
  });

  it('stays where it is when a field of the dialog already has it', () => {
    const focus = vi.fn();
    focusFirstField(dialog, focus, field);
    expect(focus).not.toHaveBeenCalled();
  });
});
