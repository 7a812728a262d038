import type { FastifyBaseLogger } from 'fastify';
import { payWithinText } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { createSweeper } from '#server/lib/sweeper.ts';
import { enqueueMail, orderCancelledMail } from '#server/lib/mailer/index.ts';
import { lifecycleRepository as life } from './lifecycle.repository.ts';
import { ordersRepository as repo } from './orders.repository.ts';

const BATCH = 200;

/**
 * Cancels the unpaid orders older than the hold and puts their stock back on sale, batch by batch,
 * each batch in one transaction (the cancel, the restock, the history and, with `publicUrl`, the e-mail
 * telling the shopper land together or not at all).
 * Answers how many orders were cancelled and which products got stock back (the cached answers
 * showing them go).
 */
export async function expireUnpaidOrders(
  db: Db,
  holdMinutes: number,
  now = new Date(),
  publicUrl?: string,
): Promise<{ cancelled: number; products: string[] }> {
  if (holdMinutes <= 0) return { cancelled: 0, products: [] };
  const products = new Set<string>();
  const cutoff = new Date(now.getTime() - holdMinutes * 60_000);
  let cancelled = 0;
  for (;;) {
    const ids = await db.transaction(async (tx) => {
      const batch = await repo.cancelUnpaidBefore(tx, cutoff, BATCH);
      for (const id of await repo.returnStock(
        tx,
        batch.map((o) => o.id),
      ))
        products.add(id);
      const why = `it was not paid within ${payWithinText(holdMinutes)}, so its items went back on sale.`;
      for (const o of batch) {
        await life.addEvent(tx, o.id, 'cancelled', 'system', `not paid within ${payWithinText(holdMinutes)}`);
        if (!publicUrl) continue;
        const mail = orderCancelledMail(publicUrl, {
          to: o.email,
          name: o.firstName,
          orderId: o.id,
          orderNumber: o.orderNumber,
          why,
          refunded: null,
        });
        await enqueueMail(tx, mail);
        await life.addEvent(tx, o.id, 'email', 'system', mail.subject.replace(/ \| .*$/, ''));
      }
      return batch;
    });
    cancelled += ids.length;
    if (ids.length < BATCH) return { cancelled, products: [...products] };
  }
}

/** Runs the sweep every `everyMs` in the background; stop() waits for a sweep in progress. */
export function createOrderSweeper(
  db: Db,
  opts: {
    holdMinutes: number;
    everyMs: number;
    publicUrl?: string;
    onExpired: (products: string[]) => Promise<unknown> | void;
  },
  log: FastifyBaseLogger,
) {
  return createSweeper(
    'order expiry sweep',
    opts.holdMinutes > 0 ? opts.everyMs : 0,
    async () => {
      const { cancelled, products } = await expireUnpaidOrders(db, opts.holdMinutes, new Date(), opts.publicUrl);
      if (cancelled > 0) {
        log.info({ cancelled }, 'unpaid orders expired; their stock is back on sale');
        await opts.onExpired(products);
      }
    },
    log,
  );
}
