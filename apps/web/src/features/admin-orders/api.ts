import { parseBoundedDate, type OrderListResponse, type OrderSort } from '@store/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';
import { downloadFile } from '#web/lib/download.ts';
import type { ListSort, SortDir } from '#web/lib/list-params.ts';
import { priceParam } from '#web/lib/price-param.ts';

export const ORDER_SORT_KEYS: readonly OrderSort[] = ['date', 'total', 'status'];
export const DEFAULT_ORDER_SORT: ListSort<OrderSort> = { by: 'date', dir: 'desc' };
/** Dates newest first and totals largest first; statuses from unpaid on, the order they happen in. */
export const orderSortDir = (by: OrderSort): SortDir => (by === 'status' ? 'asc' : 'desc');

type YesNo = '' | 'yes' | 'no';

export type OrderFilters = {
  id: string;
  username: string;
  dateFrom: string;
  dateTo: string;
  minTotal: string;
  maxTotal: string;
  paid: YesNo;
  shipped: YesNo;
  delivered: YesNo;
  cancelled: YesNo;
  refunded: YesNo;
  refundDue: YesNo;
};

export const emptyOrderFilters: OrderFilters = {
  id: '',
  username: '',
  dateFrom: '',
  dateTo: '',
  minTotal: '',
  maxTotal: '',
  paid: '',
  shipped: '',
  delivered: '',
  cancelled: '',
  refunded: '',
  refundDue: '',
};

const YES_NO_KEYS = ['paid', 'shipped', 'delivered', 'cancelled', 'refunded', 'refundDue'] as const;
const isYesNoKey = (key: keyof OrderFilters): key is (typeof YES_NO_KEYS)[number] =>
  (YES_NO_KEYS as readonly string[]).includes(key);

/**
 * The filters an address names (`?paid=yes&shipped=no&dateFrom=2025-01-01&dateTo=2025-01-31`), so a
 * link can open the list filtered; yes/no filters take only `yes` or `no`, anything else is ignored.
 */
export function filtersFromSearch(search: URLSearchParams): OrderFilters {
  const filters = { ...emptyOrderFilters };
  for (const key of Object.keys(filters) as (keyof OrderFilters)[]) {
    const value = search.get(key);
    if (value === null) continue;
    if (isYesNoKey(key)) {
      if (value === 'yes' || value === 'no') filters[key] = value;
    } else filters[key] = value;
  }
  return filters;
}

/** A whole day (YYYY-MM-DD, what a date input gives) from year 1 to 9999, as the server takes it; else left out. */
const day = (value: string) => {
  const parsed = parseBoundedDate(value);
  return typeof parsed === 'object' && parsed.wholeDay ? value : undefined;
};

/** The filters as the server takes them: trimmed, and what it would refuse or what is empty left out. */
const filterParams = (f: OrderFilters) => ({
  id: f.id.trim(),
  username: f.username.trim(),
  dateFrom: day(f.dateFrom),
  dateTo: day(f.dateTo),
  minTotal: priceParam(f.minTotal),
  maxTotal: priceParam(f.maxTotal),
  paid: f.paid,
  shipped: f.shipped,
  delivered: f.delivered,
  cancelled: f.cancelled,
  refunded: f.refunded,
  refundDue: f.refundDue,
});

export function orderListQuery(
  f: OrderFilters,
  pageNumber: number,
  sort: ListSort<OrderSort> = DEFAULT_ORDER_SORT,
): string {
  const sorted =
    sort.by === DEFAULT_ORDER_SORT.by && sort.dir === DEFAULT_ORDER_SORT.dir
      ? {}
      : { sortBy: sort.by, order: sort.dir };
  return qs({ ...filterParams(f), ...sorted, pageNumber });
}

/** GET /api/orders/export: every order the list's filters select (all pages), or only the selected ones, as CSV. */
export function orderExportPath(f: OrderFilters, ids?: string[]): string {
  return `/api/orders/export${qs(ids ? { ids: ids.join(',') } : filterParams(f))}`;
}

/** GET /api/orders (admin): every order, filtered, sorted and paged by the server. */
export function useOrderList(
  filters: OrderFilters,
  pageNumber: number,
  sort: ListSort<OrderSort> = DEFAULT_ORDER_SORT,
) {
  return useQuery({
    queryKey: ['admin-orders', 'list', filters, pageNumber, sort],
    queryFn: () => api<OrderListResponse>(`/api/orders${orderListQuery(filters, pageNumber, sort)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Export: downloads the orders the filters select (or the selected orders) as the server's CSV file. */
export function useExportOrders() {
  return useMutation({
    mutationFn: ({ filters, ids }: { filters: OrderFilters; ids?: string[] }) =>
      downloadFile(orderExportPath(filters, ids), 'orders.csv'),
  });
}

/** POST /api/orders/bulk/deliver: all the selected orders are marked delivered, or none (the answer says why). */
export function useBulkDeliver() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      api<{ delivered: number }>('/api/orders/bulk/deliver', { method: 'POST', json: { ids } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin-orders'] }),
  });
}
