import { TOAST_MS, formatMoney, type OrderSort, type OrderSummary } from '@store/shared';
import { useState } from 'react';
import { ConfirmDialog } from '#web/components/ConfirmDialog.tsx';
import { DownloadButton } from '#web/components/DownloadButton.tsx';
import { Message } from '#web/components/Message.tsx';
import { OrderDetailsLink, OrderProgressCells, OrderStateNote, OrderStepsLine } from '#web/components/OrderCells.tsx';
import { SortableTh } from '#web/components/SortableTh.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import {
  AMOUNT,
  FilterField,
  FilterForm,
  TextFilters,
  type TextFilter,
  ListResults,
} from '#web/components/AdminList.tsx';
import { useListParams } from '#web/lib/list-params.ts';
import {
  DEFAULT_ORDER_SORT,
  ORDER_SORT_KEYS,
  emptyOrderFilters,
  filtersFromSearch,
  orderSortDir,
  useBulkDeliver,
  useExportOrders,
  useOrderList,
  type OrderFilters,
} from './api.ts';

const INPUTS: TextFilter<keyof OrderFilters>[] = [
  { key: 'id', label: 'Order ID' },
  { key: 'username', label: 'Username' },
  { key: 'dateFrom', label: 'Date From', type: 'date' },
  { key: 'dateTo', label: 'Date To', type: 'date' },
  { key: 'minTotal', label: 'Min Total', ...AMOUNT },
  { key: 'maxTotal', label: 'Max Total', ...AMOUNT },
];

const SELECTS: { key: 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'refunded' | 'refundDue'; label: string }[] = [
  { key: 'paid', label: 'Paid' },
  { key: 'shipped', label: 'Shipped' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'cancelled', label: 'Cancelled' },
  { key: 'refunded', label: 'Refunded' },
  { key: 'refundDue', label: 'Payment to refund' },
];

/** Where an order stands, as the status sort orders them. */
function statusOf(o: OrderSummary): { label: string; tone: string } {
  if (o.isCancelled) return { label: 'Cancelled', tone: 'secondary' };
  if (o.isDelivered) return { label: 'Delivered', tone: 'success' };
  if (o.isShipped) return { label: 'Shipped', tone: 'info' };
  if (o.isPaid) return { label: 'Paid', tone: 'primary' };
  return { label: 'Unpaid', tone: 'warning' };
}

/** A guest is shown by the name and e-mail it gave, never by its generated username. */
function Buyer({ user }: { user: OrderSummary['user'] }) {
  if (!user.isGuest) return <>{user.username}</>;
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <>
      {name || user.email || 'Guest'} <span className="badge text-bg-light border">guest</span>
      {user.email && name && <div className="small text-body-secondary text-break">{user.email}</div>}
    </>
  );
}

const orderLabel = (o: OrderSummary) => `#${o.orderNumber}`;
const plural = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

export default function OrderListPage() {
  useDocumentTitle('Orders');
  const params = useListParams<OrderFilters, OrderSort>({
    empty: emptyOrderFilters,
    sorts: ORDER_SORT_KEYS,
    defaultSort: DEFAULT_ORDER_SORT,
    naturalDir: orderSortDir,
    parse: filtersFromSearch,
  });
  const { page, sort, filters, applied } = params;
  const list = useOrderList(applied, page, sort);
  const exportCsv = useExportOrders();
  const deliver = useBulkDeliver();
  // the selection outlives paging and sorting: it is what the bulk actions act on
  const [selected, setSelected] = useState<Map<string, OrderSummary>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [toast, setToast] = useState<ToastContent | null>(null);

  const orders = list.data?.orders ?? [];
  const chosen = [...selected.values()];
  const allOnPage = orders.length > 0 && orders.every((o) => selected.has(o._id));

  const toggle = (o: OrderSummary) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(o._id)) next.delete(o._id);
      else next.set(o._id, o);
      return next;
    });
  const togglePage = () =>
    setSelected((s) => {
      const next = new Map(s);
      for (const o of orders) {
        if (allOnPage) next.delete(o._id);
        else next.set(o._id, o);
      }
      return next;
    });

  const onDeliver = () =>
    deliver.mutate(
      chosen.map((o) => o._id),
      {
        onSuccess: ({ delivered }) => {
          setConfirming(false);
          setSelected(new Map());
          setToast({ title: 'Orders updated', body: `${plural(delivered)} marked delivered.`, variant: 'success' });
        },
      },
    );

  const sortable = (by: OrderSort, label: string) => (
    <SortableTh label={label} active={sort.by === by} dir={sort.dir} onSort={() => params.toggleSort(by)} />
  );

  return (
    <>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <h1 className="h3 mb-0">Orders</h1>
        <DownloadButton pending={exportCsv.isPending} onClick={() => exportCsv.mutate({ filters: applied })}>
          Export CSV
        </DownloadButton>
      </div>
      {exportCsv.error && <Message variant="danger">{exportCsv.error.message}</Message>}

      <FilterForm label="Filter orders">
        <TextFilters fields={INPUTS} values={filters} onChange={params.setFilter} />
        {SELECTS.map(({ key, label }) => (
          <FilterField key={key} id={`filter-${key}`} label={label}>
            <select
              id={`filter-${key}`}
              className="form-select form-select-sm"
              value={filters[key]}
              onChange={(e) => params.setFilter(key, e.target.value)}
            >
              <option value="">All</option>
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </select>
          </FilterField>
        ))}
      </FilterForm>

      <div
        className="d-flex flex-wrap align-items-center gap-2 mb-3 bulk-bar"
        role="group"
        aria-label="Actions on the selected orders"
      >
        <span aria-live="polite" data-testid="selected-count" className="me-2">
          {chosen.length ? `${plural(chosen.length)} selected` : 'Select orders to act on several at once'}
        </span>
        {chosen.length > 0 && (
          <>
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={() => {
                deliver.reset();
                setConfirming(true);
              }}
            >
              Mark delivered
            </button>
            <DownloadButton
              pending={exportCsv.isPending}
              onClick={() => exportCsv.mutate({ filters: applied, ids: chosen.map((o) => o._id) })}
            >
              Export selected
            </DownloadButton>
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setSelected(new Map())}>
              Clear selection
            </button>
          </>
        )}
      </div>

      <ListResults list={list} shown={orders.length} noun="orders" href={params.href}>
        <div className="d-lg-none mb-3">
          <label htmlFor="order-sort" className="form-label small mb-1">
            Sort by
          </label>
          <select
            id="order-sort"
            className="form-select form-select-sm"
            value={`${sort.by}:${sort.dir}`}
            onChange={(e) => {
              const [by, dir] = e.target.value.split(':') as [OrderSort, 'asc' | 'desc'];
              params.setSort({ by, dir });
            }}
          >
            <option value="date:desc">Newest first</option>
            <option value="date:asc">Oldest first</option>
            <option value="total:desc">Total, largest first</option>
            <option value="total:asc">Total, smallest first</option>
            <option value="status:asc">Status, unpaid first</option>
            <option value="status:desc">Status, delivered first</option>
          </select>
        </div>
        <ul className="d-lg-none list-unstyled d-grid gap-3 mb-3" data-testid="order-cards">
          {orders.map((o) => {
            const status = statusOf(o);
            return (
              <li key={o._id} className="card" data-testid="order-card" data-id={o._id}>
                <div className="card-body">
                  <div className="d-flex justify-content-between align-items-start gap-2 mb-1">
                    <div className="form-check mb-0">
                      <input
                        id={`select-card-${o._id}`}
                        type="checkbox"
                        className="form-check-input"
                        checked={selected.has(o._id)}
                        onChange={() => toggle(o)}
                      />
                      <label htmlFor={`select-card-${o._id}`} className="form-check-label fw-semibold">
                        Order {orderLabel(o)}
                      </label>
                    </div>
                    <span className="fw-semibold text-nowrap">{formatMoney(o.totalPrice)}</span>
                  </div>
                  <p className="small mb-1 text-break">
                    <Buyer user={o.user} />
                  </p>
                  <p className="small text-body-secondary mb-1">
                    Placed on {new Date(o.createdAt).toLocaleDateString()} ·{' '}
                    <span className="font-monospace text-break">{o._id}</span>
                  </p>
                  <OrderStepsLine order={o}>
                    <span className={`badge text-bg-${status.tone}`}>{status.label}</span>
                  </OrderStepsLine>
                  {o.refundedPrice > 0 && <OrderStateNote order={{ ...o, isCancelled: false }} />}
                  <div className="mt-2">
                    <OrderDetailsLink id={o._id} />
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
        <div className="d-none d-lg-block table-responsive position-relative">
          <table className="table table-striped table-hover table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    className="form-check-input"
                    checked={allOnPage}
                    onChange={togglePage}
                    aria-label="Select every order on this page"
                  />
                </th>
                <th scope="col">ID</th>
                <th scope="col">USER</th>
                {sortable('date', 'DATE')}
                {sortable('total', 'TOTAL')}
                {sortable('status', 'STATUS')}
                <th scope="col">PAID</th>
                <th scope="col">SHIPPED</th>
                <th scope="col">DELIVERED</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => {
                const status = statusOf(o);
                return (
                  <tr key={o._id} data-testid="order-row" data-id={o._id}>
                    <td>
                      <input
                        type="checkbox"
                        className="form-check-input"
                        checked={selected.has(o._id)}
                        onChange={() => toggle(o)}
                        aria-label={`Select order ${orderLabel(o)}`}
                      />
                    </td>
                    <td>
                      <span className="fw-semibold">{orderLabel(o)}</span>
                      <div className="font-monospace small text-body-secondary">{o._id}</div>
                    </td>
                    <td className="text-break">
                      <Buyer user={o.user} />
                    </td>
                    <td className="text-nowrap">{new Date(o.createdAt).toLocaleDateString()}</td>
                    <td className="text-nowrap">{formatMoney(o.totalPrice)}</td>
                    <td>
                      <span className={`badge text-bg-${status.tone}`} data-testid="order-status">
                        {status.label}
                      </span>
                      {o.refundedPrice > 0 && <OrderStateNote order={{ ...o, isCancelled: false }} />}
                    </td>
                    <OrderProgressCells order={o} />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </ListResults>

      <ConfirmDialog
        show={confirming}
        title={`Mark ${plural(chosen.length)} delivered?`}
        confirmLabel="Mark delivered"
        variant="primary"
        busy={deliver.isPending}
        error={deliver.error?.message}
        onConfirm={onDeliver}
        onCancel={() => setConfirming(false)}
      >
        <p className="mb-2">
          {chosen.length === 1 ? 'This order is' : 'These orders are'} marked delivered. Only shipped orders can be: if
          one is not, none is changed.
        </p>
        <ul className="mb-0 small" data-testid="confirm-orders">
          {chosen.map((o) => (
            <li key={o._id}>
              {orderLabel(o)} ·{' '}
              {o.user.isGuest ? `${o.user.firstName} ${o.user.lastName}`.trim() || o.user.email : o.user.username} ·{' '}
              {formatMoney(o.totalPrice)} · {statusOf(o).label}
            </li>
          ))}
        </ul>
      </ConfirmDialog>
      <TimedToast toast={toast} delay={TOAST_MS.adminAction} onClose={() => setToast(null)} />
    </>
  );
}
