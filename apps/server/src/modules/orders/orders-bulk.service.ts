import type { BulkDeliverInput } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import { ordersBulkRepository as repo } from './orders-bulk.repository.ts';

/** Thrown inside the transaction so nothing of a refused selection is written. */
class NotAllDeliverable extends Error {}

function why(o: { isShipped: boolean; isDelivered: boolean; isCancelled: boolean }): string {
  if (o.isCancelled) return 'cancelled';
  if (o.isDelivered) return 'already delivered';
  if (!o.isShipped) return 'not shipped yet';
  return 'changed meanwhile';
}

/**
 * POST /api/orders/bulk/deliver: every selected order (shipped, not delivered, not cancelled) is marked
 * delivered, with its history entry, in one transaction; if any one cannot be, none is, and the 400 names
 * each order that blocked it. The state check is the UPDATE's condition, so a race cannot slip one through.
 */
export async function bulkDeliver(db: Db, input: BulkDeliverInput, by: string): Promise<{ delivered: number }> {
  const ids = [...new Set(input.ids.map((id) => id.toLowerCase()))];
  const found = await repo.states(db, ids);
  if (found.length !== ids.length) {
    const known = new Set(found.map((o) => o.id));
    throw new NotFoundError(`Order not found: ${ids.filter((id) => !known.has(id)).join(', ')}`);
  }
  try {
    const delivered = await db.transaction(async (tx) => {
      const done = await repo.markDelivered(tx, ids, new Date());
      if (done.length !== ids.length) throw new NotAllDeliverable();
      await repo.addEvents(tx, done, 'delivered', by);
      return done.length;
    });
    return { delivered };
  } catch (err) {
    if (!(err instanceof NotAllDeliverable)) throw err;
    const blocked = (await repo.states(db, ids))
      .filter((o) => !o.isShipped || o.isDelivered || o.isCancelled)
      .sort((a, b) => a.orderNumber - b.orderNumber)
      .map((o) => `#${o.orderNumber} (${why(o)})`);
    throw new BadRequestError(
      `Only shipped orders can be marked delivered; nothing was changed. ${blocked.join(', ') || 'Please try again.'}`,
    );
  }
}
