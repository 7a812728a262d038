import { describe, expect, it } from 'vitest';
import { cleared, filtersSearch, isFiltered, parseFilters, sortKeyOf, toggleBrand } from './filters.ts';

describe('list filters in the address', () => {
  it('reads brands, price range, stock, rating and sort from the query', () => {
    const f = parseFilters(
      '?brand=Acme&brand=Tinny&minPrice=10&maxPrice=50.5&inStock=true&minRating=4&sortBy=price&order=asc',
    );
    expect(f).toEqual({
      brands: ['Acme', 'Tinny'],
      minPrice: 10,
      maxPrice: 50.5,
      inStock: true,
      minRating: 4,
      sort: 'price-asc',
    });
  });

  it('leaves out what is malformed and swaps a reversed price range', () => {
    expect(parseFilters('?minPrice=abc&maxPrice=-3&minRating=9&inStock=yes&sortBy=evil')).toEqual({
      brands: [],
      inStock: false,
      sort: 'newest',
    });
    const f = parseFilters('?minPrice=50&maxPrice=10');
    expect([f.minPrice, f.maxPrice]).toEqual([10, 50]);
  });

  it('writes the same query back (a shared link reads as it was written)', () => {
    const search = '?brand=Acme&minPrice=10&inStock=true&minRating=3&sortBy=price&order=desc';
    expect(filtersSearch(parseFilters(search))).toBe(search);
    expect(filtersSearch(parseFilters(''))).toBe('');
  });

  it('maps sorts to the picker: a sort without its order takes the usual one', () => {
    expect(sortKeyOf('price', 'desc')).toBe('price-desc');
    expect(sortKeyOf('price', null)).toBe('price-asc');
    expect(sortKeyOf('rating', 'desc')).toBe('rating');
    expect(sortKeyOf('name', 'asc')).toBe('name');
    expect(sortKeyOf(null, null)).toBe('newest');
  });

  it('ticks and unticks a brand whatever its case, and clears every filter but the sort', () => {
    const f = parseFilters('?brand=Acme&inStock=true&sortBy=name&order=asc');
    expect(toggleBrand(f, 'acme').brands).toEqual([]);
    expect(toggleBrand(f, 'Tinny').brands).toEqual(['Acme', 'Tinny']);
    expect(isFiltered(f)).toBe(true);
    const c = cleared(f);
    expect(isFiltered(c)).toBe(false);
    expect(c.sort).toBe('name');
  });
});
