import { describe, expect, it } from 'vitest';
import { minutesLeft } from './PayByNotice.tsx';

describe('the time left to pay an order', () => {
  const payBy = '2026-03-01T12:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts a started minute as a whole one', () => {
    expect(minutesLeft(payBy, at('2026-03-01T11:00:00.000Z'))).toBe(60);
    expect(minutesLeft(payBy, at('2026-03-01T11:18:00.001Z'))).toBe(42);
    expect(minutesLeft(payBy, at('2026-03-01T11:59:30.000Z'))).toBe(1);
  });

  it('is 0 once the deadline has passed', () => {
    expect(minutesLeft(payBy, at('2026-03-01T12:00:00.000Z'))).toBe(0);
    expect(minutesLeft(payBy, at('2026-03-01T13:00:00.000Z'))).toBe(0);
  });
});
