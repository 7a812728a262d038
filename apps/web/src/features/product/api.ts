import type { ReviewCreateInput } from '@store/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api.ts';
import { catalogKeys } from '#web/lib/catalog.ts';

export function useCreateReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewCreateInput) =>
      api<{ message: string }>(`/api/products/${encodeURIComponent(productId)}/reviews`, {
        method: 'POST',
        json: body,
      }),
    // the product (its reviews, rating and count) and the lists showing its rating
    onSuccess: () => queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
  });
}
