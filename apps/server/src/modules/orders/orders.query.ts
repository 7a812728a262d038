import { type OrderListQuery, type OrderListResponse, type OrderSummary } from '@store/shared';
import { and, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema/index.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { escapeLike } from '../../lib/sql.ts';
import { toOrderSummary } from './order-view.ts';
import { ordersRepository as repo } from './orders.repository.ts';

const MY_ORDERS_MAX = 500;
const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' is a whole UTC day; anything else must be an ISO instant. */
function parseDate(value: string, end: boolean): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(day ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(d.getTime())) throw new BadRequestError(`Invalid date: ${value.slice(0, 40)}`);
  return day && end ? new Date(d.getTime() + DAY_MS) : d;
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
  if (q.username?.trim())
    where.push(sql`lower(${orders.username}) like ${`${escapeLike(q.username.trim().toLowerCase())}%`}`);
  if (q.dateFrom?.trim()) where.push(gte(orders.createdAt, parseDate(q.dateFrom.trim(), false)));
  if (q.dateTo?.trim()) {
    const to = q.dateTo.trim();
    where.push(
      /^\d{4}-\d{2}-\d{2}$/.test(to)
        ? lt(orders.createdAt, parseDate(to, true))
        : lte(orders.createdAt, parseDate(to, true)),
    );
  }
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
