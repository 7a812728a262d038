/** Synthetic shoppers and orders for the seed CLI. */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { taxCents } from '@store/shared';
import { newId } from '#server/lib/ids.ts';
import type { Db } from '../client.ts';
import { orderItems, orders, productVariants, products, trackingNumbers, users } from '../schema/index.ts';
import { CITIES, FIRST_NAMES, LAST_NAMES, STREETS } from './large-words.ts';
import { chunks, type Rng } from './random.ts';

export interface Shopper {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
}

const BATCH = 1000;
const DAY_MS = 86_400_000;

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

/** `count` orders of 1-3 lines each, priced like the server prices them, in mixed paid/shipped/delivered states. */
export async function seedOrders(db: Db, count: number, rng: Rng, shoppers: Shopper[], say: (line: string) => void) {
  const pool = await sampleProducts(db, 2000);
  if (!pool.length || !shoppers.length) {
    say('orders: skipped (no products or shoppers)');
    return 0;
  }
  const now = Date.now();
  const started = Date.now();
  for (let done = 0; done < count; done += BATCH) {
    const orderRows: (typeof orders.$inferInsert)[] = [];
    const itemRows: (typeof orderItems.$inferInsert)[] = [];
    const trackingRows: (typeof trackingNumbers.$inferInsert)[] = [];
    for (let i = 0; i < Math.min(BATCH, count - done); i++) {
      const id = newId();
      const buyer = rng.pick(shoppers);
      const lines = rng.sample(pool, rng.int(1, 3)).map((p) => {
        const variant = p.variants.length && rng.chance(0.8) ? rng.pick(p.variants) : undefined;
        const priceCents = variant?.priceCents ?? p.priceCents;
        return {
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
      itemRows.push(...lines);
      const itemsCents = lines.reduce((s, l) => s + l.priceCents * l.qty, 0);
      const tax = taxCents(itemsCents);
      const createdAt = new Date(now - rng.next() * 180 * DAY_MS);
      const later = (from: Date, minDays: number, maxDays: number) => {
        const at = new Date(from.getTime() + (minDays + rng.next() * (maxDays - minDays)) * DAY_MS);
        return at.getTime() < now ? at : null;
      };
      const paidAt = rng.chance(0.75) ? later(createdAt, 0.001, 0.05) : null;
      const shippedAt = paidAt && rng.chance(0.65) ? later(paidAt, 0.5, 3) : null;
      const deliveredAt = shippedAt && rng.chance(0.6) ? later(shippedAt, 2, 6) : null;
      const [city, state, zip] = rng.pick(CITIES);
      orderRows.push({
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
        totalCents: itemsCents + tax,
        isPaid: Boolean(paidAt),
        paidAt,
        paymentResult: paidAt
          ? {
              id: `SEED${randomBytes(6).toString('hex').toUpperCase()}`,
              status: 'COMPLETED',
              update_time: paidAt.toISOString(),
              email_address: buyer.email,
            }
          : null,
        isShipped: Boolean(shippedAt),
        shippedAt,
        isDelivered: Boolean(deliveredAt),
        deliveredAt,
        createdAt,
        updatedAt: deliveredAt ?? shippedAt ?? paidAt ?? createdAt,
      });
      if (shippedAt) {
        const number = `9400${String(rng.int(0, 1e9)).padStart(9, '0')}${String(rng.int(0, 1e9)).padStart(9, '0')}`;
        trackingRows.push({
          orderId: id,
          number,
          trackingItem: lines.map((l) => (l.variantName ? `${l.name} (${l.variantName})` : l.name)),
          createdAt: shippedAt,
        });
      }
    }
    await db.transaction(async (tx) => {
      await tx.insert(orders).values(orderRows);
      for (const rows of chunks(itemRows, BATCH)) await tx.insert(orderItems).values(rows);
      for (const rows of chunks(trackingRows, BATCH)) await tx.insert(trackingNumbers).values(rows);
    });
    const made = done + orderRows.length;
    if (made % 10_000 === 0 || made === count)
      say(`orders: ${made}/${count} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  return count;
}
