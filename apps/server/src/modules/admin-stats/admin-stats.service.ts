import {
  LOW_STOCK_DEFAULT,
  STATS_DEFAULT_DAYS,
  STATS_MAX_DAYS,
  STATS_MESSAGES,
  fromCents,
  type Stats,
  statsSchema,
  type StatsQuery,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { batchLoader } from '#server/lib/batch-loader.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import { Memo } from '#server/lib/memo.ts';
import { adminStatsRepository as repo } from './admin-stats.repository.ts';

/** The best sellers listed. */
export const TOP_PRODUCTS = 10;
/** The low-stock lines listed. */
export const LOW_STOCK_LINES = 20;

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
const FIRST_DAY = '0001-01-01';
const maxDay = (a: string, b: string) => (a > b ? a : b);

/**
 * The range asked for, in UTC days with both ends included: `to` defaults to today, `from` to the 30
 * days ending on `to`. `from` after `to`, or more than 366 days, is refused.
 */
export function statsRange(q: Pick<StatsQuery, 'from' | 'to'>, now = new Date()): { from: string; to: string } {
  const to = q.to ?? dayOf(now);
  // PostgreSQL's calendar starts at year 1
  const from = q.from ?? maxDay(dayOf(new Date(msOf(to) - (STATS_DEFAULT_DAYS - 1) * DAY_MS)), FIRST_DAY);
  if (from > to) throw new BadRequestError(STATS_MESSAGES.order);
  if ((msOf(to) - msOf(from)) / DAY_MS + 1 > STATS_MAX_DAYS) throw new BadRequestError(STATS_MESSAGES.tooLong);
  return { from, to };
}

/**
 * The sales overview of a range of days:
 * - `orders`: orders placed in the range, whatever became of them (unpaid and cancelled ones included);
 * - `revenue`: the totals of the orders paid in the range, less what was refunded of them (`refunded`);
 * - `averageOrderValue`: revenue per order paid in the range, to the cent (0 when none was paid);
 * - `byDay`: every day of the range, zeros included: orders placed and revenue paid that day;
 * - `topProducts`: the 10 best sellers of the orders paid in the range, by the price × quantity of their
 *   lines (before an order's discount, tax and shipping);
 * - `lowStock`: the 20 lowest stocks at or under the threshold (default 5): a product's own stock when it
 *   has no variants or some variant draws on it, and each variant with a stock of its own;
 * - `toShip`: paid orders not shipped yet and not cancelled, whatever their date.
 */
export async function salesOverview(db: Db, q: StatsQuery, now = new Date()): Promise<Stats> {
  const range = statsRange(q, now);
  const threshold = q.lowStock ?? LOW_STOCK_DEFAULT;
  const [sales, low, toShip] = await Promise.all([salesOf(db, range), lowStockOf(db, threshold), repo.toShip(db)]);
  return overview(range, threshold, sales, low, toShip);
}

type Range = { from: string; to: string };
type Sales = Pick<
  Stats,
  'revenue' | 'orders' | 'paidOrders' | 'averageOrderValue' | 'refunded' | 'byDay' | 'topProducts'
>;

/** The figures of the orders of a range: totals, days and best sellers. */
async function salesOf(db: Db, range: Range): Promise<Sales> {
  const [{ totals, days }, top] = await Promise.all([repo.byDay(db, range), repo.topProducts(db, range, TOP_PRODUCTS)]);
  const revenueCents = totals.grossCents - totals.refundedCents;
  return {
    revenue: fromCents(revenueCents),
    orders: totals.orders,
    paidOrders: totals.paidOrders,
    averageOrderValue: totals.paidOrders ? fromCents(Math.round(revenueCents / totals.paidOrders)) : 0,
    refunded: fromCents(totals.refundedCents),
    byDay: days.map((d) => ({ date: d.date, orders: d.orders, revenue: fromCents(d.grossCents - d.refundedCents) })),
    topProducts: top.map((p) => ({ _id: p.id, name: p.name, qty: p.qty, revenue: fromCents(p.revenueCents) })),
  };
}

async function lowStockOf(db: Db, threshold: number): Promise<Stats['lowStock']> {
  const low = await repo.lowStock(db, threshold, LOW_STOCK_LINES);
  return low.map((s) => ({ _id: s.id, name: s.name, variant: s.variant, countInStock: s.countInStock }));
}

const overview = (
  range: Range,
  threshold: number,
  sales: Sales,
  lowStock: Stats['lowStock'],
  toShip: number,
): Stats => ({
  ...range,
  revenue: sales.revenue,
  orders: sales.orders,
  paidOrders: sales.paidOrders,
  averageOrderValue: sales.averageOrderValue,
  refunded: sales.refunded,
  byDay: sales.byDay,
  topProducts: sales.topProducts,
  lowStock,
  toShip,
  lowStockThreshold: threshold,
});

/**
 * The sales overview as JSON, answered from figures computed earlier while nothing they depend on has
 * changed. Each request first reads the database's change marks (see the repository): a mark changes in
 * the very transaction that places, pays, refunds, ships or cancels an order or changes a stock, whichever
 * process or statement makes it, so reused figures are always those the database would compute now.
 * Figures are keyed by the marks read before they were computed (a change committed during the
 * computation changes the marks, so later requests compute afresh), and requests arriving while they are
 * being computed wait for that one computation. The answer is checked against its schema and serialised
 * once per set of figures. The memo belongs to one database (one app).
 */
export function memoizedSalesOverview(db: Db, size = 64) {
  const sales = new Memo<Sales>(size);
  const lowStock = new Memo<Stats['lowStock']>(size);
  const toShip = new Memo<number>(4);
  const answers = new Memo<string>(size);
  // requests arriving together share one read of the marks, always one begun after they arrived
  const marksNow = batchLoader(async () => new Map([[0, await repo.marks(db)]]), { maxInFlight: 2, maxBatch: 1 });
  return async (q: StatsQuery, now = new Date()): Promise<string> => {
    const range = statsRange(q, now);
    const threshold = q.lowStock ?? LOW_STOCK_DEFAULT;
    const marks = (await marksNow(0))!;
    // no marks to check against (a slot's row gone): nothing can be reused
    if (!marks.sales || !marks.stock) return JSON.stringify(statsSchema.parse(await salesOverview(db, q, now)));
    return answers.get(`${range.from}/${range.to}/${threshold}/${marks.sales}/${marks.stock}`, async () => {
      const [s, low, ship] = await Promise.all([
        sales.get(`${range.from}/${range.to}/${marks.sales}`, () => salesOf(db, range)),
        lowStock.get(`${threshold}/${marks.stock}`, () => lowStockOf(db, threshold)),
        toShip.get(marks.sales, () => repo.toShip(db)),
      ]);
      return JSON.stringify(statsSchema.parse(overview(range, threshold, s, low, ship)));
    });
  };
}
