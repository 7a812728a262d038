import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, type ProductListResponse, type ProductSummary } from '@store/shared';
import { api, qs } from '#web/lib/api.ts';
import { catalogKeys, type ProductListParams } from '#web/lib/catalog.ts';

export const productListQuery = (p: ProductListParams) =>
  queryOptions({
    queryKey: catalogKeys.list(p),
    queryFn: ({ signal }) =>
      api<ProductListResponse>(`/api/products${qs({ keyword: p.keyword, pageNumber: p.pageNumber })}`, { signal }),
  });

export function useProducts(p: ProductListParams) {
  return useQuery(productListQuery(p));
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
