import { describe, expect, it } from 'vitest';
import { discountCents, formatMoney, fromCents, priceOrder, taxCents, toCents } from './money.ts';

describe('money', () => {
  it('formats dollars as en-US currency with a thousands separator', () => {
    expect(formatMoney(1607.99)).toBe('$1,607.99');
    expect(formatMoney(1234567.5)).toBe('$1,234,567.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(-5)).toBe('-$5.00');
  });
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
    expect(p).toEqual({ itemsCents: 4498, discountCents: 0, taxCents: 675, shippingCents: 799, totalCents: 5972 });
    expect(priceOrder([], 0).totalCents).toBe(0);
  });
});

describe('discounts', () => {
  const lines = (cents: number, qty = 1) => [{ unitPriceCents: cents, qty }];

  it('takes a percentage of the items rounded to the cent (half up), tax on what is left', () => {
    // 10% of 39.98 = 3.998 → 4.00; tax 15% of 35.98 = 5.397 → 5.40
    expect(priceOrder(lines(1999, 2), 500, { type: 'percent', basisPoints: 1000 })).toEqual({
      itemsCents: 3998,
      discountCents: 400,
      taxCents: 540,
      shippingCents: 500,
      totalCents: 4638,
    });
    // odd cents: 15% of 0.33 = 0.0495 → 0.05; 12.5% of 0.99 = 0.12375 → 0.12
    expect(discountCents(33, { type: 'percent', basisPoints: 1500 })).toBe(5);
    expect(discountCents(99, { type: 'percent', basisPoints: 1250 })).toBe(12);
    expect(discountCents(1, { type: 'percent', basisPoints: 5000 })).toBe(1); // 0.5 → 1 (half up)
  });

  it('takes everything at 100% off: no tax, shipping still due', () => {
    expect(priceOrder(lines(2500, 3), 799, { type: 'percent', basisPoints: 10_000 })).toEqual({
      itemsCents: 7500,
      discountCents: 7500,
      taxCents: 0,
      shippingCents: 799,
      totalCents: 799,
    });
  });

  it('takes a fixed amount, never more than the items', () => {
    expect(priceOrder(lines(1999), 0, { type: 'fixed', amountCents: 500 })).toMatchObject({
      discountCents: 500,
      taxCents: 225, // 15% of 14.99 = 2.2485
      totalCents: 1724,
    });
    expect(priceOrder(lines(1999), 300, { type: 'fixed', amountCents: 10_000 })).toEqual({
      itemsCents: 1999,
      discountCents: 1999,
      taxCents: 0,
      shippingCents: 300,
      totalCents: 300,
    });
  });

  it('free shipping makes a paid rate 0 and takes nothing off the items', () => {
    expect(priceOrder(lines(1000), 1299, { type: 'free_shipping' })).toEqual({
      itemsCents: 1000,
      discountCents: 0,
      taxCents: 150,
      shippingCents: 0,
      totalCents: 1150,
    });
  });

  it('prices without a code exactly as before', () => {
    expect(priceOrder(lines(1999, 2), 799)).toEqual(priceOrder(lines(1999, 2), 799, null));
    expect(priceOrder(lines(1999, 2), 799).discountCents).toBe(0);
    expect(discountCents(0, { type: 'fixed', amountCents: 500 })).toBe(0);
  });
});
