import {
  IMAGE_FOLDER_RE,
  UPLOAD_MESSAGES,
  type Category,
  type Product,
  type ProductImageUpdateInput,
  type ProductUpdateInput,
} from '@store/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api.ts';
import { galleryAfterDelete } from './upload.ts';

export const editKeys = {
  product: (id: string) => ['admin-products', 'one', id] as const,
  gallery: (folder: string) => ['admin-products', 'gallery', folder] as const,
  categories: (parent: string | null) => ['admin-products', 'categories', parent ?? 'roots'] as const,
};

/** The product as the admin edits it, drafts too (never a cached storefront copy). */
export function useAdminProduct(id: string) {
  return useQuery({
    queryKey: editKeys.product(id),
    queryFn: ({ signal }) => api<Product>(`/api/admin/products/${encodeURIComponent(id)}`, { signal }),
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** After a write: the edit page takes the answer, the storefront's and the admin list's copies are dropped. */
export function useStoreProduct(id: string) {
  const qc = useQueryClient();
  return (product: Product) => {
    qc.setQueryData(editKeys.product(id), product);
    void qc.invalidateQueries({ queryKey: ['catalog'] });
    void qc.invalidateQueries({ queryKey: ['admin-products', 'list'] });
  };
}

export function useUpdateProduct(id: string) {
  const store = useStoreProduct(id);
  return useMutation({
    mutationFn: (body: ProductUpdateInput) =>
      api<Product>(`/api/products/${encodeURIComponent(id)}`, { method: 'PUT', json: body }),
    onSuccess: store,
  });
}

export const isFolderName = (folder: string) => IMAGE_FOLDER_RE.test(folder);

/** GET /api/upload/list/{folder}: the folder's images, oldest first. */
export function useGallery(folder: string, enabled: boolean) {
  return useQuery({
    queryKey: editKeys.gallery(folder),
    queryFn: ({ signal }) =>
      api<{ src: string }[]>(`/api/upload/list/${encodeURIComponent(folder)}`, { signal }).catch(() => {
        throw new Error(UPLOAD_MESSAGES.loadFailed);
      }),
    enabled: enabled && isFolderName(folder),
    staleTime: 0,
  });
}

export function useRefreshGallery() {
  const qc = useQueryClient();
  return (folder: string) => qc.invalidateQueries({ queryKey: editKeys.gallery(folder) });
}

/**
 * Bulk delete: DELETE /api/upload/{folder} {srcs}, then PUT /api/products/image/{id} so the stored
 * product no longer points at them. Answers the deleted srcs and the updated product.
 */
export function useDeleteImages(product: Product) {
  const store = useStoreProduct(product._id);
  const refresh = useRefreshGallery();
  return useMutation({
    mutationFn: async ({ folder, srcs }: { folder: string; srcs: string[] }) => {
      let deleted: string[];
      try {
        const res = await api<{ deleted: string[] }>(`/api/upload/${encodeURIComponent(folder)}`, {
          method: 'DELETE',
          json: { srcs },
        });
        deleted = res.deleted;
      } catch {
        throw new Error(UPLOAD_MESSAGES.deleteFailed);
      }
      const body: ProductImageUpdateInput = galleryAfterDelete(product, deleted);
      try {
        const updated = await api<Product>(`/api/products/image/${encodeURIComponent(product._id)}`, {
          method: 'PUT',
          json: body,
        });
        return { deleted, updated };
      } catch {
        throw new Error(UPLOAD_MESSAGES.deleteImagesFailed);
      }
    },
    onSuccess: ({ updated }) => store(updated),
    onSettled: (_d, _e, { folder }) => refresh(folder),
  });
}

/** A level of the category tree: the roots, or the children of `parent`. */
export function useCategories(parent: string | null) {
  return useQuery({
    queryKey: editKeys.categories(parent),
    queryFn: ({ signal }) =>
      api<Category[]>(parent ? `/api/categories/${encodeURIComponent(parent)}/children` : '/api/categories/roots', {
        signal,
      }).catch(() => {
        throw new Error(parent ? 'Failed to load categories' : 'Failed to load root categories');
      }),
    staleTime: 5 * 60_000,
  });
}
