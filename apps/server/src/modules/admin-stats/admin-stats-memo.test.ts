import type { Stats } from '@store/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '#server/app.ts';
import { orders, products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';
import { adminStatsRepository } from './admin-stats.repository.ts';
import { salesOverview } from './admin-stats.service.ts';

let t: TestContext;
let admin: Auth & { user: Awaited<ReturnType<typeof signedIn>>['user'] };
let buyer: Auth;
let lamp: string;
let chair: string;

const stats = async (query = '') => {
  const res = await t.app.inject({ url: `/api/admin/stats${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Stats;
};
/** The overview as the database computes it now, nothing reused. */
const computed = (lowStock?: number) => salesOverview(t.app.db, lowStock === undefined ? {} : { lowStock });
/** The answer, checked against the computation of the same moment. */
async function answer(lowStock?: number) {
  const body = await stats(lowStock === undefined ? '' : `?lowStock=${lowStock}`);
  expect(body).toEqual(await computed(lowStock));
  return body;
}
const api = (method: 'PUT' | 'POST', url: string, auth: Auth, payload?: object) =>
  t.app.inject({ method, url, headers: auth.headers, ...(payload ? { payload } : {}) });

async function newOrder(product: string, qty: number) {
  const res = await placeOrder(t.app, buyer, orderBody([{ product, qty }]));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; totalPrice: number };
}
async function pay(id: string) {
  const res = await api('PUT', `/api/orders/${id}/pay`, buyer, {});
  expect(res.statusCode, res.body).toBe(200);
}

describe('the sales overview reuses figures only while nothing they depend on changed', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
    buyer = await signedIn(t.app, { email: 'memo.buyer@example.com' });
    lamp = (await createProduct(t.app.db, { name: 'Memo Lamp', priceCents: 2000, countInStock: 7 })).id;
    chair = (await createProduct(t.app.db, { name: 'Memo Chair', priceCents: 5000, countInStock: 50 })).id;
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers every change made through the store at once: an order, a payment, a refund, a shipment, a cancellation', async () => {
    const first = await answer();
    expect(first).toMatchObject({ orders: 0, revenue: 0, toShip: 0, topProducts: [] });
    expect(await answer()).toEqual(first);

    // placed: counted, and its stock taken (7 - 3 = 4, now under the threshold of 5)
    const a = await newOrder(lamp, 3);
    let now = await answer();
    expect(now).toMatchObject({ orders: 1, paidOrders: 0, revenue: 0 });
    expect(now.lowStock).toEqual([{ _id: lamp, name: 'Memo Lamp', variant: '', countInStock: 4 }]);

    // paid: revenue, best sellers, to ship
    await pay(a._id);
    now = await answer();
    expect(now).toMatchObject({ orders: 1, paidOrders: 1, revenue: a.totalPrice, toShip: 1 });
    expect(now.topProducts).toEqual([{ _id: lamp, name: 'Memo Lamp', qty: 3, revenue: 60 }]);

    // refunded in part: revenue less the refund
    const refund = await api('POST', `/api/orders/${a._id}/refunds`, admin, { amount: 10 });
    expect(refund.statusCode, refund.body).toBe(200);
    now = await answer();
    expect(now).toMatchObject({ refunded: 10, revenue: Math.round((a.totalPrice - 10) * 100) / 100 });

    // a second paid order, then cancelled by the admin (refunded in full, its stock given back)
    const b = await newOrder(chair, 2);
    await pay(b._id);
    expect(await answer()).toMatchObject({ orders: 2, paidOrders: 2, toShip: 2 });
    const cancelled = await api('PUT', `/api/orders/${b._id}/cancel`, admin);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    now = await answer();
    expect(now.toShip).toBe(1);
    expect(now.refunded).toBe(Math.round((10 + b.totalPrice) * 100) / 100);

    // shipped: no longer to ship
    const shipped = await api('PUT', `/api/orders/${a._id}/ship`, admin, { trackingNumbers: [] });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect((await answer()).toShip).toBe(0);
  });

  it('answers changes written by any statement, outside the store too (another process, a script, psql)', async () => {
    await answer();
    // plain SQL: no ORM hook sets updated_at here, and the figures still follow
    await t.app.db.execute(sql`update ${products} set count_in_stock = 1 where id = ${chair}`);
    expect((await answer()).lowStock.map((s) => `${s.name}:${s.countInStock}`)).toContain('Memo Chair:1');
    await t.app.db.execute(sql`update ${products} set name = 'Memo Chair II' where id = ${chair}`);
    expect((await answer()).lowStock.map((s) => s.name)).toContain('Memo Chair II');
    // the paid order shipped in the test above
    const [paid] = await t.app.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.isShipped, true), eq(orders.isCancelled, false)));
    const before = await answer();
    await t.app.db.execute(sql`update ${orders} set is_shipped = false where id = ${paid!.id}`);
    expect((await answer()).toShip).toBe(before.toShip + 1);
    await t.app.db.execute(sql`delete from ${orders} where id = ${paid!.id}`);
    const after = await answer();
    expect(after.orders).toBe(before.orders - 1);
    expect(after.topProducts).not.toEqual(before.topProducts);
    // a change committed inside a transaction counts once the transaction commits
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`update ${products} set count_in_stock = 0 where id = ${lamp}`);
      await tx.execute(sql`update ${products} set count_in_stock = 2 where id = ${lamp}`);
    });
    expect((await answer()).lowStock.find((s) => s._id === lamp)?.countInStock).toBe(2);
    // and one rolled back changes nothing
    await t.app.db
      .transaction(async (tx) => {
        await tx.execute(sql`update ${products} set count_in_stock = 0 where id = ${lamp}`);
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect((await answer()).lowStock.find((s) => s._id === lamp)?.countInStock).toBe(2);
  });

  it('answers at once what another process wrote (each process keeps figures of its own)', async () => {
    const desk = (await createProduct(t.app.db, { name: 'Memo Desk', countInStock: 50 })).id;
    // a second app on the same database: another server process, with its own kept figures
    const other = await buildApp({ config: t.config, database: t.database, logger: false });
    await other.ready();
    try {
      const otherAdmin = { headers: { authorization: `Bearer ${await other.signToken(admin.user)}` } };
      const fromOther = async () => {
        const res = await other.inject({ url: '/api/admin/stats', headers: otherAdmin.headers });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as Stats;
      };
      const before = await answer();
      expect(await fromOther()).toEqual(before);
      // the other process takes an order and its payment
      const placed = await other.inject({
        method: 'POST',
        url: '/api/orders',
        headers: buyer.headers,
        payload: orderBody([{ product: desk, qty: 1 }]),
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const paid = await other.inject({
        method: 'PUT',
        url: `/api/orders/${placed.json()._id}/pay`,
        headers: buyer.headers,
        payload: {},
      });
      expect(paid.statusCode, paid.body).toBe(200);
      // this process answers it at once, and so does the other
      const after = await answer();
      expect(after).toMatchObject({
        orders: before.orders + 1,
        paidOrders: before.paidOrders + 1,
        toShip: before.toShip + 1,
      });
      expect(await fromOther()).toEqual(after);
    } finally {
      await other.close();
    }
  });

  it('computes the figures once while nothing changes, and once for requests arriving together', async () => {
    await answer();
    const top = vi.spyOn(adminStatsRepository, 'topProducts');
    const low = vi.spyOn(adminStatsRepository, 'lowStock');
    const marks = vi.spyOn(adminStatsRepository, 'marks');
    for (let i = 0; i < 3; i++) await stats();
    expect(top).not.toHaveBeenCalled();
    expect(low).not.toHaveBeenCalled();
    expect(marks).toHaveBeenCalledTimes(3);

    // a change of stock recomputes the low stock only; a change of orders the sales figures
    await t.app.db.update(products).set({ countInStock: 3 }).where(eq(products.id, lamp));
    await stats();
    expect(low).toHaveBeenCalledTimes(1);
    expect(top).not.toHaveBeenCalled();
    await newOrder(chair, 1);
    const together = await Promise.all(Array.from({ length: 10 }, () => stats()));
    expect(top).toHaveBeenCalledTimes(1);
    expect(low).toHaveBeenCalledTimes(2); // the order took stock too
    for (const body of together) expect(body).toEqual(together[0]);

    // another range or threshold is computed on its own
    await stats('?lowStock=9');
    expect(low).toHaveBeenCalledTimes(3);
    await stats('?from=2026-01-01&to=2026-01-31');
    expect(top).toHaveBeenCalledTimes(2);

    // a change the overview does not read (delivery) keeps the figures
    const [any] = await t.app.db.select({ id: orders.id }).from(orders).limit(1);
    await t.app.db.update(orders).set({ isDelivered: true }).where(eq(orders.id, any!.id));
    expect(await stats()).toEqual(together[0]);
    expect(top).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
    expect(together[0]).toEqual(await computed());
  });

  it('reuses nothing while a slot of the marks is missing', async () => {
    await t.app.db.execute(sql`delete from change_marks where slot = 0`);
    try {
      await answer();
      const top = vi.spyOn(adminStatsRepository, 'topProducts');
      await stats();
      await stats();
      expect(top).toHaveBeenCalledTimes(2);
    } finally {
      await t.app.db.execute(sql`insert into change_marks (slot) values (0)`);
    }
  });
});
