/** Synthetic shoppers and orders for the seed CLI. */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatMoney, fromCents, taxCents } from '@store/shared';
import type { Db } from '../client.ts';
import {
  orderEvents,
  orderItems,
  orders,
  payments,
  productVariants,
  products,
  trackingNumbers,
  users,
} from '../schema/index.ts';
import { copySink, CopyWriter, type RowSink } from './copy.ts';
import { CITIES, FIRST_NAMES, LAST_NAMES, STREETS } from './large-words.ts';
import { chunks, idSource, progress, type Rng } from './random.ts';

export interface Shopper {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
}

const BATCH = 1000;
const DAY_MS = 86_400_000;
/** Who ships and delivers the seeded orders, as their history names them. */
const SEED_ADMIN = 'admin seed';

/** `count` active shoppers with example.net addresses, created where missing (re-runs reuse them). */
export async function ensureSyntheticShoppers(db: Db, count: number): Promise<Shopper[]> {
  const wanted = Array.from({ length: count }, (_, i) => {
    const firstName = FIRST_NAMES[i % FIRST_NAMES.length] as string;
    const lastName = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length] as string;
    const handle = `${firstName}.${lastName}${i + 1}`.toLowerCase();
    return { firstName, lastName, username: handle.replace('.', '_'), email: `${handle}@example.net` };
  });
  for (const rows of chunks(wanted, BATCH)) {
    await db
      .insert(users)
      .values(rows.map((r) => ({ ...r, isActive: true })))
      .onConflictDoNothing();
  }
  const found: Shopper[] = [];
  for (const rows of chunks(wanted, BATCH)) {
    found.push(
      ...(await db
        .select({
          id: users.id,
          username: users.username,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
        })
        .from(users)
        .where(
          and(
            inArray(
              users.email,
              rows.map((r) => r.email),
            ),
            eq(users.isGuest, false),
          ),
        )
        .then((list) => list.map((u) => ({ ...u, email: u.email ?? '' })))),
    );
  }
  return found;
}

interface Sellable {
  id: string;
  name: string;
  image: string;
  priceCents: number;
  variants: { id: string; name: string; src: string; priceCents: number | null }[];
}

async function sampleProducts(db: Db, limit: number): Promise<Sellable[]> {
  const list = await db
    .select({ id: products.id, name: products.name, image: products.image, priceCents: products.priceCents })
    .from(products)
    .orderBy(sql`random()`)
    .limit(limit);
  const byId = new Map<string, Sellable>(list.map((p) => [p.id, { ...p, variants: [] }]));
  for (const ids of chunks([...byId.keys()], BATCH)) {
    const variants = await db
      .select({
        id: productVariants.id,
        productId: productVariants.productId,
        name: productVariants.name,
        src: productVariants.src,
        priceCents: productVariants.priceCents,
      })
      .from(productVariants)
      .where(inArray(productVariants.productId, ids));
    for (const v of variants) byId.get(v.productId)?.variants.push(v);
  }
  return [...byId.values()];
}

/** The rows of a batch of orders, for every table an order touches. */
export interface OrderRows {
  orders: (typeof orders.$inferInsert)[];
  items: (typeof orderItems.$inferInsert)[];
  tracking: (typeof trackingNumbers.$inferInsert)[];
  payments: (typeof payments.$inferInsert)[];
  events: (typeof orderEvents.$inferInsert)[];
}

const emptyOrderRows = (): OrderRows => ({ orders: [], items: [], tracking: [], payments: [], events: [] });

/** Orders by batched INSERTs, one transaction a batch (any database, PGlite included). */
export function insertOrders(db: Db): RowSink<OrderRows> {
  return {
    async write(rows) {
      await db.transaction(async (tx) => {
        for (const batch of chunks(rows.orders, BATCH)) await tx.insert(orders).values(batch);
        for (const batch of chunks(rows.items, BATCH)) await tx.insert(orderItems).values(batch);
        for (const batch of chunks(rows.tracking, BATCH)) await tx.insert(trackingNumbers).values(batch);
        for (const batch of chunks(rows.payments, BATCH)) await tx.insert(payments).values(batch);
        for (const batch of chunks(rows.events, BATCH)) await tx.insert(orderEvents).values(batch);
      });
    },
    finish: async () => {},
    abort: async () => {},
  };
}

/**
 * Orders by COPY, one stream a table. order_number is left out: its default draws it from
 * orders_number_seq, row by row in the order the rows arrive (the orders come oldest first).
 */
export async function copyOrders(databaseUrl: string, replica: boolean): Promise<RowSink<OrderRows>> {
  return copySink(
    [
      CopyWriter.open(databaseUrl, orders, ORDER_KEYS, replica),
      CopyWriter.open(databaseUrl, orderItems, ITEM_KEYS, replica),
      CopyWriter.open(databaseUrl, trackingNumbers, TRACKING_KEYS, replica),
      CopyWriter.open(databaseUrl, payments, PAYMENT_KEYS, replica),
      CopyWriter.open(databaseUrl, orderEvents, EVENT_KEYS, replica),
    ],
    ([o, i, t, p, e], rows: OrderRows) => [
      o.pushAll(rows.orders),
      i.pushAll(rows.items),
      t.pushAll(rows.tracking),
      p.pushAll(rows.payments),
      e.pushAll(rows.events),
    ],
  );
}

const HOUR_MS = 3_600_000;

const ORDER_KEYS = [
  'id',
  'userId',
  'username',
  'firstName',
  'lastName',
  'email',
  'shippingAddress',
  'shippingRateId',
  'paymentMethod',
  'itemsCents',
  'taxCents',
  'shippingCents',
  'totalCents',
  'isPaid',
  'paidAt',
  'paymentResult',
  'isShipped',
  'shippedAt',
  'isDelivered',
  'deliveredAt',
  'isCancelled',
  'cancelledAt',
  'createdAt',
  'updatedAt',
] as const;
const ITEM_KEYS = [
  'id',
  'orderId',
  'productId',
  'variantId',
  'variantName',
  'name',
  'image',
  'priceCents',
  'qty',
] as const;
const TRACKING_KEYS = ['id', 'orderId', 'number', 'trackingItem', 'createdAt'] as const;
const PAYMENT_KEYS = [
  'id',
  'orderId',
  'provider',
  'providerPaymentId',
  'status',
  'amountCents',
  'currency',
  'payerEmail',
  'captureId',
  'createdAt',
] as const;
const EVENT_KEYS = ['id', 'orderId', 'event', 'at', 'by', 'note'] as const;

/**
 * `count` orders of 1-3 lines each, priced like the server prices them, in mixed paid/shipped/delivered
 * states, placed over the last 180 days oldest first (so their numbers follow their dates), each with its
 * history (placed, paid, shipped, delivered) and, when paid, its payment.
 */
export async function seedOrders(
  db: Db,
  count: number,
  rng: Rng,
  shoppers: Shopper[],
  sink: RowSink<OrderRows>,
  say: (line: string) => void,
) {
  const pool = await sampleProducts(db, 2000);
  if (!pool.length || !shoppers.length) {
    say('orders: skipped (no products or shoppers)');
    return 0;
  }
  const nextId = idSource();
  // payment ids are unique across runs: this run's tag, then a counter
  const run = randomBytes(4).toString('hex').toUpperCase();
  let paymentNo = 0;
  const now = Date.now();
  const first = now - 180 * DAY_MS;
  const tick = progress('orders', count, say);
  let stored = 0;
  for (let done = 0; done < count; done += BATCH) {
    const rows = emptyOrderRows();
    for (let i = 0; i < Math.min(BATCH, count - done); i++) {
      const id = nextId();
      const buyer = rng.pick(shoppers);
      const lines = rng.few(pool, rng.int(1, 3)).map((p) => {
        const variant = p.variants.length && rng.chance(0.8) ? rng.pick(p.variants) : undefined;
        const priceCents = variant?.priceCents ?? p.priceCents;
        return {
          id: nextId(),
          orderId: id,
          productId: p.id,
          variantId: variant?.id ?? null,
          variantName: variant?.name ?? '',
          name: p.name,
          image: variant?.src || p.image,
          priceCents,
          qty: rng.int(1, 3),
        };
      });
      rows.items.push(...lines);
      const itemsCents = lines.reduce((s, l) => s + l.priceCents * l.qty, 0);
      const tax = taxCents(itemsCents);
      const totalCents = itemsCents + tax;
      const createdAt = new Date(first + ((done + i + rng.next()) / count) * (now - first));
      const later = (from: Date, minDays: number, maxDays: number) => {
        const at = new Date(from.getTime() + (minDays + rng.next() * (maxDays - minDays)) * DAY_MS);
        return at.getTime() < now ? at : null;
      };
      const paidAt = rng.chance(0.75) ? later(createdAt, 0.001, 0.05) : null;
      const shippedAt = paidAt && rng.chance(0.65) ? later(paidAt, 0.5, 3) : null;
      const deliveredAt = shippedAt && rng.chance(0.6) ? later(shippedAt, 2, 6) : null;
      // an unpaid order older than a day was expired long ago (the store cancels unpaid orders after their
      // hold): seeded that way, as a running shop's history is, not left for the first sweep to cancel
      const cancelledAt =
        !paidAt && createdAt.getTime() < now - DAY_MS ? new Date(createdAt.getTime() + HOUR_MS) : null;
      const [city, state, zip] = rng.pick(CITIES);
      const paymentId = paidAt ? `SEED${run}${(++paymentNo).toString(16).toUpperCase().padStart(8, '0')}` : '';
      rows.orders.push({
        id,
        userId: buyer.id,
        username: buyer.username.slice(0, 30),
        firstName: buyer.firstName,
        lastName: buyer.lastName,
        email: buyer.email,
        shippingAddress: {
          shipToFirstName: buyer.firstName,
          shipToLastName: buyer.lastName,
          address1: `${rng.int(10, 9999)} ${rng.pick(STREETS)}`,
          address2: rng.chance(0.2) ? `Apt ${rng.int(1, 40)}` : '',
          city,
          state,
          postalCode: `${zip}${String(rng.int(1, 99)).padStart(2, '0')}`,
          country: 'US',
        },
        shippingRateId: 'free',
        paymentMethod: 'PayPal',
        itemsCents,
        taxCents: tax,
        shippingCents: 0,
        totalCents,
        isPaid: Boolean(paidAt),
        paidAt,
        paymentResult: paidAt
          ? {
              id: paymentId,
              status: 'COMPLETED',
              update_time: paidAt.toISOString(),
              email_address: buyer.email,
            }
          : null,
        isShipped: Boolean(shippedAt),
        shippedAt,
        isDelivered: Boolean(deliveredAt),
        deliveredAt,
        isCancelled: Boolean(cancelledAt),
        cancelledAt,
        createdAt,
        updatedAt: cancelledAt ?? deliveredAt ?? shippedAt ?? paidAt ?? createdAt,
      });
      const event = (name: string, at: Date, by: string, note = '') =>
        rows.events.push({ id: nextId(), orderId: id, event: name, at, by, note });
      event('placed', createdAt, buyer.username);
      if (paidAt) {
        rows.payments.push({
          id: nextId(),
          orderId: id,
          provider: 'paypal',
          providerPaymentId: paymentId,
          status: 'COMPLETED',
          amountCents: totalCents,
          currency: 'USD',
          payerEmail: buyer.email,
          captureId: `CAP${paymentId}`,
          createdAt: paidAt,
        });
        event('paid', paidAt, 'paypal', `${formatMoney(fromCents(totalCents))} by the browser`);
      }
      if (shippedAt) {
        const number = `9400${String(rng.int(0, 1e9)).padStart(9, '0')}${String(rng.int(0, 1e9)).padStart(9, '0')}`;
        rows.tracking.push({
          id: nextId(),
          orderId: id,
          number,
          trackingItem: lines.map((l) => (l.variantName ? `${l.name} (${l.variantName})` : l.name)),
          createdAt: shippedAt,
        });
        event('shipped', shippedAt, SEED_ADMIN, number);
      }
      if (deliveredAt) event('delivered', deliveredAt, SEED_ADMIN);
      if (cancelledAt) event('cancelled', cancelledAt, 'system', 'not paid within 1 hour');
    }
    await sink.write(rows);
    stored += rows.orders.length + rows.items.length + rows.tracking.length + rows.payments.length + rows.events.length;
    tick(done + rows.orders.length, stored);
  }
  return count;
}
