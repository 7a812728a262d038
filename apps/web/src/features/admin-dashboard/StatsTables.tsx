import { FILTER_DEBOUNCE_MS, formatMoney, LOW_STOCK_MAX, type Stats } from '@store/shared';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { TableHead } from '#web/components/AdminList.tsx';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { paths } from '#web/lib/paths.ts';
import { longDay, parseThreshold, rangeLabel, THRESHOLD_MESSAGE } from './dashboard.ts';

const NUMERIC = 'text-end text-nowrap';

/**
 * The chart's figures as a table: always there for screen readers, on screen once asked for
 * (scrolling inside its own box, which the keyboard can reach).
 */
export function DaysTable({ id, stats, shown }: { id: string; stats: Stats; shown: boolean }) {
  const box = shown
    ? { className: 'table-responsive dash-days mt-3', tabIndex: 0, role: 'region', 'aria-labelledby': `${id}-caption` }
    : { className: 'visually-hidden' };
  return (
    <div id={id} {...box}>
      <table className="table table-sm table-striped caption-top mb-0">
        <caption id={`${id}-caption`}>Revenue and orders per day, {rangeLabel(stats)} (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" className={NUMERIC}>
              Orders
            </th>
            <th scope="col" className={NUMERIC}>
              Revenue
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.byDay.map((d) => (
            <tr key={d.date} data-testid="day-row">
              <th scope="row" className="fw-normal text-nowrap">
                <time dateTime={d.date}>{longDay(d.date)}</time>
              </th>
              <td className={NUMERIC}>{d.orders.toLocaleString('en-US')}</td>
              <td className={NUMERIC}>{formatMoney(d.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Best sellers of the paid orders in the range, by revenue; a product since deleted has no link. */
export function TopProducts({ products }: { products: Stats['topProducts'] }) {
  if (products.length === 0) return <p className="text-body-secondary mb-0">No paid orders in this range.</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm table-hover align-middle mb-0" data-testid="top-products">
        <caption className="visually-hidden">Best sellers of the paid orders in the range, by revenue</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col" className={NUMERIC}>
              Qty
            </th>
            <th scope="col" className={NUMERIC}>
              Revenue
            </th>
          </tr>
        </thead>
        <tbody>
          {products.map((p, i) => (
            <tr key={p._id ?? `gone-${i}`}>
              <th scope="row" className="fw-normal text-break">
                {p._id ? <Link to={paths.product(p._id)}>{p.name}</Link> : p.name}
              </th>
              <td className={NUMERIC}>{p.qty.toLocaleString('en-US')}</td>
              <td className={NUMERIC}>{formatMoney(p.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const itemName = (p: Stats['lowStock'][number]) => (p.variant ? `${p.name} (${p.variant})` : p.name);

/** Products and variants at or below the threshold, lowest first, each with a link to its editor. */
export function LowStock({ items, threshold }: { items: Stats['lowStock']; threshold: number }) {
  if (items.length === 0)
    return (
      <p className="text-body-secondary mb-0">
        No products with {threshold.toLocaleString('en-US')} or fewer in stock.
      </p>
    );
  return (
    <div className="table-responsive">
      <table className="table table-sm table-hover align-middle mb-0" data-testid="low-stock">
        <caption className="visually-hidden">
          Products with {threshold.toLocaleString('en-US')} or fewer in stock, lowest first
        </caption>
        <TableHead columns={['Product', 'Stock', { hidden: 'Edit' }]} />
        <tbody>
          {items.map((p) => (
            <tr key={`${p._id}/${p.variant}`} data-testid="low-stock-row">
              <th scope="row" className="fw-normal text-break">
                {p.name}
                {p.variant && <span className="d-block small text-body-secondary">{p.variant}</span>}
              </th>
              <td className="text-nowrap">
                <span className={p.countInStock === 0 ? 'badge text-bg-danger' : 'badge text-bg-warning'}>
                  {p.countInStock === 0 ? 'Out of stock' : p.countInStock.toLocaleString('en-US')}
                </span>
              </td>
              <td className="text-end">
                <Link
                  to={paths.adminProductEdit(p._id)}
                  className="btn btn-sm btn-outline-primary"
                  aria-label={`Edit ${itemName(p)}`}
                >
                  Edit
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The low-stock threshold: typing settles for a moment before it applies (kept in the address by the
 * page); anything but a whole number in range says so and applies nothing.
 */
export function ThresholdInput({ value, onChange }: { value: number; onChange: (n: number) => void }) {
  const [text, setText] = useState(String(value));
  const settled = useDebounced(text, FILTER_DEBOUNCE_MS);
  const applied = useRef(settled);
  const invalid = parseThreshold(text) === null;

  useEffect(() => {
    if (settled === applied.current) return;
    applied.current = settled;
    const n = parseThreshold(settled);
    if (n !== null) onChange(n);
  }, [settled, onChange]);

  return (
    <div className="dash-threshold">
      <label htmlFor="dash-threshold" className="form-label small mb-1">
        Stock at or below
      </label>
      <input
        id="dash-threshold"
        type="number"
        inputMode="numeric"
        min={0}
        max={LOW_STOCK_MAX}
        step={1}
        className={`form-control form-control-sm${invalid ? ' is-invalid' : ''}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? 'dash-threshold-error' : undefined}
      />
      {invalid && (
        <div id="dash-threshold-error" className="invalid-feedback d-block">
          {THRESHOLD_MESSAGE}
        </div>
      )}
    </div>
  );
}
