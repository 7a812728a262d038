import type { Coupon, CouponInput, MessageResponse } from '@store/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api.ts';

const KEY = ['admin-coupons'] as const;

/** Every discount code, newest first (the server's order). */
export function useCoupons() {
  return useQuery({
    queryKey: [...KEY, 'list'],
    queryFn: ({ signal }) => api<Coupon[]>('/api/coupons', { signal }),
    staleTime: 0,
  });
}

/** Creates a code (no id) or replaces the fields of one (PUT merges them with the stored code). */
export function useSaveCoupon() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: CouponInput }) =>
      id
        ? api<Coupon>(`/api/coupons/${encodeURIComponent(id)}`, { method: 'PUT', json: body })
        : api<Coupon>('/api/coupons', { method: 'POST', json: body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

export function useDeleteCoupon() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<MessageResponse>(`/api/coupons/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}
