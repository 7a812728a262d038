import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import {
  orderEvents,
  orderItems,
  orderRefunds,
  orderStatusRank,
  orders,
  payments,
  trackingEvents,
  trackingNumbers,
} from '#server/db/schema/index.ts';
import { escapeLike, idPrefixRange } from '#server/lib/sql.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type TrackingRow = typeof trackingNumbers.$inferSelect;
export type TrackingEventRow = typeof trackingEvents.$inferSelect;
export type RefundRow = typeof orderRefunds.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;
type Conn = Db | Tx;

/** The admin order list's filters: each one set narrows it. */
export interface OrderFilter {
  /** A 24-hex id or its prefix. */
  idPrefix?: string;
  /** The start of the buyer's username, any case. */
  usernamePrefix?: string;
  createdFrom?: Date;
  /** Placed before this instant, or at it too when `inclusive`. */
  createdTo?: { at: Date; inclusive: boolean };
  minTotalCents?: number;
  maxTotalCents?: number;
  paid?: boolean;
  shipped?: boolean;
  delivered?: boolean;
  cancelled?: boolean;
  /** With at least one refund (true) or none (false). */
  refunded?: boolean;
  /** Holding a payment still to refund (REFUND_DUE: it arrived after the order was cancelled) or not. */
  refundDue?: boolean;
  /** Only these orders (the admin list's selection). */
  ids?: string[];
}

/** The admin list's sort: a column and a direction. */
export interface OrderSortSpec {
  by: 'date' | 'total' | 'status';
  dir: 'asc' | 'desc';
}

/**
 * Each condition has its index: the primary key (id prefix), lower(username), orders_created_idx (dates),
 * orders_total_idx (totals) and orders_state_idx (the paid, shipped and delivered flags).
 */
function whereOf(f: OrderFilter): SQL | undefined {
  const to = f.createdTo;
  return and(
    f.idPrefix !== undefined ? idPrefixRange(orders.id, f.idPrefix) : undefined,
    f.usernamePrefix !== undefined
      ? sql`lower(${orders.username}) like ${`${escapeLike(f.usernamePrefix.toLowerCase())}%`}`
      : undefined,
    f.createdFrom !== undefined ? gte(orders.createdAt, f.createdFrom) : undefined,
    to !== undefined ? (to.inclusive ? lte : lt)(orders.createdAt, to.at) : undefined,
    f.minTotalCents !== undefined ? gte(orders.totalCents, f.minTotalCents) : undefined,
    f.maxTotalCents !== undefined ? lte(orders.totalCents, f.maxTotalCents) : undefined,
    f.paid !== undefined ? eq(orders.isPaid, f.paid) : undefined,
    f.shipped !== undefined ? eq(orders.isShipped, f.shipped) : undefined,
    f.delivered !== undefined ? eq(orders.isDelivered, f.delivered) : undefined,
    f.cancelled !== undefined ? eq(orders.isCancelled, f.cancelled) : undefined,
    f.refunded !== undefined
      ? f.refunded
        ? sql`${orders.refundedCents} > 0`
        : sql`${orders.refundedCents} = 0`
      : undefined,
    f.refundDue !== undefined
      ? sql`${f.refundDue ? sql`` : sql`not `}exists (select 1 from ${payments} p where p.order_id = ${orders.id} and p.status = 'REFUND_DUE')`
      : undefined,
    f.ids !== undefined ? (f.ids.length ? inArray(orders.id, f.ids) : sql`false`) : undefined,
  );
}

/** Newest first, matching orders_created_idx (created_at DESC NULLS LAST, id DESC). */
const newestFirst = [sql`${orders.createdAt} desc nulls last`, sql`${orders.id} desc`];

/**
 * The admin list's ORDER BY, each one its index read forwards or backwards: orders_created_idx
 * (created_at DESC NULLS LAST, id DESC NULLS LAST), orders_total_idx (total_cents, id) and
 * orders_status_sort_idx (status rank, created_at DESC NULLS LAST, id DESC NULLS LAST). The NULLS
 * placement is spelled out because a backward scan reverses it too.
 */
function orderByOf(s: OrderSortSpec): SQL[] {
  const up = s.dir === 'asc';
  if (s.by === 'total') {
    return up
      ? [sql`${orders.totalCents} asc nulls last`, sql`${orders.id} asc nulls last`]
      : [sql`${orders.totalCents} desc nulls first`, sql`${orders.id} desc nulls first`];
  }
  if (s.by === 'status') {
    const rank = orderStatusRank(orders);
    // newest first within a status, whichever way the statuses run
    return [up ? sql`${rank} asc nulls last` : sql`${rank} desc nulls first`, ...newestFirst];
  }
  return up ? [sql`${orders.createdAt} asc nulls first`, sql`${orders.id} asc nulls first`] : newestFirst;
}

/** Orders as they are read: one with its items and tracking, the account's own, the admin list. */
export const ordersReadRepository = {
  async find(db: Conn, id: string): Promise<OrderRow | undefined> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    return row;
  },

  /**
   * An order's items, its tracking numbers (in the order they were added) and their latest events, its
   * refunds, and (for admins) its history.
   */
  async parts(db: Conn, orderId: string, withHistory = false) {
    const [items, tracking, events, refunds, history] = await Promise.all([
      db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id)),
      db
        .select()
        .from(trackingNumbers)
        .where(eq(trackingNumbers.orderId, orderId))
        .orderBy(asc(trackingNumbers.createdAt), asc(trackingNumbers.id)),
      db
        .select({ event: trackingEvents })
        .from(trackingEvents)
        .innerJoin(trackingNumbers, eq(trackingNumbers.id, trackingEvents.trackingNumberId))
        .where(eq(trackingNumbers.orderId, orderId))
        .orderBy(desc(trackingEvents.occurredAt), desc(trackingEvents.id))
        .limit(500),
      db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.createdAt)),
      withHistory
        ? db
            .select()
            .from(orderEvents)
            .where(eq(orderEvents.orderId, orderId))
            .orderBy(asc(orderEvents.at), asc(orderEvents.id))
            .limit(1000)
        : Promise.resolve(undefined),
    ]);
    return { items, tracking, events: events.map((r) => r.event), refunds, history };
  },

  /** The account's (or guest's) orders, newest first (orders_user_idx). */
  async listByUser(db: Conn, userId: string, limit: number) {
    return db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(...newestFirst)
      .limit(limit);
  },

  async list(
    db: Conn,
    filter: OrderFilter,
    limit: number,
    offset: number,
    sort: OrderSortSpec = { by: 'date', dir: 'desc' },
  ) {
    return db
      .select()
      .from(orders)
      .where(whereOf(filter))
      .orderBy(...orderByOf(sort))
      .limit(limit)
      .offset(offset);
  },

  /**
   * The next `limit` orders of the filtered list, newest first, after `after` (keyset paging for the CSV
   * export). `at` is the exact creation instant as text: a Date would drop its microseconds.
   */
  async pageAfter(db: Conn, filter: OrderFilter, after: { at: string; id: string } | null, limit: number) {
    return db
      .select({ order: orders, at: sql<string>`${orders.createdAt}::text` })
      .from(orders)
      .where(
        and(
          whereOf(filter),
          after ? sql`(${orders.createdAt}, ${orders.id}) < (${after.at}::timestamptz, ${after.id})` : undefined,
        ),
      )
      .orderBy(...newestFirst)
      .limit(limit);
  },

  /** The items of these orders, each order's as its page lists them (by id). */
  async itemsOf(db: Conn, orderIds: string[]): Promise<OrderItemRow[]> {
    if (orderIds.length === 0) return [];
    return db
      .select()
      .from(orderItems)
      .where(inArray(orderItems.orderId, orderIds))
      .orderBy(asc(orderItems.orderId), asc(orderItems.id));
  },

  async count(db: Conn, filter: OrderFilter): Promise<number> {
    const [row] = await db.select({ n: count() }).from(orders).where(whereOf(filter));
    return row?.n ?? 0;
  },
};
