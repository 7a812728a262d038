import { formatMoney, LOW_STOCK_DEFAULT, STATS_DEFAULT_DAYS, type Stats } from '@store/shared';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAdminStats, useRefundsDue } from './api.ts';
import { DailyChart } from './DailyChart.tsx';
import {
  cardLink,
  chartSummary,
  dashboardSearch,
  parseThreshold,
  rangeFromSearch,
  rangeLabel,
  type Card,
  type DayRange,
} from './dashboard.ts';
import { RangePicker } from './RangePicker.tsx';
import { DaysTable, LowStock, ThresholdInput, TopProducts } from './StatsTables.tsx';
import { useBsTheme } from './use-bs-theme.ts';

const count = (n: number) => n.toLocaleString('en-US');

const CARDS: { key: Card; label: string; value: (s: Stats) => string; note: (s: Stats) => string }[] = [
  {
    key: 'revenue',
    label: 'Revenue',
    value: (s) => formatMoney(s.revenue),
    note: (s) => (s.refunded > 0 ? `after ${formatMoney(s.refunded)} refunded` : `from ${count(s.paidOrders)} paid`),
  },
  { key: 'orders', label: 'Orders', value: (s) => count(s.orders), note: (s) => `${count(s.paidOrders)} paid` },
  {
    key: 'average',
    label: 'Average order value',
    value: (s) => formatMoney(s.averageOrderValue),
    note: () => 'per paid order',
  },
  { key: 'toShip', label: 'Orders to ship', value: (s) => count(s.toShip), note: () => 'paid, any date' },
];

function StatCard({ card, range, stats }: { card: (typeof CARDS)[number]; range: DayRange; stats?: Stats }) {
  return (
    <li className="col-6 col-lg-3">
      <Link to={cardLink(card.key, range)} className="card dash-card h-100" data-testid={`card-${card.key}`}>
        <span className="card-body d-block">
          <span className="d-block small text-body-secondary">{card.label}</span>
          {stats ? (
            <>
              <span className="d-block dash-figure" data-testid="card-value">
                {card.value(stats)}
              </span>
              <span className="d-block small text-body-secondary">{card.note(stats)}</span>
            </>
          ) : (
            <span className="d-block placeholder-glow" aria-hidden="true">
              <span className="d-block dash-figure">
                <span className="placeholder col-8" />
              </span>
              <span className="d-block small">
                <span className="placeholder col-5" />
              </span>
            </span>
          )}
          <span className="visually-hidden">, show these orders</span>
        </span>
      </Link>
    </li>
  );
}

function Panel({ id, title, aside, children }: { id: string; title: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className="card h-100" aria-labelledby={id}>
      <div className="card-body">
        <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
          <h2 id={id} className="h5 mb-0">
            {title}
          </h2>
          {aside}
        </div>
        {children}
      </div>
    </section>
  );
}

/** Payments to give back by hand, when there are any: a link to those orders. */
function RefundsDueNotice() {
  const due = useRefundsDue();
  if (!due.data) return null;
  return (
    <Message variant="warning">
      <span data-testid="refunds-due">
        {due.data === 1 ? '1 payment' : `${count(due.data)} payments`} arrived for cancelled orders and PayPal has not
        refunded {due.data === 1 ? 'it' : 'them'} yet (the store keeps trying).{' '}
        <Link to="/admin/orderlist?refundDue=yes">Show these orders</Link>
      </span>
    </Message>
  );
}

/**
 * The admin's sales overview: totals of a range of UTC days (each card opens the matching order
 * list), revenue and orders per day as a chart and a table, best sellers and low stock. The range
 * and the low-stock threshold live in the address, so a reload or a shared link shows the same.
 */
export default function AdminDashboardPage() {
  useDocumentTitle('Dashboard');
  const [search, setSearch] = useSearchParams();
  const { range, invalid } = useMemo(() => rangeFromSearch(search), [search]);
  const lowStock = parseThreshold(search.get('lowStock'));
  const stats = useAdminStats(range, lowStock);
  const theme = useBsTheme();
  const [showTable, setShowTable] = useState(false);
  const data = stats.data;

  const setRange = (next: DayRange) => setSearch(dashboardSearch(next, lowStock));
  const setThreshold = useCallback(
    (n: number) => setSearch(dashboardSearch(range, n), { replace: true }),
    [range, setSearch],
  );

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-3 mb-3">
        <div>
          <h1 className="h3 mb-1">Dashboard</h1>
          <p className="text-body-secondary small mb-0" aria-live="polite" data-testid="dash-range">
            {rangeLabel(range)} · Days in UTC
            {stats.isFetching && data && (
              <>
                <span className="spinner-border spinner-border-sm ms-2" aria-hidden="true" />
                <span className="visually-hidden">Updating…</span>
              </>
            )}
          </p>
        </div>
        <RangePicker range={range} onChange={setRange} />
      </div>

      <RefundsDueNotice />

      {invalid && (
        <Message variant="warning">
          The address names a range that cannot be shown: here are the last {STATS_DEFAULT_DAYS} days.
        </Message>
      )}

      {stats.error ? (
        <Message variant="danger">{stats.error.message || 'Failed to load the figures'}</Message>
      ) : (
        <div aria-busy={stats.isFetching}>
          <section aria-labelledby="dash-totals">
            <h2 id="dash-totals" className="visually-hidden">
              Totals
            </h2>
            <ul className="row g-3 list-unstyled mb-4">
              {CARDS.map((card) => (
                <StatCard key={card.key} card={card} range={range} stats={data} />
              ))}
            </ul>
          </section>

          <div className="mb-4">
            <Panel
              id="dash-chart-title"
              title="Revenue and orders per day"
              aside={
                <button
                  type="button"
                  className={`btn btn-sm btn-outline-secondary${showTable ? ' active' : ''}`}
                  aria-pressed={showTable}
                  aria-controls={data ? 'dash-days' : undefined}
                  onClick={() => setShowTable((v) => !v)}
                >
                  Show as table
                </button>
              }
            >
              <div className="dash-chart-box">
                {data ? (
                  <div role="img" aria-label={chartSummary(data)} className="h-100">
                    <DailyChart days={data.byDay} theme={theme} />
                  </div>
                ) : (
                  <Loader label="Loading the figures…" />
                )}
              </div>
              {data?.paidOrders === 0 && (
                <p className="text-body-secondary small mt-2 mb-0">No paid orders in this range.</p>
              )}
              {data && <DaysTable id="dash-days" stats={data} shown={showTable} />}
            </Panel>
          </div>

          <div className="row g-4">
            <div className="col-lg-6">
              <Panel id="dash-top" title="Top products">
                {data ? <TopProducts products={data.topProducts} /> : <Loader label="Loading top products…" />}
              </Panel>
            </div>
            <div className="col-lg-6">
              <Panel
                id="dash-low"
                title="Low stock"
                aside={<ThresholdInput value={lowStock ?? LOW_STOCK_DEFAULT} onChange={setThreshold} />}
              >
                {data ? (
                  <LowStock items={data.lowStock} threshold={data.lowStockThreshold} />
                ) : (
                  <Loader label="Loading low stock…" />
                )}
              </Panel>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
