import { FILTER_DEBOUNCE_MS, formatMoney } from '@store/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DownloadButton } from '#web/components/DownloadButton.tsx';
import { Message } from '#web/components/Message.tsx';
import { OrderProgressCells } from '#web/components/OrderCells.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useDebounced } from '#web/lib/use-debounced.ts';
import {
  AMOUNT,
  FilterField,
  FilterForm,
  TextFilters,
  type TextFilter,
  ListResults,
  TableHead,
} from '#web/components/AdminList.tsx';
import { filtersFromSearch, useExportOrders, useOrderList, type OrderFilters } from './api.ts';
import { paths } from '#web/lib/paths.ts';

const INPUTS: TextFilter<keyof OrderFilters>[] = [
  { key: 'id', label: 'Order ID' },
  { key: 'username', label: 'Username' },
  { key: 'dateFrom', label: 'Date From', type: 'date' },
  { key: 'dateTo', label: 'Date To', type: 'date' },
  { key: 'minTotal', label: 'Min Total', ...AMOUNT },
  { key: 'maxTotal', label: 'Max Total', ...AMOUNT },
];

const SELECTS: { key: 'paid' | 'shipped' | 'delivered'; label: string }[] = [
  { key: 'paid', label: 'Paid' },
  { key: 'shipped', label: 'Shipped' },
  { key: 'delivered', label: 'Delivered' },
];

export default function OrderListPage() {
  useDocumentTitle('Orders');
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  // the list opens with the filters its address names (a dashboard card's link); the form owns them after
  const [filters, setFilters] = useState<OrderFilters>(() => filtersFromSearch(search));
  const applied = useDebounced(filters, FILTER_DEBOUNCE_MS);
  const list = useOrderList(applied, page);
  // the export takes the filters the list shows
  const exportCsv = useExportOrders();

  const setFilter = (key: keyof OrderFilters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    if (page !== 1 || search.size > 0) setSearch({}, { replace: true });
  };

  const orders = list.data?.orders ?? [];

  return (
    <>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <h1 className="h3 mb-0">Orders</h1>
        <DownloadButton pending={exportCsv.isPending} onClick={() => exportCsv.mutate(applied)}>
          Export CSV
        </DownloadButton>
      </div>
      {exportCsv.error && <Message variant="danger">{exportCsv.error.message}</Message>}

      <FilterForm label="Filter orders">
        <TextFilters fields={INPUTS} values={filters} onChange={setFilter} />
        {SELECTS.map(({ key, label }) => (
          <FilterField key={key} id={`filter-${key}`} label={label}>
            <select
              id={`filter-${key}`}
              className="form-select form-select-sm"
              value={filters[key]}
              onChange={(e) => setFilter(key, e.target.value)}
            >
              <option value="">All</option>
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </select>
          </FilterField>
        ))}
      </FilterForm>

      <ListResults list={list} shown={orders.length} noun="orders" href={paths.adminOrdersPage}>
        <div className="table-responsive position-relative">
          <table className="table table-striped table-hover table-sm align-middle">
            <TableHead
              columns={['ID', 'USER', 'DATE', 'TOTAL', 'PAID', 'SHIPPED', 'DELIVERED', { hidden: 'Details' }]}
            />
            <tbody>
              {orders.map((o) => (
                <tr key={o._id} data-testid="order-row" data-id={o._id}>
                  <td className="font-monospace small">
                    {o._id}
                    {o.isCancelled && <span className="badge text-bg-secondary ms-2">Cancelled</span>}
                  </td>
                  <td className="text-break">
                    {o.user.username}
                    {o.user.isGuest && <span className="small text-body-secondary"> (guest)</span>}
                  </td>
                  <td className="text-nowrap">{new Date(o.createdAt).toLocaleDateString()}</td>
                  <td className="text-nowrap">{formatMoney(o.totalPrice)}</td>
                  <OrderProgressCells order={o} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListResults>
    </>
  );
}
