import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { rowFromJson } from '#server/lib/sql.ts';
import {
  mailOutbox,
  orderAccessTokens,
  orderItems,
  orders,
  payments,
  productVariants,
  products,
  trackingNumbers,
} from '#server/db/schema/index.ts';
import type { OrderItemRow, OrderRow } from './orders-read.repository.ts';

type Conn = Db | Tx;

/** What placing, paying, shipping and expiring orders write, and the reads they decide on. */
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
   * Places an order in one statement, which PostgreSQL runs as one transaction: takes the stock of
   * every product (rows locked in id order), inserts the order, its items and its confirmation mail.
   * One statement, so a product's row is locked only while the database runs it, never across a
   * round trip to this process (a busy event loop would hold every other buyer of that product).
   * Stock is taken unconditionally: the `products_stock_nonneg` check fails the whole statement when
   * any product is short, which the caller reads with `pgErrorOf` (nothing is written then).
   */
  async placeWithStock(
    db: Db,
    order: typeof orders.$inferInsert & { id: string },
    items: (typeof orderItems.$inferInsert)[],
    mail: typeof mailOutbox.$inferInsert,
    wanted: { productId: string; qty: number }[],
  ): Promise<{ row: OrderRow; items: OrderItemRow[]; left: Map<string, number> }> {
    // array literals (hex ids and integers only): both drivers pass a text parameter the same way
    const ids = `{${wanted.map((w) => w.productId).join(',')}}`;
    const qtys = `{${wanted.map((w) => Math.trunc(w.qty)).join(',')}}`;
    if (!/^\{[0-9a-f]{24}(,[0-9a-f]{24})*\}$/.test(ids)) throw new Error('placeWithStock: bad product ids');
    const result = await db.execute<{
      taken: { id: string; stock: number }[] | null;
      placed: object;
      items: object[];
    }>(sql`
      with locked as (
        select ${products.id} as id from ${products}
        where ${products.id} = any(${ids}::char(24)[]) order by ${products.id} for update
      ), taken as (
        update ${products} set count_in_stock = ${products.countInStock} - w.qty
        from unnest(${ids}::char(24)[], ${qtys}::int[]) as w(id, qty)
        where ${products.id} = w.id and ${products.id} in (select id from locked)
        returning ${products.id} as id, ${products.countInStock} as stock
      ),
      placed as (${db.insert(orders).values(order).returning().getSQL()}),
      items as (${db.insert(orderItems).values(items).returning().getSQL()}),
      mail as (${db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id }).getSQL()})
      select (select json_agg(t) from taken t) as taken,
             (select row_to_json(p) from placed p) as placed,
             (select json_agg(i) from items i) as items,
             (select count(*) from mail) as mails`);
    const [out] = result.rows;
    return {
      row: rowFromJson(orders, out!.placed as Record<string, unknown>),
      items: (out!.items as Record<string, unknown>[])
        .map((i) => rowFromJson(orderItems, i))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      left: new Map((out!.taken ?? []).map((t) => [t.id, t.stock])),
    };
  },

  /** Stock and name of each product, for the order gate (stock-gate.ts). */
  async stockOf(db: Conn, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .select({ id: products.id, name: products.name, stock: products.countInStock })
      .from(products)
      .where(inArray(products.id, ids));
  },

  /** Gives back what cancelled orders had taken, one UPDATE for all their products; answers their ids. */
  async returnStock(tx: Tx, orderIds: string[]): Promise<string[]> {
    if (orderIds.length === 0) return [];
    const result = await tx.execute<{ id: string }>(sql`
      update ${products} p set count_in_stock = p.count_in_stock + s.qty
      from (
        select ${orderItems.productId} as product_id, sum(${orderItems.qty})::int as qty
        from ${orderItems}
        where ${inArray(orderItems.orderId, orderIds)} and ${orderItems.productId} is not null
        group by ${orderItems.productId}
      ) s
      where p.id = s.product_id
      returning p.id`);
    return result.rows.map((r) => r.id);
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

  /** An unexpired token of this order, which a guest placed (an account's order is read signed in). */
  async accessTokenValid(db: Conn, orderId: string, tokenHash: string): Promise<boolean> {
    const [row] = await db
      .select({ orderId: orderAccessTokens.orderId })
      .from(orderAccessTokens)
      .innerJoin(orders, eq(orders.id, orderAccessTokens.orderId))
      .where(
        and(
          eq(orderAccessTokens.tokenHash, tokenHash),
          eq(orderAccessTokens.orderId, orderId),
          gt(orderAccessTokens.expiresAt, new Date()),
          eq(orders.isGuest, true),
        ),
      );
    return Boolean(row);
  },
};
