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
