import { SHOP_SORTS } from '@store/shared';

/**
 * A list's filters and sort as the address keeps them (`?brand=Acme&brand=Tinny&minPrice=10&inStock=true
 * &minRating=4&sortBy=price&order=asc`), so back/forward, reload and a shared link show the same list.
 * Anything malformed in the address is left out rather than sent to the server.
 */
export interface ListFilters {
  brands: string[];
  minPrice?: number;
  maxPrice?: number;
  inStock: boolean;
  minRating?: number;
  /** A key of SHOP_SORTS; newest when unset. */
  sort: SortKey;
}

export type SortKey = (typeof SHOP_SORTS)[number]['key'];

export const NO_FILTERS: ListFilters = { brands: [], inStock: false, sort: 'newest' };

const price = (raw: string | null): number | undefined => {
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : undefined;
};

export function sortKeyOf(sortBy: string | null, order: string | null): SortKey {
  const found = SHOP_SORTS.find((s) => s.sortBy === (sortBy === 'createdAt' ? 'newest' : sortBy) && s.order === order);
  if (found) return found.key;
  // a sort named without its order takes the picker's usual one
  const first = SHOP_SORTS.find((s) => s.sortBy === sortBy);
  return first?.key ?? 'newest';
}

/** The filters an address's query names. */
export function parseFilters(search: string | URLSearchParams): ListFilters {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const brands = [...new Set(q.getAll('brand').map((b) => b.trim()))].filter(Boolean).slice(0, 20);
  let minPrice = price(q.get('minPrice'));
  let maxPrice = price(q.get('maxPrice'));
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    [minPrice, maxPrice] = [maxPrice, minPrice];
  const rating = Number(q.get('minRating'));
  const minRating = Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : undefined;
  return {
    brands,
    ...(minPrice !== undefined ? { minPrice } : {}),
    ...(maxPrice !== undefined ? { maxPrice } : {}),
    inStock: q.get('inStock') === 'true',
    ...(minRating !== undefined ? { minRating } : {}),
    sort: sortKeyOf(q.get('sortBy'), q.get('order')),
  };
}

/** The query of the filters, for the address and for the API (empty when nothing is set). */
export function filtersQuery(f: ListFilters): URLSearchParams {
  const q = new URLSearchParams();
  for (const b of f.brands) q.append('brand', b);
  if (f.minPrice !== undefined) q.set('minPrice', String(f.minPrice));
  if (f.maxPrice !== undefined) q.set('maxPrice', String(f.maxPrice));
  if (f.inStock) q.set('inStock', 'true');
  if (f.minRating !== undefined) q.set('minRating', String(f.minRating));
  if (f.sort !== 'newest') {
    const s = SHOP_SORTS.find((x) => x.key === f.sort)!;
    q.set('sortBy', s.sortBy);
    q.set('order', s.order);
  }
  return q;
}

/** `?…` of the filters, or '' when none is set. */
export function filtersSearch(f: ListFilters): string {
  const s = filtersQuery(f).toString();
  return s ? `?${s}` : '';
}

/** Whether anything narrows the list (the sort does not). */
export function isFiltered(f: ListFilters): boolean {
  return (
    f.brands.length > 0 ||
    f.minPrice !== undefined ||
    f.maxPrice !== undefined ||
    f.inStock ||
    f.minRating !== undefined
  );
}

/** The filters with every narrowing removed, the sort kept. */
export function cleared(f: ListFilters): ListFilters {
  return { ...NO_FILTERS, sort: f.sort };
}

/** A brand ticked or unticked. */
export function toggleBrand(f: ListFilters, brand: string): ListFilters {
  const has = f.brands.some((b) => b.toLowerCase() === brand.toLowerCase());
  return {
    ...f,
    brands: has ? f.brands.filter((b) => b.toLowerCase() !== brand.toLowerCase()) : [...f.brands, brand],
  };
}
