import type { Order, ShipOrderInput } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import { enqueueMail, orderShippedMail } from '#server/lib/mailer/index.ts';
import type { OrderRow } from './orders-read.repository.ts';
import { findOrder, orderView } from './orders-read.service.ts';
import { lifecycleRepository as life } from './lifecycle.repository.ts';
import { ordersRepository as repo } from './orders.repository.ts';

function whyNotShippable(o: OrderRow): string {
  if (o.isCancelled) return 'Order is cancelled';
  if (!o.isPaid) return 'Order is not paid yet';
  return 'Order already shipped';
}

function whyNotDeliverable(o: OrderRow): string {
  if (!o.isShipped) return 'Order is not shipped yet';
  return 'Order already delivered';
}

/**
 * PUT /api/orders/{id}/ship: paid and not shipped → shipped, with its tracking numbers, and the
 * 'shipped' e-mail queued in the same transaction. The state check is the UPDATE's condition, so two
 * admins clicking at once ship it once.
 */
export async function shipOrder(
  db: Db,
  id: string,
  input: ShipOrderInput,
  ctx: { publicUrl: string; by: string },
): Promise<Order> {
  const before = await findOrder(db, id);
  const tracking = input.trackingNumbers.map((t) => ({
    number: t.number,
    trackingItem: [...new Set(t.trackingItem.map((s) => s.trim()).filter(Boolean))],
  }));
  const shipped = await db.transaction(async (tx) => {
    const row = await repo.markShipped(tx, id);
    if (!row) return undefined;
    await repo.insertTracking(tx, id, tracking);
    const mail = orderShippedMail(ctx.publicUrl, {
      to: row.email,
      name: row.firstName,
      orderId: row.id,
      orderNumber: row.orderNumber,
      trackingNumbers: tracking,
    });
    await enqueueMail(tx, mail);
    await life.addEvent(tx, id, 'shipped', ctx.by, tracking.map((t) => t.number).join(', '));
    await life.addEvent(tx, id, 'email', 'system', mail.subject);
    return row;
  });
  if (!shipped) throw new BadRequestError(whyNotShippable(await findOrder(db, before.id)));
  return orderView(db, shipped, 0, true);
}

/** PUT /api/orders/{id}/deliver: shipped and not delivered → delivered. */
export async function deliverOrder(db: Db, id: string, by: string): Promise<Order> {
  const before = await findOrder(db, id);
  const delivered = await db.transaction(async (tx) => {
    const row = await repo.markDelivered(tx, before.id);
    if (row) await life.addEvent(tx, row.id, 'delivered', by);
    return row;
  });
  if (!delivered) throw new BadRequestError(whyNotDeliverable(await findOrder(db, before.id)));
  return orderView(db, delivered, 0, true);
}
