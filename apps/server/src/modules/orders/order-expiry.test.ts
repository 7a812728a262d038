import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn } from '#test/orders-support.ts';
import { expireUnpaidOrders } from './order-expiry.ts';

let t: TestContext;
const HOLD = 60;

const stockOf = async (id: string) =>
  (await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, id)))[0]!.n;
/** Moves an order's placing time back, as if it had waited that long. */
const age = (ids: string[], minutes: number) =>
  t.app.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
    .where(inArray(orders.id, ids));
const pay = (orderId: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/orders/${orderId}/pay`,
    headers,
    payload: { orderId, paymentResult: { id: 'x', email: 'me@example.com' } },
  });

describe('unpaid orders give their stock back after the hold', () => {
  beforeAll(async () => {
    t = await createTestApp({}, { orderHold: { minutes: HOLD, sweepMs: 3_600_000 } });
  });
  afterAll(async () => t?.close());

  it('cancels only unpaid orders older than the hold and restocks exactly what they took', async () => {
    const p = await createProduct(t.app.db, { countInStock: 10 });
    const q = await createProduct(t.app.db, { countInStock: 5 });
    const buyer = await signedIn(t.app);
    const place = async (items: { product: string; qty: number }[]) =>
      (await placeOrder(t.app, buyer, orderBody(items))).json() as { _id: string };
    const old = await place([
      { product: p.id, qty: 3 },
      { product: q.id, qty: 2 },
    ]);
    const oldPaid = await place([{ product: p.id, qty: 1 }]);
    const fresh = await place([{ product: p.id, qty: 2 }]);
    expect((await pay(oldPaid._id, buyer.headers)).statusCode).toBe(200);
    await age([old._id, oldPaid._id], HOLD + 1);
    await age([fresh._id], HOLD - 1);
    expect(await stockOf(p.id)).toBe(4);

    expect((await expireUnpaidOrders(t.app.db, HOLD)).cancelled).toBe(1);
    expect(await stockOf(p.id)).toBe(7); // 10 − 1 (paid) − 2 (fresh, still held)
    expect(await stockOf(q.id)).toBe(5);
    // a second sweep finds nothing more: the stock is never returned twice
    expect((await expireUnpaidOrders(t.app.db, HOLD)).cancelled).toBe(0);
    expect(await stockOf(p.id)).toBe(7);

    const view = await t.app.inject({ url: `/api/orders/${old._id}`, headers: buyer.headers });
    expect(view.json()).toMatchObject({ isCancelled: true, isPaid: false });
    const fresher = await t.app.inject({ url: `/api/orders/${fresh._id}`, headers: buyer.headers });
    expect(fresher.json()).toMatchObject({ isCancelled: false });
  });

  it('shows the freed stock on the product page at once, dropping only the answers that show it', async () => {
    const p = await createProduct(t.app.db, { countInStock: 2 });
    const other = await createProduct(t.app.db, { countInStock: 7 });
    const buyer = await signedIn(t.app);
    const o = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 2 }]))).json();
    expect((await t.app.inject({ url: `/api/products/${p.id}` })).json().countInStock).toBe(0);
    expect((await t.app.inject({ url: `/api/products/${other.id}` })).json().countInStock).toBe(7);
    // changed behind the cache's back: the kept answer of `other` shows it only once dropped
    await t.app.db.update(products).set({ countInStock: 6 }).where(eq(products.id, other.id));
    await age([o._id], HOLD + 5);
    const expired = await expireUnpaidOrders(t.app.db, HOLD);
    expect(expired).toEqual({ cancelled: 1, products: [p.id] });
    await t.app.catalogCache.invalidate('stock-returned', expired.products); // what the sweeper's onExpired does
    expect((await t.app.inject({ url: `/api/products/${p.id}` })).json().countInStock).toBe(2);
    expect((await t.app.inject({ url: `/api/products/${other.id}` })).json().countInStock).toBe(7); // still kept
  });

  it('two sweeps at once cancel each order once', async () => {
    const p = await createProduct(t.app.db, { countInStock: 30 });
    const buyer = await signedIn(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json()._id);
    await age(ids, HOLD + 1);
    const [a, b] = await Promise.all([expireUnpaidOrders(t.app.db, HOLD), expireUnpaidOrders(t.app.db, HOLD)]);
    expect(a.cancelled + b.cancelled).toBe(10);
    expect(await stockOf(p.id)).toBe(30);
  });

  it('an expired order is never paid afterwards (test mode: nothing moved, nothing recorded)', async () => {
    const p = await createProduct(t.app.db, { countInStock: 1 });
    const late = await signedIn(t.app);
    const o = (await placeOrder(t.app, late, orderBody([{ product: p.id, qty: 1 }]))).json();
    await age([o._id], HOLD + 1);
    await expireUnpaidOrders(t.app.db, HOLD);
    const other = await signedIn(t.app);
    expect((await placeOrder(t.app, other, orderBody([{ product: p.id, qty: 1 }]))).statusCode).toBe(201);

    const res = await pay(o._id, late.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Order is cancelled');
    expect(await stockOf(p.id)).toBe(0);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, o._id));
    expect(row).toMatchObject({ isPaid: false, isCancelled: true });
    expect(await t.app.db.$count(payments, eq(payments.orderId, o._id))).toBe(0);
  });

  it('ORDER_HOLD_MINUTES=0 keeps unpaid orders forever', async () => {
    const p = await createProduct(t.app.db, { countInStock: 1 });
    const buyer = await signedIn(t.app);
    const o = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    await age([o._id], 60 * 24 * 365);
    expect((await expireUnpaidOrders(t.app.db, 0)).cancelled).toBe(0);
    expect(await stockOf(p.id)).toBe(0);
  });
});
