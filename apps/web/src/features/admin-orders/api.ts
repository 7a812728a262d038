import { parseBoundedDate, type OrderListResponse } from '@store/shared';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';
import { downloadFile } from '#web/lib/download.ts';
import { priceParam } from '#web/lib/price-param.ts';

type YesNo = '' | 'yes' | 'no';

export interface OrderFilters {
  id: string;
  username: string;
  dateFrom: string;
  dateTo: string;
  minTotal: string;
  maxTotal: string;
  paid: YesNo;
  shipped: YesNo;
  delivered: YesNo;
}

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
};

/**
 * The filters an address names (`?paid=yes&shipped=no&dateFrom=2025-01-01&dateTo=2025-01-31`), so a
 * link can open the list filtered; yes/no filters take only `yes` or `no`, anything else is ignored.
 */
export function filtersFromSearch(search: URLSearchParams): OrderFilters {
  const filters = { ...emptyOrderFilters };
  for (const key of Object.keys(filters) as (keyof OrderFilters)[]) {
    const value = search.get(key);
    if (value === null) continue;
    if (key === 'paid' || key === 'shipped' || key === 'delivered') {
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
});

export function orderListQuery(f: OrderFilters, pageNumber: number): string {
  return qs({ ...filterParams(f), pageNumber });
}

/** GET /api/orders/export: every order the list's filters select (all pages), as CSV. */
export function orderExportPath(f: OrderFilters): string {
  return `/api/orders/export${qs(filterParams(f))}`;
}

/** GET /api/orders (admin): every order, newest first, filtered and paged by the server. */
export function useOrderList(filters: OrderFilters, pageNumber: number) {
  return useQuery({
    queryKey: ['admin-orders', 'list', filters, pageNumber],
    queryFn: () => api<OrderListResponse>(`/api/orders${orderListQuery(filters, pageNumber)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Export: downloads the orders the filters select as the server's CSV file. */
export function useExportOrders() {
  return useMutation({ mutationFn: (filters: OrderFilters) => downloadFile(orderExportPath(filters), 'orders.csv') });
}
