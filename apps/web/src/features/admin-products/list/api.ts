import {
  ALIEXPRESS_MESSAGES,
  type AliexpressStatus,
  type MessageResponse,
  type Product,
  type ProductListResponse,
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
  minPrice: string;
  maxPrice: string;
}

export const emptyProductFilters: ProductFilters = {
  id: '',
  name: '',
  category: '',
  brand: '',
  sku: '',
  minPrice: '',
  maxPrice: '',
};

/** The query of the admin list: sorted by name, A to Z; filters trimmed, empty ones left out. */
export function productListQuery(f: ProductFilters, pageNumber: number): string {
  return qs({
    adminCheck: 'true',
    sortBy: 'name',
    order: 'asc',
    id: f.id.trim(),
    name: f.name.trim(),
    category: f.category.trim(),
    brand: f.brand.trim(),
    sku: f.sku.trim(),
    minPrice: priceParam(f.minPrice),
    maxPrice: priceParam(f.maxPrice),
    pageNumber,
  });
}

const KEY = ['admin-products'] as const;

/** The catalogue as an admin sees it (the bearer token adds supplier fields such as purchaseLink). */
export function useAdminProductList(filters: ProductFilters, pageNumber: number) {
  return useQuery({
    queryKey: [...KEY, 'list', filters, pageNumber],
    queryFn: () => api<ProductListResponse>(`/api/products${productListQuery(filters, pageNumber)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** POST /api/products: a sample product to edit. */
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
