/**
 * A dialog's first field takes the focus once the dialog has faded in (react-bootstrap's `onEntered`),
 * unless one of its controls (a field or a button) already has it: someone quick (or a slow machine's long
 * fade) may already be typing in another field, and moving the focus then would send the rest of their
 * typing elsewhere.
 */
export function focusFirstField(
  dialog: { contains(node: Node | null): boolean },
  focus: () => void,
  active: Element | null = document.activeElement,
): void {
  const typing = active !== null && dialog.contains(active) && active.matches('input, select, textarea, button');
  if (!typing) focus();
}
