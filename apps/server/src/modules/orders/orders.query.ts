import {
  DATE_MAX,
  cleanText,
  dateParamMessages,
  parseBoundedDate,
  type BoundedDate,
  type OrderListQuery,
  type OrderListResponse,
  type OrderSummary,
} from '@store/shared';
import { and, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema/index.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { escapeLike } from '../../lib/sql.ts';
import { toOrderSummary } from './order-view.ts';
import { ordersRepository as repo } from './orders.repository.ts';

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
 * Orders up to `dateTo`: to the end of its day for a whole day (before the next midnight), else up to
 * the instant itself. The last day of 9999 ends at the last instant a date may have, since its next
 * midnight is past what the database reads.
 */
function until(value: string): SQL {
  const { date, wholeDay } = parseDate('dateTo', value);
  if (!wholeDay) return lte(orders.createdAt, date);
  const nextDay = new Date(date.getTime() + DAY_MS);
  return nextDay > DATE_MAX ? lte(orders.createdAt, DATE_MAX) : lt(orders.createdAt, nextDay);
}

/** A 24-hex id or its prefix, as a range on the primary key (the btree answers it, unlike LIKE). */
function idPrefix(prefix: string): SQL {
  const p = prefix.trim().toLowerCase();
  if (!/^[0-9a-f]{1,24}$/.test(p)) return sql`false`;
  return and(gte(orders.id, p.padEnd(24, '0')), lte(orders.id, p.padEnd(24, 'f')))!;
}

/**
 * Admin order list (spec §2 admin orders), filtered and paged in SQL: id prefix (primary key), username
 * prefix (lower(username) index), dates (orders_created_idx), totals (orders_total_idx) and the
 * paid/shipped/delivered flags (orders_state_idx).
 */
export async function listOrders(db: Db, q: OrderListQuery): Promise<OrderListResponse> {
  const where: (SQL | undefined)[] = [];
  if (q.id?.trim()) where.push(idPrefix(q.id));
  // control and invisible characters dropped first, as PostgreSQL cannot take some (a NUL byte)
  const username = cleanText(q.username ?? '').toLowerCase();
  if (username) where.push(sql`lower(${orders.username}) like ${`${escapeLike(username)}%`}`);
  if (q.dateFrom?.trim()) where.push(gte(orders.createdAt, parseDate('dateFrom', q.dateFrom).date));
  if (q.dateTo?.trim()) where.push(until(q.dateTo));
  if (q.minTotal !== undefined) where.push(gte(orders.totalCents, Math.round(q.minTotal * 100)));
  if (q.maxTotal !== undefined) where.push(lte(orders.totalCents, Math.round(q.maxTotal * 100)));
  if (q.paid !== undefined) where.push(eq(orders.isPaid, q.paid));
  if (q.shipped !== undefined) where.push(eq(orders.isShipped, q.shipped));
  if (q.delivered !== undefined) where.push(eq(orders.isDelivered, q.delivered));

  const filter = and(...where);
  const [rows, total] = await Promise.all([
    repo.list(db, filter, q.pageSize, (q.pageNumber - 1) * q.pageSize),
    repo.count(db, filter),
  ]);
  return {
    orders: rows.map(toOrderSummary),
    page: q.pageNumber,
    pages: Math.max(1, Math.ceil(total / q.pageSize)),
    total,
  };
}

/** The signed-in account's (or guest's) own orders, newest first (orders_user_idx). */
export async function myOrders(db: Db, userId: string): Promise<OrderSummary[]> {
  return (await repo.listByUser(db, userId, MY_ORDERS_MAX)).map(toOrderSummary);
}
