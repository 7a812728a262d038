import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  orderAccessTokens,
  orderItems,
  orders,
  payments,
  productVariants,
  products,
  trackingEvents,
  trackingNumbers,
} from '../../db/schema/index.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type TrackingRow = typeof trackingNumbers.$inferSelect;
export type TrackingEventRow = typeof trackingEvents.$inferSelect;
type Conn = Db | Tx;

/** Newest first, matching orders_created_idx (created_at DESC NULLS LAST, id DESC). */
const newestFirst = [sql`${orders.createdAt} desc nulls last`, sql`${orders.id} desc`];

export const ordersRepository = {
  async productsFor(db: Conn, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .select({
        id: products.id,
        name: products.name,
        image: products.image,
        priceCents: products.priceCents,
        countInStock: products.countInStock,
      })
      .from(products)
      .where(inArray(products.id, ids));
  },

  async variantsFor(db: Conn, productIds: string[]) {
    if (productIds.length === 0) return [];
    return db.select().from(productVariants).where(inArray(productVariants.productId, productIds));
  },

  /**
   * Takes `qty` units if, and only if, that many are left: one conditional UPDATE, so two buyers can
   * never both get the last unit (the row lock orders them; the loser sees the new count).
   */
  async takeStock(tx: Tx, productId: string, qty: number): Promise<boolean> {
    const rows = await tx
      .update(products)
      .set({ countInStock: sql`${products.countInStock} - ${qty}` })
      .where(and(eq(products.id, productId), gte(products.countInStock, qty)))
      .returning({ id: products.id });
    return rows.length === 1;
  },

  /** Gives back what cancelled orders had taken, one UPDATE for all their products. */
  async returnStock(tx: Tx, orderIds: string[]): Promise<void> {
    if (orderIds.length === 0) return;
    await tx.execute(sql`
      update ${products} p set count_in_stock = p.count_in_stock + s.qty
      from (
        select ${orderItems.productId} as product_id, sum(${orderItems.qty})::int as qty
        from ${orderItems}
        where ${inArray(orderItems.orderId, orderIds)} and ${orderItems.productId} is not null
        group by ${orderItems.productId}
      ) s
      where p.id = s.product_id`);
  },

  /**
   * Cancels up to `limit` unpaid orders placed before `cutoff`, skipping rows another process holds
   * (FOR UPDATE SKIP LOCKED: two sweepers never cancel, and so never restock, the same order twice).
   * Unpaid orders are never shipped, so the conditions match orders_state_idx.
   */
  async cancelUnpaidBefore(tx: Tx, cutoff: Date, limit: number): Promise<string[]> {
    const due = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.isPaid, false),
          eq(orders.isShipped, false),
          eq(orders.isDelivered, false),
          eq(orders.isCancelled, false),
          lt(orders.createdAt, cutoff),
        ),
      )
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((r) => r.id);
    await tx.update(orders).set({ isCancelled: true, cancelledAt: new Date() }).where(inArray(orders.id, ids));
    return ids;
  },

  async insertOrder(
    tx: Tx,
    values: typeof orders.$inferInsert,
    items: Omit<typeof orderItems.$inferInsert, 'orderId'>[],
  ) {
    const [order] = await tx.insert(orders).values(values).returning();
    await tx.insert(orderItems).values(items.map((i) => ({ ...i, orderId: order!.id })));
    return order!;
  },

  async find(db: Conn, id: string): Promise<OrderRow | undefined> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    return row;
  },

  async parts(db: Conn, orderId: string) {
    const [items, tracking, events] = await Promise.all([
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
    ]);
    return { items, tracking, events: events.map((r) => r.event) };
  },

  async listByUser(db: Conn, userId: string, limit: number) {
    return db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(...newestFirst)
      .limit(limit);
  },

  async list(db: Conn, where: SQL | undefined, limit: number, offset: number) {
    return db
      .select()
      .from(orders)
      .where(where)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset);
  },

  async count(db: Conn, where: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(orders).where(where);
    return row?.n ?? 0;
  },

  /** Marks paid only an unpaid, live order; undefined when another request got there first. */
  async markPaid(tx: Tx, id: string, paymentResult: NonNullable<OrderRow['paymentResult']>) {
    const [row] = await tx
      .update(orders)
      .set({ isPaid: true, paidAt: new Date(), paymentResult })
      .where(and(eq(orders.id, id), eq(orders.isPaid, false), eq(orders.isCancelled, false)))
      .returning();
    return row;
  },

  async insertPayment(tx: Conn, values: typeof payments.$inferInsert) {
    await tx.insert(payments).values(values);
  },

  async markShipped(tx: Tx, id: string) {
    const [row] = await tx
      .update(orders)
      .set({ isShipped: true, shippedAt: new Date() })
      .where(
        and(eq(orders.id, id), eq(orders.isPaid, true), eq(orders.isShipped, false), eq(orders.isCancelled, false)),
      )
      .returning();
    return row;
  },

  async insertTracking(tx: Tx, orderId: string, rows: { number: string; trackingItem: string[] }[]) {
    // one statement gives every row the same default time: spaced by a millisecond, they keep the admin's order
    const at = Date.now();
    if (rows.length)
      await tx.insert(trackingNumbers).values(rows.map((r, i) => ({ ...r, orderId, createdAt: new Date(at + i) })));
  },

  async markDelivered(db: Conn, id: string) {
    const [row] = await db
      .update(orders)
      .set({ isDelivered: true, deliveredAt: new Date() })
      .where(and(eq(orders.id, id), eq(orders.isShipped, true), eq(orders.isDelivered, false)))
      .returning();
    return row;
  },

  async insertAccessToken(db: Conn, orderId: string, tokenHash: string, expiresAt: Date) {
    await db.insert(orderAccessTokens).values({ orderId, tokenHash, expiresAt });
  },

  async pruneAccessTokens(db: Conn, orderId: string) {
    await db
      .delete(orderAccessTokens)
      .where(and(eq(orderAccessTokens.orderId, orderId), sql`${orderAccessTokens.expiresAt} <= now()`));
  },

  async accessTokenValid(db: Conn, orderId: string, tokenHash: string): Promise<boolean> {
    const [row] = await db
      .select({ orderId: orderAccessTokens.orderId })
      .from(orderAccessTokens)
      .where(
        and(
          eq(orderAccessTokens.tokenHash, tokenHash),
          eq(orderAccessTokens.orderId, orderId),
          gt(orderAccessTokens.expiresAt, new Date()),
        ),
      );
    return Boolean(row);
  },
};
