import { describe, expect, it } from 'vitest';
import { emptyProductFilters, productListQuery } from './api.ts';

describe('productListQuery', () => {
  it('sends the SKU filter trimmed, and leaves it out when empty', () => {
    const q = new URLSearchParams(productListQuery({ ...emptyProductFilters, sku: ' mug-b ' }, 1));
    expect(q.get('sku')).toBe('mug-b');
    expect(new URLSearchParams(productListQuery(emptyProductFilters, 1)).has('sku')).toBe(false);
  });
});
