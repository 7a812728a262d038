import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, orders, products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn } from '#test/orders-support.ts';
import { testDbKind } from '#test/test-db.ts';

let t: TestContext;

describe('stock under concurrency', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('sells the last 5 units to exactly 5 of 40 concurrent buyers; the rest get 409', async () => {
    const p = await createProduct(t.app.db, { name: 'Last Units', countInStock: 5 });
    const buyers = await Promise.all(Array.from({ length: 40 }, () => signedIn(t.app)));
    const results = await Promise.all(buyers.map((b) => placeOrder(t.app, b, orderBody([{ product: p.id, qty: 1 }]))));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(35);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().message).toBe('Not enough stock for Last Units');
    const [row] = await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, p.id));
    expect(row!.n).toBe(0);
    expect(await t.app.db.$count(orders)).toBe(5);
  });

  it('never oversells when orders ask for several units and lock two products in either order', async () => {
    const a = await createProduct(t.app.db, { name: 'Alpha', countInStock: 7 });
    const b = await createProduct(t.app.db, { name: 'Beta', countInStock: 7 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn(t.app)));
    const results = await Promise.all(
      buyers.map((u, i) =>
        placeOrder(
          t.app,
          u,
          orderBody(
            i % 2
              ? [
                  { product: a.id, qty: 2 },
                  { product: b.id, qty: 1 },
                ]
              : [
                  { product: b.id, qty: 2 },
                  { product: a.id, qty: 1 },
                ],
          ),
        ),
      ),
    );
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const ok = results.filter((r) => r.statusCode === 201).map((r) => r.json());
    const sold = (id: string) =>
      ok
        .flatMap((o) => o.orderItems)
        .filter((i: { product: string }) => i.product === id)
        .reduce((s: number, i: { qty: number }) => s + i.qty, 0);
    const left = Object.fromEntries(
      (await t.app.db.select({ id: products.id, n: products.countInStock }).from(products)).map((r) => [r.id, r.n]),
    );
    expect(left[a.id]).toBeGreaterThanOrEqual(0);
    expect(left[b.id]).toBeGreaterThanOrEqual(0);
    expect(sold(a.id) + left[a.id]).toBe(7);
    expect(sold(b.id) + left[b.id]).toBe(7);
  });

  it('refuses an order for sold-out stock at once, without taking stock or writing an order', async () => {
    const p = await createProduct(t.app.db, { name: 'Gone', countInStock: 0 });
    const before = await t.app.db.$count(orders);
    const res = await placeOrder(t.app, await signedIn(t.app), orderBody([{ product: p.id, qty: 1 }]));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Not enough stock for Gone');
    expect(await t.app.db.$count(orders)).toBe(before);
  });

  // PGlite has one connection: a second transaction holding the row lock would block every query
  // (registered on PostgreSQL only; the PGlite run of the suite covers the rest of this file)
  if (testDbKind() === 'postgres')
    it('answers a sold-out refusal without waiting on the row lock; an order that may fit still waits for it', async () => {
      const p = await createProduct(t.app.db, { name: 'Few Left', countInStock: 2 });
      const [short, fits] = await Promise.all([signedIn(t.app), signedIn(t.app)]);
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      // another buyer's transaction holds the product's row
      const holder = t.app.db.transaction(async (tx) => {
        await tx.execute(sql`select id from products where id = ${p.id} for update`);
        locked();
        await released;
      });
      await isLocked;
      try {
        const late = (ms: number) => new Promise<'waited'>((r) => setTimeout(() => r('waited'), ms));
        const refused = await Promise.race([
          placeOrder(t.app, short, orderBody([{ product: p.id, qty: 3 }])),
          late(3000),
        ]);
        expect(refused).not.toBe('waited');
        if (refused === 'waited') return;
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toBe('Not enough stock for Few Left');
        // enough stock when read: it queues on the lock and succeeds once the holder is done
        const pending = placeOrder(t.app, fits, orderBody([{ product: p.id, qty: 2 }]));
        expect(await Promise.race([pending, late(300)])).toBe('waited');
        release();
        expect((await pending).statusCode).toBe(201);
      } finally {
        release();
        await holder;
      }
      const [row] = await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, p.id));
      expect(row!.n).toBe(0);
    });

  if (testDbKind() === 'postgres')
    it('an order that finds a product short when its statement runs writes nothing at all, on any product', async () => {
      const plenty = await createProduct(t.app.db, { name: 'Plenty', countInStock: 50 });
      const few = await createProduct(t.app.db, { name: 'Two Left', countInStock: 2 });
      const buyer = await signedIn(t.app);
      const [orders0, mails0] = await Promise.all([t.app.db.$count(orders), t.app.db.$count(mailOutbox)]);
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      // another sale holds the row and will leave one unit: read before it commits, two seem left
      const holder = t.app.db.transaction(async (tx) => {
        await tx.execute(sql`update products set count_in_stock = 1 where id = ${few.id}`);
        locked();
        await released;
      });
      await isLocked;
      const pending = placeOrder(
        t.app,
        buyer,
        orderBody([
          { product: plenty.id, qty: 5 },
          { product: few.id, qty: 2 },
        ]),
      );
      await new Promise((r) => setTimeout(r, 300)); // the order's statement is waiting on the row
      release();
      await holder;
      const res = await pending;
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Not enough stock for Two Left');
      const stock = async (id: string) =>
        (await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, id)))[0]!.n;
      expect(await stock(plenty.id)).toBe(50);
      expect(await stock(few.id)).toBe(1);
      expect(await t.app.db.$count(orders)).toBe(orders0);
      expect(await t.app.db.$count(mailOutbox)).toBe(mails0);
    });
});
