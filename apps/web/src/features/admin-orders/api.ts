import { parseBoundedDate, type OrderListResponse } from '@store/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';
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

/** A whole day (YYYY-MM-DD, what a date input gives) from year 1 to 9999, as the server takes it; else left out. */
const day = (value: string) => {
  const parsed = parseBoundedDate(value);
  return typeof parsed === 'object' && parsed.wholeDay ? value : undefined;
};

export function orderListQuery(f: OrderFilters, pageNumber: number): string {
  return qs({
    id: f.id.trim(),
    username: f.username.trim(),
    dateFrom: day(f.dateFrom),
    dateTo: day(f.dateTo),
    minTotal: priceParam(f.minTotal),
    maxTotal: priceParam(f.maxTotal),
    paid: f.paid,
    shipped: f.shipped,
    delivered: f.delivered,
    pageNumber,
  });
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
