import { describe, expect, it } from 'vitest';
import { defaultSort, emptyProductFilters, fromSearch, productListQuery, toSearch } from './api.ts';

describe('productListQuery', () => {
  it('sends the SKU filter trimmed, and leaves it out when empty', () => {
    const q = new URLSearchParams(productListQuery({ ...emptyProductFilters, sku: ' mug-b ' }, defaultSort, 1));
    expect(q.get('sku')).toBe('mug-b');
    expect(new URLSearchParams(productListQuery(emptyProductFilters, defaultSort, 1)).has('sku')).toBe(false);
  });

  it('sends the status filter and the sort', () => {
    const q = new URLSearchParams(
      productListQuery({ ...emptyProductFilters, status: 'draft' }, { sortBy: 'stock', order: 'asc' }, 3),
    );
    expect(Object.fromEntries(q)).toEqual({ status: 'draft', sortBy: 'stock', order: 'asc', pageNumber: '3' });
  });
});

describe('the list in the address', () => {
  it('reads back what it wrote, leaving the defaults out', () => {
    const filters = { ...emptyProductFilters, name: 'lamp', status: 'active' };
    const sort = { sortBy: 'price', order: 'desc' } as const;
    const search = toSearch(filters, sort);
    expect(search).toBe('?name=lamp&status=active&sortBy=price&order=desc');
    expect(fromSearch(new URLSearchParams(search))).toEqual({ filters, sort });
    expect(toSearch(emptyProductFilters, defaultSort)).toBe('');
  });

  it('falls back to the defaults for values it does not know', () => {
    const read = fromSearch(new URLSearchParams('?sortBy=rating&order=sideways&status=archived'));
    expect(read).toEqual({ filters: emptyProductFilters, sort: defaultSort });
    expect(fromSearch(new URLSearchParams('?sortBy=name')).sort).toEqual({ sortBy: 'name', order: 'asc' });
  });
});
