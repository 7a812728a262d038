import { describe, expect, it } from 'vitest';
import { refundStateOf } from './order-state.ts';

describe('the refund state an order shows', () => {
  it('is nothing without refunds, partial below the total, full at it (compared in cents)', () => {
    expect(refundStateOf({ refundedPrice: 0, totalPrice: 23 })).toBeNull();
    expect(refundStateOf({ refundedPrice: 11.5, totalPrice: 23 })).toBe('Partially refunded');
    expect(refundStateOf({ refundedPrice: 22.99, totalPrice: 23 })).toBe('Partially refunded');
    expect(refundStateOf({ refundedPrice: 23, totalPrice: 23 })).toBe('Refunded');
    // 0.1 + 0.2 in dollars is not 0.3 in floating point; in cents it is
    expect(refundStateOf({ refundedPrice: 0.1 + 0.2, totalPrice: 0.3 })).toBe('Refunded');
  });
});
