import { describe, expect, it } from 'vitest';
import { discountText } from './PriceSummary.tsx';

describe('the discount line', () => {
  it('shows the amount taken off the items', () => {
    expect(discountText({ discountCents: 500 }, { code: 'FIVE', type: 'fixed' })).toBe('-$5.00');
    expect(discountText({ discountCents: 333 }, { code: 'SAVE10' })).toBe('-$3.33');
  });

  it('shows free shipping for that type, or for an order’s code that took nothing off the items', () => {
    expect(discountText({ discountCents: 0 }, { code: 'SHIP', type: 'free_shipping' })).toBe('Free shipping');
    expect(discountText({ discountCents: 0 }, { code: 'SHIP' })).toBe('Free shipping');
  });
});
