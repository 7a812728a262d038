import type { Stats } from '@store/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';
import type { DayRange } from './dashboard.ts';

/**
 * GET /api/admin/stats (admin): the sales overview of a range of UTC days. `lowStock` null lets the
 * server use its default threshold. While another range loads, the last figures stay on screen.
 */
export function useAdminStats(range: DayRange, lowStock: number | null) {
  return useQuery({
    queryKey: ['admin-stats', range.from, range.to, lowStock],
    queryFn: ({ signal }) =>
      api<Stats>(`/api/admin/stats${qs({ from: range.from, to: range.to, lowStock: lowStock ?? undefined })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * How many orders hold a payment that arrived after they were cancelled and that PayPal would not refund
 * by itself (the sweep keeps trying): the dashboard asks the admin to look at them.
 */
export function useRefundsDue() {
  return useQuery({
    queryKey: ['admin-refunds-due'],
    queryFn: ({ signal }) =>
      api<{ total: number }>(`/api/orders${qs({ refundDue: 'yes', pageSize: 1 })}`, { signal }).then((r) => r.total),
    staleTime: 60_000,
  });
}
