import {
  ADMIN_PRODUCT_SORTS,
  ALIEXPRESS_MESSAGES,
  type AdminProductListResponse,
  type AdminProductSort,
  type AliexpressStatus,
  type MessageResponse,
  type Product,
  type ProductBulkInput,
  type ProductBulkResponse,
} from '@store/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, qs } from '#web/lib/api.ts';
import { priceParam } from '#web/lib/price-param.ts';

export interface ProductFilters {
  id: string;
  name: string;
  category: string;
  brand: string;
  /** A variant's SKU starts with this (whatever the case). */
  sku: string;
  /** '' (every product), 'draft' or 'active'. */
  status: string;
  minPrice: string;
  maxPrice: string;
}

export const emptyProductFilters: ProductFilters = {
  id: '',
  name: '',
  category: '',
  brand: '',
  sku: '',
  status: '',
  minPrice: '',
  maxPrice: '',
};

export interface ProductSort {
  sortBy: AdminProductSort;
  order: 'asc' | 'desc';
}
/** Newest first unless the address says otherwise. */
export const defaultSort: ProductSort = { sortBy: 'createdAt', order: 'desc' };
/** A column's first click: names and brands A to Z, prices and stock low to high, active before draft. */
export const firstOrder = (sortBy: AdminProductSort): 'asc' | 'desc' => (sortBy === 'createdAt' ? 'desc' : 'asc');

const FILTER_KEYS = Object.keys(emptyProductFilters) as (keyof ProductFilters)[];

/** The list's filters and sort as the address holds them (unknown values fall back to the defaults). */
export function fromSearch(search: URLSearchParams): { filters: ProductFilters; sort: ProductSort } {
  const filters = { ...emptyProductFilters };
  for (const k of FILTER_KEYS) filters[k] = search.get(k) ?? '';
  if (filters.status !== 'draft' && filters.status !== 'active') filters.status = '';
  const by = search.get('sortBy');
  const sortBy = (ADMIN_PRODUCT_SORTS as readonly string[]).includes(by ?? '')
    ? (by as AdminProductSort)
    : defaultSort.sortBy;
  const o = search.get('order');
  const order = o === 'asc' || o === 'desc' ? o : firstOrder(sortBy);
  return { filters, sort: { sortBy, order } };
}

/** The address's query for these filters and sort (defaults and empty filters left out). */
export function toSearch(filters: ProductFilters, sort: ProductSort): string {
  const same = sort.sortBy === defaultSort.sortBy && sort.order === defaultSort.order;
  return qs({
    ...Object.fromEntries(FILTER_KEYS.map((k) => [k, filters[k].trim()])),
    sortBy: same ? undefined : sort.sortBy,
    order: same ? undefined : sort.order,
  });
}

/** GET /api/admin/products: drafts too; filters trimmed, empty ones left out. */
export function productListQuery(f: ProductFilters, sort: ProductSort, pageNumber: number): string {
  return qs({
    id: f.id.trim(),
    name: f.name.trim(),
    category: f.category.trim(),
    brand: f.brand.trim(),
    sku: f.sku.trim(),
    status: f.status,
    minPrice: priceParam(f.minPrice),
    maxPrice: priceParam(f.maxPrice),
    sortBy: sort.sortBy,
    order: sort.order,
    pageNumber,
  });
}

const KEY = ['admin-products'] as const;

/** The catalogue as an admin sees it: drafts, status, stock, SKUs and the supplier's link. */
export function useAdminProductList(filters: ProductFilters, sort: ProductSort, pageNumber: number) {
  return useQuery({
    queryKey: [...KEY, 'list', filters, sort, pageNumber],
    queryFn: () => api<AdminProductListResponse>(`/api/admin/products${productListQuery(filters, sort, pageNumber)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** POST /api/products/bulk: one action on the selected products, all of them or none. */
export function useBulkProducts() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProductBulkInput) =>
      api<ProductBulkResponse>('/api/products/bulk', { method: 'POST', json: body }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: KEY });
      void qc.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}

/** POST /api/products: a draft to edit (shoppers never see it until it is published). */
export function useCreateProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<Product>('/api/products', { method: 'POST' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

export function useDeleteProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<MessageResponse>(`/api/products/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** Whether AliExpress is configured and connected (shown beside the button). */
export function useAliexpressStatus() {
  return useQuery({
    queryKey: [...KEY, 'aliexpress-status'],
    queryFn: () => api<AliexpressStatus>('/api/aliexpress/status'),
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * 'Connect AliExpress': asks the server for the authorise address and sends the browser there.
 * Errors carry the server's message, else one of ALIEXPRESS_MESSAGES.
 */
export function useConnectAliexpress() {
  return useMutation({
    mutationFn: async () => {
      let body: { authURL?: unknown } | undefined;
      try {
        body = await api<{ authURL?: unknown } | undefined>('/api/aliexpress/oauth/url');
      } catch (err) {
        throw new Error(err instanceof ApiError ? err.message : ALIEXPRESS_MESSAGES.urlFailed);
      }
      const authURL = body?.authURL;
      if (typeof authURL !== 'string' || !authURL) throw new Error(ALIEXPRESS_MESSAGES.urlMissing);
      try {
        const url = new URL(authURL, window.location.href);
        if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not a web address');
        window.location.assign(url.href);
      } catch {
        throw new Error(ALIEXPRESS_MESSAGES.startFailed);
      }
    },
  });
}
