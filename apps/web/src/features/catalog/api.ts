import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, type ProductCardListResponse, type ProductListResponse, type ProductSummary } from '@store/shared';
import { api, qs } from '#web/lib/api.ts';
import { catalogKeys, type ProductListParams } from '#web/lib/catalog.ts';

/** The API address of a list: keyword, category, page, then the filters' own query. */
export function productListUrl(p: ProductListParams): string {
  const base = qs({ keyword: p.keyword, category: p.category, pageNumber: p.pageNumber, fields: p.fields });
  if (!p.filters) return `/api/products${base}`;
  return `/api/products${base ? `${base}&` : '?'}${p.filters}`;
}

export const productListQuery = (p: ProductListParams) =>
  queryOptions({
    queryKey: catalogKeys.list(p),
    queryFn: ({ signal }) => api<ProductListResponse>(productListUrl(p), { signal }),
  });

/** The home grid's pages: cards only. */
export const cardListQuery = (pageNumber: number) =>
  queryOptions({
    queryKey: catalogKeys.list({ pageNumber, fields: 'card' }),
    queryFn: ({ signal }) => api<ProductCardListResponse>(productListUrl({ pageNumber, fields: 'card' }), { signal }),
  });

export function useProducts(p: ProductListParams) {
  // the previous list stays on screen while a filter's answer loads (no flash of a spinner)
  return useQuery({ ...productListQuery(p), placeholderData: keepPreviousData });
}

export function useTopProducts() {
  return useQuery({
    queryKey: catalogKeys.top,
    queryFn: ({ signal }) => api<ProductSummary[]>('/api/products/top', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Search box length limit: from the server (the longest product name), clamped 32..256, 128 until it answers. */
export function useMaxNameLength(): number {
  const { data } = useQuery({
    queryKey: catalogKeys.maxNameLength,
    queryFn: ({ signal }) => api<{ maxNameLength: number }>('/api/products/max-name-length', { signal }),
    staleTime: 30 * 60_000,
  });
  const n = data?.maxNameLength;
  return typeof n === 'number' && n > 0
    ? Math.min(LIMITS.searchMax, Math.max(LIMITS.searchMin, n))
    : LIMITS.searchDefault;
}
