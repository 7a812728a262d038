import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
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
import { direct, PreparedShapes, type Bind } from '#server/lib/prepared-shapes.ts';
import { escapeLike, idPrefixBounds, idPrefixRange, integersOf } from '#server/lib/sql.ts';

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

/** The status ranks (orderStatusRank) an order matching these flags can have; undefined when any can. */
function ranksOf(f: OrderFilter): number[] | undefined {
  const ranks = new Set<number>();
  for (let bits = 0; bits < 16; bits++) {
    const [paid, shipped, delivered, cancelled] = [1, 2, 4, 8].map((b) => (bits & b) !== 0);
    if (f.paid !== undefined && f.paid !== paid) continue;
    if (f.shipped !== undefined && f.shipped !== shipped) continue;
    if (f.delivered !== undefined && f.delivered !== delivered) continue;
    if (f.cancelled !== undefined && f.cancelled !== cancelled) continue;
    ranks.add(cancelled ? 4 : delivered ? 3 : shipped ? 2 : paid ? 1 : 0);
  }
  return ranks.size < 5 ? [...ranks].sort() : undefined;
}

/**
 * Every column a condition reads is in each of the list's sort indexes (orders_created_idx,
 * orders_total_idx, orders_status_sort_idx) and in orders_username_prefix_idx, so conditions and counts
 * are checked on an index alone. The flags also narrow the status rank (the same rows, said so that the
 * status sort's index is entered at the ranks they can have instead of walked past the others); the
 * orders holding a payment to refund are the few rows of the partial payments_refund_due_idx.
 */
function whereOf(f: OrderFilter, bind: Bind = direct): SQL | undefined {
  const to = f.createdTo;
  const ranks = ranksOf(f);
  // a time goes in as the text Drizzle would send for it (a placeholder skips the column's encoder)
  return and(
    f.idPrefix !== undefined ? idPrefixRange(orders.id, f.idPrefix, bind) : undefined,
    f.usernamePrefix !== undefined
      ? sql`lower(${orders.username}) like ${bind('username', `${escapeLike(f.usernamePrefix.toLowerCase())}%`)}`
      : undefined,
    f.createdFrom !== undefined
      ? sql`${orders.createdAt} >= ${bind('createdFrom', f.createdFrom.toISOString())}`
      : undefined,
    to !== undefined
      ? sql`${orders.createdAt} ${to.inclusive ? sql`<=` : sql`<`} ${bind('createdTo', to.at.toISOString())}`
      : undefined,
    f.minTotalCents !== undefined ? gte(orders.totalCents, bind('minTotalCents', f.minTotalCents)) : undefined,
    f.maxTotalCents !== undefined ? lte(orders.totalCents, bind('maxTotalCents', f.maxTotalCents)) : undefined,
    f.paid !== undefined ? eq(orders.isPaid, bind('paid', f.paid)) : undefined,
    f.shipped !== undefined ? eq(orders.isShipped, bind('shipped', f.shipped)) : undefined,
    f.delivered !== undefined ? eq(orders.isDelivered, bind('delivered', f.delivered)) : undefined,
    f.cancelled !== undefined ? eq(orders.isCancelled, bind('cancelled', f.cancelled)) : undefined,
    f.refunded !== undefined
      ? f.refunded
        ? sql`${orders.refundedCents} > 0`
        : sql`${orders.refundedCents} = 0`
      : undefined,
    ranks !== undefined
      ? inArray(
          orderStatusRank(orders),
          ranks.map((r, i) => bind(`ranks.${i}`, r)),
        )
      : undefined,
    // payments.order_id is never null: NOT IN is the exact opposite of IN
    f.refundDue !== undefined
      ? sql`${orders.id} ${f.refundDue ? sql`in` : sql`not in`} (select p.order_id from ${payments} p where p.status = 'REFUND_DUE')`
      : undefined,
    f.ids !== undefined
      ? f.ids.length
        ? inArray(
            orders.id,
            f.ids.map((id, i) => bind(`ids.${i}`, id)),
          )
        : sql`false`
      : undefined,
  );
}

/** The filter choices no bound value shows (PreparedShapes): conditions written without a value. */
function shapeOf(f: OrderFilter): string {
  return JSON.stringify([
    f.idPrefix !== undefined && !idPrefixBounds(f.idPrefix),
    f.createdTo?.inclusive,
    f.refunded,
    f.refundDue,
    f.ids?.length === 0,
  ]);
}

/** The admin list's page statement, built once per shape (the sort, the filters present). */
const listShapes = new PreparedShapes();

/** Newest first, matching orders_created_idx (created_at DESC NULLS LAST, id DESC NULLS LAST). */
const newestFirst = [sql`${orders.createdAt} desc nulls last`, sql`${orders.id} desc nulls last`];

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

/**
 * The same order as orderByOf, said so that no index answers it: the few matching rows are then found by
 * the conditions' indexes and sorted, instead of a sort index walked past every row that does not match.
 */
function orderByUnindexed(s: OrderSortSpec): SQL[] {
  const up = s.dir === 'asc';
  const id = sql`(${orders.id} || '')`;
  if (s.by === 'total') {
    const total = sql`(${orders.totalCents} + 0)`;
    return up ? [sql`${total} asc`, sql`${id} asc`] : [sql`${total} desc`, sql`${id} desc`];
  }
  const at = sql`(${orders.createdAt} + interval '0 s')`;
  const newest = [sql`${at} desc nulls last`, sql`${id} desc`];
  if (s.by === 'status') {
    const rank = sql`(${orderStatusRank(orders)} + 0)`;
    return [up ? sql`${rank} asc` : sql`${rank} desc`, ...newest];
  }
  return up ? [sql`${at} asc nulls first`, sql`${id} asc`] : newest;
}

/**
 * Whether a page is read faster from the few matching rows, sorted, than by walking the sort's index: the
 * walk passes about (offset + limit) × table / matches entries, the other reads every match (each dearer).
 */
export function fewMatches(matches: number, offset: number, limit: number, tableRows: number): boolean {
  return matches * matches * 8 <= (offset + limit) * Math.max(tableRows, matches);
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

  /**
   * A page of the admin list. With `few` matches (fewMatches) they are found by the conditions' indexes
   * and sorted; else as a deferred join: the page's ids are picked walking the sort's index alone (an
   * index-only scan, the conditions checked on it), then only the page's rows are read.
   */
  async list(
    db: Conn,
    filter: OrderFilter,
    limit: number,
    offset: number,
    sort: OrderSortSpec = { by: 'date', dir: 'desc' },
    few = false,
  ): Promise<OrderRow[]> {
    const shape = `${sort.by} ${sort.dir} ${few ? 'few' : ''} ${shapeOf(filter)}`;
    return listShapes.run(db, shape, (bind) => this.listStatement(db, filter, limit, offset, sort, few, bind));
  },

  /** The statement `list` runs, each value put in by `bind`. */
  listStatement(
    db: Conn,
    filter: OrderFilter,
    limit: number,
    offset: number,
    sort: OrderSortSpec,
    few: boolean,
    bind: Bind = direct,
  ) {
    if (few)
      return db
        .select()
        .from(orders)
        .where(whereOf(filter, bind))
        .orderBy(...orderByUnindexed(sort))
        .limit(bind('limit', limit))
        .offset(bind('offset', offset));
    const orderBy = orderByOf(sort);
    const page = db
      .select({ id: orders.id })
      .from(orders)
      .where(whereOf(filter, bind))
      .orderBy(...orderBy)
      .limit(bind('limit', limit))
      .offset(bind('offset', offset));
    return db
      .select()
      .from(orders)
      .where(inArray(orders.id, page))
      .orderBy(...orderBy);
  },

  /**
   * The marks of the orders the admin list reads (one per slot, joined): one of them changes in the very
   * transaction that places, changes or deletes an order or records a payment or changes its status. With
   * the planner's estimate of the table's rows. Empty marks when a slot's row is gone (nothing can be
   * trusted then).
   */
  async marks(db: Conn): Promise<{ orders: string; tableRows: number }> {
    const result = await db.execute<{ orders: string | null; rows: unknown }>(sql`
      select (select string_agg(orders::text, ',' order by slot) from change_marks having count(*) = 8) as orders,
        (select reltuples from pg_class where oid = 'orders'::regclass) as rows`);
    const row = result.rows[0];
    return { orders: row?.orders ?? '', tableRows: Math.max(0, Number(row?.rows ?? 0)) };
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

  /**
   * The totals (cents) of at most `limit` of the orders matching `filter`, in no order, read from the index
   * the conditions pick (every list index holds the total).
   */
  async totalsOf(db: Conn, filter: OrderFilter, limit: number): Promise<Int32Array> {
    return integersOf(db, orders.totalCents, orders, whereOf(filter), limit);
  },

  async count(db: Conn, filter: OrderFilter): Promise<number> {
    const [row] = await db.select({ n: count() }).from(orders).where(whereOf(filter));
    return row?.n ?? 0;
  },
};
