import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, orderEvents, orderItems, orders, productVariants, products } from '#server/db/schema/index.ts';
import { newId } from '#server/lib/ids.ts';
import { pgErrorOf } from '#server/lib/sql.ts';
import { createProduct, createUser } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, usAddress } from '#test/orders-support.ts';
import { testDbKind } from '#test/test-db.ts';
import type { Placing } from './orders.repository.ts';

let t: TestContext;

const stockOf = async (id: string) =>
  (await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, id)))[0]!.n;
const variantStockOf = async (id: string) =>
  (
    await t.app.db.select({ n: productVariants.countInStock }).from(productVariants).where(eq(productVariants.id, id))
  )[0]!.n;

/**
 * Orders placed in one statement share its transaction's timestamp: how many statements placed these
 * (counted by the database, to the microsecond: two statements can start within the same millisecond).
 */
async function statementsFor(ids: string[]) {
  const [row] = await t.app.db
    .select({ n: sql<number>`count(distinct ${orders.createdAt})::int` })
    .from(orders)
    .where(inArray(orders.id, ids));
  return Number(row!.n);
}

describe('orders arriving together share a placing statement, each placed or refused on its own', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('places 60 concurrent orders over products and an own-stock variant, each with its own lines, number and mail', async () => {
    const a = await createProduct(t.app.db, { name: 'Batch Alpha', countInStock: 500, priceCents: 1000 });
    const b = await createProduct(t.app.db, { name: 'Batch Beta', countInStock: 500, priceCents: 250 });
    const mug = await createProduct(t.app.db, {
      name: 'Batch Mug',
      countInStock: 100,
      priceCents: 700,
      variants: [{ name: 'Blue', countInStock: 50 }],
    });
    const blue = mug.variantRows[0]!;
    const buyers = await Promise.all(Array.from({ length: 60 }, () => signedIn(t.app)));
    // order i: i % 3 + 1 units of Alpha; every second one also 2 of Beta; every third one also 1 blue mug
    const bodies = buyers.map((_, i) =>
      orderBody([
        { product: a.id, qty: (i % 3) + 1 },
        ...(i % 2 ? [{ product: b.id, qty: 2 }] : []),
        ...(i % 3 === 0 ? [{ product: mug.id, qty: 1, selectedColorsVariants: blue.id }] : []),
      ]),
    );
    const results = await Promise.all(buyers.map((u, i) => placeOrder(t.app, u, bodies[i])));
    expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 201));
    const placed = results.map((r) => r.json());

    // fewer statements than orders on PostgreSQL: they were shared (the embedded database answers each
    // statement before the next order reaches it, so there each order goes alone)
    const statements = await statementsFor(placed.map((o) => o._id));
    if (testDbKind() === 'postgres') expect(statements).toBeLessThan(30);
    else expect(statements).toBeLessThanOrEqual(60);

    // each order holds exactly its own lines, priced from the catalogue
    placed.forEach((o, i) => {
      const qty = (id: string) =>
        o.orderItems
          .filter((l: { product: string }) => l.product === id)
          .reduce((s: number, l: { qty: number }) => s + l.qty, 0);
      expect(o.user._id).toBe(buyers[i]!.user.id);
      expect([qty(a.id), qty(b.id), qty(mug.id)]).toEqual([(i % 3) + 1, i % 2 ? 2 : 0, i % 3 === 0 ? 1 : 0]);
      expect(o.itemsPrice).toBeCloseTo(((i % 3) + 1) * 10 + (i % 2 ? 5 : 0) + (i % 3 === 0 ? 7 : 0), 2);
    });
    // every unit is accounted for, from the pool it draws on (the blue mug from its own)
    const sold = (fn: (i: number) => number) => placed.reduce((s, _, i) => s + fn(i), 0);
    expect(await stockOf(a.id)).toBe(500 - sold((i) => (i % 3) + 1));
    expect(await stockOf(b.id)).toBe(500 - sold((i) => (i % 2 ? 2 : 0)));
    expect(await variantStockOf(blue.id)).toBe(50 - 20);
    expect(await stockOf(mug.id)).toBe(100);
    const items = await t.app.db
      .select({ orderId: orderItems.orderId, own: orderItems.fromVariantStock, variant: orderItems.variantId })
      .from(orderItems)
      .where(inArray(orderItems.productId, [mug.id]));
    expect(items).toHaveLength(20);
    expect(items.every((l) => l.own && l.variant === blue.id)).toBe(true);

    // distinct numbers; each mail goes to its buyer and names its own order's number
    const rows = await t.app.db
      .select({ id: orders.id, number: orders.orderNumber, email: orders.email })
      .from(orders)
      .where(
        inArray(
          orders.id,
          placed.map((o) => o._id),
        ),
      );
    expect(new Set(rows.map((r) => r.number)).size).toBe(60);
    const mails = await t.app.db
      .select({ to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text })
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.to,
          rows.map((r) => r.email),
        ),
      );
    expect(mails).toHaveLength(60);
    for (const r of rows) {
      const mail = mails.find((m) => m.to === r.email)!;
      expect(mail.subject).toContain(`#${r.number}`);
      expect(mail.text).toContain(r.id);
      expect(mail.text).not.toContain('{{order-number}}');
    }
    // and its history: placed by its buyer, then the mail
    const events = await t.app.db
      .select({ orderId: orderEvents.orderId, event: orderEvents.event, by: orderEvents.by })
      .from(orderEvents)
      .where(
        inArray(
          orderEvents.orderId,
          placed.map((o) => o._id),
        ),
      );
    placed.forEach((o, i) => {
      const mine = events.filter((e) => e.orderId === o._id);
      expect(mine.map((e) => e.event).sort()).toEqual(['email', 'placed']);
      expect(mine.find((e) => e.event === 'placed')!.by).toBe(buyers[i]!.user.username);
    });
  });

  it('refuses only the orders a short pool cannot serve: the others of their statement are placed', async () => {
    const plenty = await createProduct(t.app.db, { name: 'Batch Plenty', countInStock: 1000 });
    const few = await createProduct(t.app.db, { name: 'Batch Few', countInStock: 3 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => signedIn(t.app)));
    // every third buyer wants one of the 3 units of Few (10 of them); the others want Plenty
    const wantsFew = (i: number) => i % 3 === 0;
    const results = await Promise.all(
      buyers.map((u, i) => placeOrder(t.app, u, orderBody([{ product: wantsFew(i) ? few.id : plenty.id, qty: 1 }]))),
    );
    const codes = results.map((r) => r.statusCode);
    // every order for Plenty is placed, whatever statement it shared with the orders for Few
    expect(codes.filter((_, i) => !wantsFew(i))).toEqual(Array(20).fill(201));
    expect(codes.filter((c, i) => wantsFew(i) && c === 201)).toHaveLength(3);
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe('Not enough stock for Batch Few');
    }
    expect(await stockOf(few.id)).toBe(0);
    expect(await stockOf(plenty.id)).toBe(980);
    // the orders for Plenty shared statements with orders for Few on PostgreSQL: a statement asking Few for
    // more than its 3 units was refused whole, and its orders were then placed one by one
    if (testDbKind() === 'postgres')
      expect(
        await statementsFor(results.filter((r, i) => !wantsFew(i) && r.statusCode === 201).map((r) => r.json()._id)),
      ).toBeLessThan(20);
    // the refused left nothing behind: no order, no line, no mail
    const placedIds = results.filter((r) => r.statusCode === 201).map((r) => r.json()._id);
    const buyerIds = buyers.map((b) => b.user.id);
    const written = await t.app.db.select({ id: orders.id }).from(orders).where(inArray(orders.userId, buyerIds));
    expect(written.map((o) => o.id).sort()).toEqual([...placedIds].sort());
    const lines = await t.app.db
      .select({ n: orderItems.id })
      .from(orderItems)
      .where(inArray(orderItems.productId, [few.id, plenty.id]));
    expect(lines).toHaveLength(23);
    const mails = await t.app.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.to,
          buyers.map((b) => b.user.email!),
        ),
      );
    expect(mails).toHaveLength(23);
  });

  it('places each order of a refused statement alone: the one a pool cannot serve fails with the stock check', async () => {
    const plenty = await createProduct(t.app.db, { name: 'Batch Direct', countInStock: 100, priceCents: 300 });
    const buyer = await createUser(t.app.db);
    const placing = (qty: number): Placing => {
      const id = newId();
      return {
        order: {
          id,
          userId: buyer.id,
          username: buyer.username,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: buyer.email!,
          isGuest: false,
          shippingAddress: usAddress,
          shippingRateId: 'free',
          paymentMethod: 'PayPal',
          itemsCents: 300 * qty,
          discountCents: 0,
          taxCents: 0,
          shippingCents: 0,
          totalCents: 300 * qty,
        },
        items: [
          {
            id: newId(),
            orderId: id,
            productId: plenty.id,
            variantId: null,
            variantName: '',
            name: plenty.name,
            image: '',
            priceCents: 300,
            qty,
          },
        ],
        mail: {
          to: buyer.email!,
          subject: 'Order #{{order-number}}',
          html: '<p>{{order-number}}</p>',
          text: '{{order-number}}',
        },
        placedBy: buyer.username,
      };
    };
    // handed over in one tick: one statement for all five, which the 150 units of the third refuse
    const wanted = [1, 2, 150, 3, 4].map(placing);
    const settled = await Promise.allSettled(wanted.map((p) => t.app.orderLoaders.place(p)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(pgErrorOf((settled[2] as PromiseRejectedResult).reason)?.constraint).toBe('products_stock_nonneg');
    expect(await stockOf(plenty.id)).toBe(90);
    const placed = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(placed.map((p) => p.items.map((i) => i.qty))).toEqual([[1], [2], [3], [4]]);
    expect(placed.map((p) => p.row.id)).toEqual([0, 1, 3, 4].map((i) => wanted[i]!.order.id));
    // each placed by a statement of its own after the shared one was refused
    expect(await statementsFor(placed.map((p) => p.row.id))).toBe(4);
    const mails = await t.app.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, buyer.email!));
    expect(mails.map((m) => m.subject).sort()).toEqual(placed.map((p) => `Order #${p.row.orderNumber}`).sort());
  });
});
