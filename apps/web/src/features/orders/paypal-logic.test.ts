import { describe, expect, it } from 'vitest';
import { isRenderError, namespaceFor, PAYPAL_ATTEMPTS, retryDelayMs } from './paypal-logic.ts';

describe('PayPal loading rules', () => {
  it('alternates the SDK namespace between attempts', () => {
    expect([1, 2, 3].map(namespaceFor)).toEqual(['paypal', 'paypal_sdk', 'paypal']);
  });
  it('waits 1 s times the failed attempt, for 3 attempts', () => {
    expect(PAYPAL_ATTEMPTS).toBe(3);
    expect([1, 2].map(retryDelayMs)).toEqual([1000, 2000]);
  });
  it('tells render failures from payment errors', () => {
    expect(isRenderError('Failed to render <PayPalButtons /> component. x')).toBe(true);
    expect(isRenderError('Window closed')).toBe(false);
  });
});
