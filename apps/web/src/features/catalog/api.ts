import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, type Product, type ProductListResponse, type ProductSummary } from '@store/shared';
import { api, qs } from '../../lib/api.ts';

export interface ProductListParams {
  keyword?: string;
  pageNumber?: number;
}

export const catalogKeys = {
  list: (p: ProductListParams) => ['catalog', 'list', p.keyword ?? '', p.pageNumber ?? 1] as const,
  top: ['catalog', 'top'] as const,
  maxNameLength: ['catalog', 'max-name-length'] as const,
  product: (idOrSlug: string) => ['catalog', 'product', idOrSlug] as const,
};

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

/** Search box limit (spec §5): from the server, clamped 32..256, 128 until it answers. */
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

export const productQuery = (idOrSlug: string) =>
  queryOptions({
    queryKey: catalogKeys.product(idOrSlug),
    queryFn: ({ signal }) => api<Product>(`/api/products/${encodeURIComponent(idOrSlug)}`, { signal }),
  });

export function useProduct(idOrSlug: string) {
  return useQuery(productQuery(idOrSlug));
}
