import { describe, expect, it } from 'vitest';
import { isSoldOut, stockFor } from './stock.ts';

const product = (countInStock: number, variants: { countInStock: number | null }[] = []) => ({
  countInStock,
  colorsVariants: variants.map((v, i) => ({ _id: `v${i}`, ...v })),
});

describe('which stock a purchase draws on', () => {
  it('a variant with its own stock sells from it; one without, and no variant, from the product', () => {
    const p = product(20, [{ countInStock: null }, { countInStock: 3 }]);
    expect(stockFor(p, null)).toBe(20);
    expect(stockFor(p, 'v0')).toBe(20);
    expect(stockFor(p, 'v1')).toBe(3);
    expect(stockFor(p, { _id: 'v1' })).toBe(3);
    expect(stockFor(p, 'unknown')).toBe(20);
  });

  it('is sold out only when every pool a shopper can buy from is empty', () => {
    expect(isSoldOut(product(0))).toBe(true);
    expect(isSoldOut(product(1))).toBe(false);
    // every variant has its own stock: the product's own figure is not for sale
    expect(isSoldOut(product(50, [{ countInStock: 0 }, { countInStock: 0 }]))).toBe(true);
    expect(isSoldOut(product(0, [{ countInStock: 0 }, { countInStock: 2 }]))).toBe(false);
    // a variant drawing on the product's stock
    expect(isSoldOut(product(4, [{ countInStock: 0 }, { countInStock: null }]))).toBe(false);
    expect(isSoldOut(product(0, [{ countInStock: 0 }, { countInStock: null }]))).toBe(true);
  });
});
