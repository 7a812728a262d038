import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { orderEvents, orders } from '#server/db/schema/index.ts';

type Conn = Db | Tx;

/** The admin order list's actions on a selection of orders. */
export const ordersBulkRepository = {
  /** The selected orders' states (primary key), to say why some cannot be changed. */
  async states(db: Conn, ids: string[]) {
    return db
      .select({
        id: orders.id,
        orderNumber: orders.orderNumber,
        isShipped: orders.isShipped,
        isDelivered: orders.isDelivered,
        isCancelled: orders.isCancelled,
      })
      .from(orders)
      .where(inArray(orders.id, ids));
  },

  /** Marks delivered those of `ids` that are shipped, not delivered and not cancelled; answers their ids. */
  async markDelivered(db: Conn, ids: string[], at: Date): Promise<string[]> {
    const rows = await db
      .update(orders)
      .set({ isDelivered: true, deliveredAt: at })
      .where(
        and(
          inArray(orders.id, ids),
          eq(orders.isShipped, true),
          eq(orders.isDelivered, false),
          eq(orders.isCancelled, false),
        ),
      )
      .returning({ id: orders.id });
    return rows.map((r) => r.id);
  },

  /** One history entry per order, in one statement. */
  async addEvents(db: Conn, orderIds: string[], event: string, by: string) {
    if (orderIds.length === 0) return;
    await db
      .insert(orderEvents)
      .values(orderIds.map((orderId) => ({ orderId, event, by: by.slice(0, 120), note: '' })));
  },
};
