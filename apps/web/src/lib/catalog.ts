import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '@store/shared';
import { api } from './api.ts';

export interface ProductListParams {
  keyword?: string;
  pageNumber?: number;
}

/** Query keys of the public catalogue: all start with 'catalog', so a catalogue change drops them at once and logout keeps them. */
export const catalogKeys = {
  all: ['catalog'] as const,
  list: (p: ProductListParams) => ['catalog', 'list', p.keyword ?? '', p.pageNumber ?? 1] as const,
  top: ['catalog', 'top'] as const,
  maxNameLength: ['catalog', 'max-name-length'] as const,
  product: (idOrSlug: string) => ['catalog', 'product', idOrSlug] as const,
};

/** One product by id or slug: the product page shows it, the cart reads it to add a line. */
export const productQuery = (idOrSlug: string) =>
  queryOptions({
    queryKey: catalogKeys.product(idOrSlug),
    queryFn: ({ signal }) => api<Product>(`/api/products/${encodeURIComponent(idOrSlug)}`, { signal }),
  });

export function useProduct(idOrSlug: string) {
  return useQuery(productQuery(idOrSlug));
}
