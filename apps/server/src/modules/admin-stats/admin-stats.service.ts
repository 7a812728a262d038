import {
  LOW_STOCK_DEFAULT,
  STATS_DEFAULT_DAYS,
  STATS_MAX_DAYS,
  STATS_MESSAGES,
  fromCents,
  type Stats,
  type StatsQuery,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError } from '#server/lib/errors.ts';
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
  const [{ totals, days }, top, low, toShip] = await Promise.all([
    repo.byDay(db, range),
    repo.topProducts(db, range, TOP_PRODUCTS),
    repo.lowStock(db, threshold, LOW_STOCK_LINES),
    repo.toShip(db),
  ]);
  const revenueCents = totals.grossCents - totals.refundedCents;
  return {
    ...range,
    revenue: fromCents(revenueCents),
    orders: totals.orders,
    paidOrders: totals.paidOrders,
    averageOrderValue: totals.paidOrders ? fromCents(Math.round(revenueCents / totals.paidOrders)) : 0,
    refunded: fromCents(totals.refundedCents),
    byDay: days.map((d) => ({ date: d.date, orders: d.orders, revenue: fromCents(d.grossCents - d.refundedCents) })),
    topProducts: top.map((p) => ({ _id: p.id, name: p.name, qty: p.qty, revenue: fromCents(p.revenueCents) })),
    lowStock: low.map((s) => ({ _id: s.id, name: s.name, variant: s.variant, countInStock: s.countInStock })),
    toShip,
    lowStockThreshold: threshold,
  };
}
