import {
  DATE_MAX,
  cleanText,
  dateParamMessages,
  isObjectId,
  parseBoundedDate,
  type BoundedDate,
  type Order,
  type OrderListQuery,
  type OrderListResponse,
  type OrderSummary,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '#server/lib/errors.ts';
import { Memo } from '#server/lib/memo.ts';
import { RANGE_BOUNDS, RangeCounts, type RangeBounds } from '#server/lib/range-counts.ts';
import { toOrder, toOrderSummary } from './order-view.ts';
import { batchLoader } from '#server/lib/batch-loader.ts';
import { fewMatches, ordersReadRepository as repo, type OrderFilter, type OrderRow } from './orders-read.repository.ts';

const MY_ORDERS_MAX = 500;
const DAY_MS = 86_400_000;

/** A date filter as the query schema took it: a whole UTC day or an instant, from year 1 to 9999. */
function parseDate(name: string, value: string): BoundedDate {
  const parsed = parseBoundedDate(value);
  if (parsed === 'invalid') throw new BadRequestError(dateParamMessages(name).invalid);
  if (parsed === 'out-of-range') throw new BadRequestError(dateParamMessages(name).outOfRange);
  return parsed;
}

/**
 * The end of a `dateTo` filter: the end of its day for a whole day (before the next midnight), else the
 * instant itself. The last day of 9999 ends at the last instant a date may have, since its next
 * midnight is past what the database reads.
 */
function until(value: string): NonNullable<OrderFilter['createdTo']> {
  const { date, wholeDay } = parseDate('dateTo', value);
  if (!wholeDay) return { at: date, inclusive: true };
  const nextDay = new Date(date.getTime() + DAY_MS);
  return nextDay > DATE_MAX ? { at: DATE_MAX, inclusive: true } : { at: nextDay, inclusive: false };
}

/** The admin order list's filters as the repository takes them (the list and its CSV export); a bad date is a 400. */
export function orderFilterOf(
  q: Omit<OrderListQuery, 'pageNumber' | 'pageSize' | 'sortBy' | 'order'> & { ids?: string[] },
): OrderFilter {
  // control and invisible characters dropped first, as PostgreSQL cannot take some (a NUL byte)
  const username = cleanText(q.username ?? '');
  return {
    idPrefix: q.id?.trim() ? q.id : undefined,
    usernamePrefix: username || undefined,
    createdFrom: q.dateFrom?.trim() ? parseDate('dateFrom', q.dateFrom).date : undefined,
    createdTo: q.dateTo?.trim() ? until(q.dateTo) : undefined,
    minTotalCents: q.minTotal !== undefined ? Math.round(q.minTotal * 100) : undefined,
    maxTotalCents: q.maxTotal !== undefined ? Math.round(q.maxTotal * 100) : undefined,
    paid: q.paid,
    shipped: q.shipped,
    delivered: q.delivered,
    cancelled: q.cancelled,
    refunded: q.refunded,
    refundDue: q.refundDue,
    ids: q.ids,
  };
}

/**
 * The admin order list, filtered and paged in SQL; a bad date is a 400. The total is counted first: a list
 * with no match (or a page past its end) reads no rows, and a page of few matches is read from them, sorted
 * (ordersReadRepository.list). With `totals`, each filter set's total is kept while the orders' change mark
 * stays the same (memoizedOrderList).
 */
export async function listOrders(
  db: Db,
  q: OrderListQuery,
  totals?: (filter: OrderFilter) => Promise<{ total: number; tableRows: number }>,
): Promise<OrderListResponse> {
  const filter = orderFilterOf(q);
  const offset = (q.pageNumber - 1) * q.pageSize;
  const { total, tableRows } = totals
    ? await totals(filter)
    : await Promise.all([repo.count(db, filter), repo.marks(db)]).then(([n, m]) => ({
        total: n,
        tableRows: m.tableRows,
      }));
  const rows =
    total === 0 || offset >= total
      ? []
      : await repo.list(
          db,
          filter,
          q.pageSize,
          offset,
          { by: q.sortBy, dir: q.order },
          fewMatches(total, offset, q.pageSize, tableRows),
        );
  return {
    orders: rows.map(toOrderSummary),
    page: q.pageNumber,
    pages: Math.max(1, Math.ceil(total / q.pageSize)),
    total,
  };
}

/**
 * The admin order list with its totals remembered: each request first reads the orders' change marks (one
 * of them changes in the very transaction that places, changes or deletes an order or records a payment,
 * whichever process makes it), and a filter set's total counted under the same marks is used again; a
 * change of the marks forgets every remembered total. Requests arriving together share one read of the
 * marks and one count. A range of amounts (minimum or maximum total) is counted from the totals of the
 * orders its other filters match, read once per change of the marks (RangeCounts): an admin trying
 * amounts, or many admins on a busy list, do not count every matching order per range. The memo belongs
 * to one database (one app).
 */
export function memoizedOrderList(db: Db, size = 2000, ranges: RangeBounds = RANGE_BOUNDS) {
  const amounts = new RangeCounts(ranges);
  let counts = new Memo<number>(size);
  let keptUnder = '';
  const marksNow = batchLoader(async () => new Map([[0, await repo.marks(db)]]), { maxInFlight: 2, maxBatch: 1 });
  const totals = async (filter: OrderFilter) => {
    const marks = (await marksNow(0))!;
    // no marks to check against (a slot's row gone): nothing can be reused
    if (!marks.orders) return { total: await repo.count(db, filter), tableRows: marks.tableRows };
    if (marks.orders !== keptUnder) {
      // what was kept was counted before this change
      keptUnder = marks.orders;
      counts = new Memo<number>(size);
      amounts.forget();
    }
    const { minTotalCents: min, maxTotalCents: max, ...whole } = filter;
    const ranged =
      min !== undefined || max !== undefined
        ? await amounts.count(JSON.stringify(whole), min, max, (limit) => repo.totalsOf(db, whole, limit))
        : undefined;
    const total = ranged ?? (await counts.get(JSON.stringify(filter), () => repo.count(db, filter)));
    return { total, tableRows: marks.tableRows };
  };
  return (q: OrderListQuery) => listOrders(db, q, totals);
}

/** The signed-in account's (or guest's) own orders, newest first (orders_user_idx). */
export async function myOrders(db: Db, userId: string): Promise<OrderSummary[]> {
  return (await repo.listByUser(db, userId, MY_ORDERS_MAX)).map(toOrderSummary);
}

/**
 * The order with its items and tracking, as its owner or an admin reads it; `holdMinutes` (the unpaid
 * hold) dates its payBy, and may be left out where the order answered is paid.
 */
export async function orderView(db: Db, order: OrderRow, holdMinutes = 0, forAdmin = false): Promise<Order> {
  const { items, tracking, events, refunds, history } = await repo.parts(db, order.id, forAdmin);
  return toOrder(order, items, tracking, events, holdMinutes, refunds, history);
}

/** The order of this id; a 404 for an id that is not one. */
export async function findOrder(db: Db, id: string): Promise<OrderRow> {
  const order = isObjectId(id) ? await repo.find(db, id) : undefined;
  if (!order) throw new NotFoundError('Order not found');
  return order;
}

/** Owner (the account or guest that placed it) or admin; anyone else gets 403 and nothing of the order. */
export async function getOrderFor(
  db: Db,
  viewer: { userId: string; isAdmin: boolean },
  id: string,
  holdMinutes: number,
): Promise<Order> {
  const order = await findOrder(db, id);
  if (!viewer.isAdmin && order.userId !== viewer.userId) throw new ForbiddenError('Not authorized to view this order');
  return orderView(db, order, holdMinutes, viewer.isAdmin);
}
