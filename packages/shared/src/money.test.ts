import { describe, expect, it } from 'vitest';
import { fromCents, priceOrder, taxCents, toCents } from './money.ts';

describe('money', () => {
  it('converts dollars to cents without float drift', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1.005)).toBe(101);
    expect(fromCents(1999)).toBe(19.99);
  });
  it('takes 15% tax of the items, rounded to the cent', () => {
    expect(taxCents(1000)).toBe(150);
    expect(taxCents(1999)).toBe(300); // 299.85 → 300
    expect(taxCents(1)).toBe(0); // 0.15 → 0
    expect(taxCents(10)).toBe(2); // 1.5 → 2 (half up)
  });
  it('prices an order as items + tax + shipping', () => {
    const p = priceOrder(
      [
        { unitPriceCents: 1999, qty: 2 },
        { unitPriceCents: 500, qty: 1 },
      ],
      799,
    );
    expect(p).toEqual({ itemsCents: 4498, taxCents: 675, shippingCents: 799, totalCents: 5972 });
    expect(priceOrder([], 0).totalCents).toBe(0);
  });
});
