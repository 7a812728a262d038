import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { orderEvents, orderItems, orderRefunds, orders, payments, paypalCheckouts } from '#server/db/schema/index.ts';

type Conn = Db | Tx;
export type RefundRow = typeof orderRefunds.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

/** What paying through PayPal, cancelling and refunding write, and the reads they decide on. */
export const lifecycleRepository = {
  async addEvent(db: Conn, orderId: string, event: string, by: string, note = '') {
    await db.insert(orderEvents).values({ orderId, event, by: by.slice(0, 120), note: note.slice(0, 500) });
  },

  async addCheckout(db: Conn, paypalOrderId: string, orderId: string) {
    await db.insert(paypalCheckouts).values({ paypalOrderId, orderId }).onConflictDoNothing();
  },

  async checkout(db: Conn, paypalOrderId: string) {
    const [row] = await db.select().from(paypalCheckouts).where(eq(paypalCheckouts.paypalOrderId, paypalOrderId));
    return row;
  },

  async resolveCheckout(db: Conn, paypalOrderId: string) {
    await db
      .update(paypalCheckouts)
      .set({ resolvedAt: new Date() })
      .where(and(eq(paypalCheckouts.paypalOrderId, paypalOrderId), isNull(paypalCheckouts.resolvedAt)));
  },

  /**
   * Leases up to `limit` open checkouts not looked at for `leaseMs` to this process: rows another process
   * is leasing are skipped (SKIP LOCKED) and the lease is written before anyone asks PayPal, so two
   * sweeping processes never ask about the same checkout at once.
   */
  async leaseCheckouts(db: Db, leaseMs: number, limit: number) {
    const res = await db.execute<{ paypal_order_id: string; order_id: string; created_at: string }>(sql`
      update ${paypalCheckouts} c set checked_at = now()
      where c.paypal_order_id in (
        select paypal_order_id from ${paypalCheckouts}
        where resolved_at is null
          and (checked_at is null or checked_at < now() - make_interval(secs => ${leaseMs / 1000}))
        order by checked_at nulls first, created_at
        limit ${limit}
        for update skip locked
      )
      returning c.paypal_order_id, c.order_id, c.created_at::text`);
    return res.rows.map((r) => ({
      paypalOrderId: r.paypal_order_id,
      orderId: r.order_id,
      createdAt: new Date(r.created_at),
    }));
  },

  /** The payment that paid this order (completed), if any. */
  async paidWith(db: Conn, orderId: string): Promise<PaymentRow | undefined> {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'COMPLETED')))
      .orderBy(asc(payments.createdAt))
      .limit(1);
    return row;
  },

  async paymentByProviderId(db: Conn, provider: string, providerPaymentId: string) {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)));
    return row;
  },

  async setPaymentStatus(db: Conn, id: string, status: string) {
    await db.update(payments).set({ status }).where(eq(payments.id, id));
  },

  /** Payments for cancelled orders whose automatic refund has not gone through yet (oldest first). */
  async refundsDue(db: Conn, limit: number) {
    return db
      .select({ payment: payments, orderNumber: orders.orderNumber })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(eq(payments.status, 'REFUND_DUE'))
      .orderBy(asc(payments.createdAt))
      .limit(limit);
  },

  /**
   * Cancels the order if it is neither cancelled nor shipped (and, for `unpaidOnly`, not paid): the row
   * lock makes a racing payment, shipment or second cancel see the cancelled row.
   */
  async cancel(tx: Tx, id: string, unpaidOnly: boolean) {
    const [row] = await tx
      .update(orders)
      .set({ isCancelled: true, cancelledAt: new Date() })
      .where(
        and(
          eq(orders.id, id),
          eq(orders.isCancelled, false),
          eq(orders.isShipped, false),
          unpaidOnly ? eq(orders.isPaid, false) : undefined,
        ),
      )
      .returning();
    return row;
  },

  /**
   * Takes `amountCents` of what is left to refund on a paid order: the conditional UPDATE runs under the
   * order's row lock, so concurrent refunds queue and each sees the sum the previous ones left; one that
   * would go over the total matches nothing.
   */
  async reserveRefund(tx: Tx, orderId: string, amountCents: number) {
    const [row] = await tx
      .update(orders)
      .set({ refundedCents: sql`${orders.refundedCents} + ${amountCents}` })
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.isPaid, true),
          sql`${orders.refundedCents} + ${amountCents} <= ${orders.totalCents}`,
        ),
      )
      .returning({ refundedCents: orders.refundedCents, totalCents: orders.totalCents });
    return row;
  },

  /** Marks units of order lines as put back; the check restocked_qty <= qty refuses more than were bought. */
  async markRestocked(tx: Tx, orderId: string, lines: { item: string; qty: number }[], sign: 1 | -1) {
    for (const l of lines)
      await tx
        .update(orderItems)
        .set({ restockedQty: sql`${orderItems.restockedQty} + ${sign * l.qty}` })
        .where(and(eq(orderItems.id, l.item), eq(orderItems.orderId, orderId)));
  },

  async insertRefund(tx: Tx, values: typeof orderRefunds.$inferInsert & { id: string }) {
    await tx.insert(orderRefunds).values(values);
  },

  async completeRefund(tx: Tx, id: string, providerRefundId: string) {
    const [row] = await tx
      .update(orderRefunds)
      .set({ status: 'COMPLETED', providerRefundId: providerRefundId.slice(0, 64) })
      .where(and(eq(orderRefunds.id, id), eq(orderRefunds.status, 'PENDING')))
      .returning();
    return row;
  },

  /** Undoes a refund PayPal refused: the row goes and the order's refunded sum drops back. */
  async dropRefund(tx: Tx, id: string) {
    const [row] = await tx
      .delete(orderRefunds)
      .where(and(eq(orderRefunds.id, id), eq(orderRefunds.status, 'PENDING')))
      .returning();
    if (!row) return undefined;
    await tx
      .update(orders)
      .set({ refundedCents: sql`${orders.refundedCents} - ${row.amountCents}` })
      .where(eq(orders.id, row.orderId));
    return row;
  },

  /** Refunds PayPal has not confirmed, untouched for `olderThanMs` (the sweep asks again with the same key). */
  async pendingRefunds(db: Conn, olderThanMs: number, limit: number) {
    return db
      .select()
      .from(orderRefunds)
      .where(and(eq(orderRefunds.status, 'PENDING'), lt(orderRefunds.updatedAt, new Date(Date.now() - olderThanMs))))
      .orderBy(asc(orderRefunds.updatedAt))
      .limit(limit);
  },

  async touchRefund(db: Conn, id: string) {
    await db.update(orderRefunds).set({ updatedAt: new Date() }).where(eq(orderRefunds.id, id));
  },

  async itemsOf(db: Conn, orderId: string) {
    return db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  },

  async itemsByIds(db: Conn, ids: string[]) {
    if (ids.length === 0) return [];
    return db.select().from(orderItems).where(inArray(orderItems.id, ids));
  },
};
