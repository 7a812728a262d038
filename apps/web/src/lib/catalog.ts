import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Category, CategoryPage, Product } from '@store/shared';
import { api } from './api.ts';

export interface ProductListParams {
  keyword?: string;
  pageNumber?: number;
  /** A category's slug: its products and its children's. */
  category?: string;
  /** The filters and sort as a query string (`brand=Acme&sortBy=price&order=asc`). */
  filters?: string;
  /** `card`: only what a grid card shows. */
  fields?: 'card';
}

/** Query keys of the public catalogue: all start with 'catalog', so a catalogue change drops them at once and logout keeps them. */
export const catalogKeys = {
  all: ['catalog'] as const,
  list: (p: ProductListParams) =>
    ['catalog', 'list', p.keyword ?? '', p.pageNumber ?? 1, p.category ?? '', p.filters ?? '', p.fields ?? ''] as const,
  categoryRoots: ['catalog', 'categories', 'roots'] as const,
  categoryChildren: (id: string) => ['catalog', 'categories', 'children', id] as const,
  category: (slug: string) => ['catalog', 'categories', 'slug', slug] as const,
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

/** The root categories (the header's menu). */
export const categoryRootsQuery = queryOptions({
  queryKey: catalogKeys.categoryRoots,
  queryFn: ({ signal }) => api<Category[]>('/api/categories/roots', { signal }),
  staleTime: 10 * 60_000,
});

/** A category's children (under their root in the header's menu). */
export const categoryChildrenQuery = (id: string) =>
  queryOptions({
    queryKey: catalogKeys.categoryChildren(id),
    queryFn: ({ signal }) => api<Category[]>(`/api/categories/${encodeURIComponent(id)}/children`, { signal }),
    staleTime: 10 * 60_000,
  });

/** A category page's category, with its parent. */
export const categoryQuery = (slug: string) =>
  queryOptions({
    queryKey: catalogKeys.category(slug),
    queryFn: ({ signal }) => api<CategoryPage>(`/api/categories/slug/${encodeURIComponent(slug)}`, { signal }),
    staleTime: 10 * 60_000,
  });
