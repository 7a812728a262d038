import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, orderBody, placeOrder, signedIn, usAddress } from '#test/orders-support.ts';
import { expireUnpaidOrders } from './order-expiry.ts';

const MINUTE = 60_000;
const pay = (t: TestContext, orderId: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/orders/${orderId}/pay`,
    headers,
    payload: { orderId, paymentResult: { id: `TEST-${orderId}`, status: 'COMPLETED' } },
  });
const confirmationTo = async (t: TestContext, to: string) =>
  (await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, to))).find((m) => m.subject.includes('received'));

describe('the time an unpaid order has to be paid (ORDER_HOLD_MINUTES=60)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ ORDER_HOLD_MINUTES: '60' });
  });
  afterAll(async () => t?.close());

  it('answers payBy, placed + the hold, when the order is placed and read', async () => {
    const p = await createProduct(t.app.db);
    const buyer = await signedIn(t.app, { email: 'pay-by@example.com' });
    const placed = await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]));
    expect(placed.statusCode).toBe(201);
    const order = placed.json();
    expect(order.payBy).toBe(new Date(Date.parse(order.createdAt) + 60 * MINUTE).toISOString());
    const read = await t.app.inject({ url: `/api/orders/${order._id}`, headers: buyer.headers });
    expect(read.json().payBy).toBe(order.payBy);
  });

  it('says in the confirmation e-mail how long the order waits for its payment', async () => {
    const p = await createProduct(t.app.db);
    const buyer = await signedIn(t.app, { email: 'pay-within@example.com' });
    expect((await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).statusCode).toBe(201);
    const mail = await confirmationTo(t, 'pay-within@example.com');
    expect(mail?.text).toContain('Please pay within 60 minutes, or the items go back on sale.');
    expect(mail?.html).toContain('<p>Please pay within 60 minutes, or the items go back on sale.</p>');
  });

  it('answers payBy to a guest holding the order access token', async () => {
    const p = await createProduct(t.app.db);
    const shopper = await guest(t.app.db, 'guest-pay-by@example.com');
    const order = (
      await placeOrder(t.app, shopper, orderBody([{ product: p.id, qty: 1 }], { email: 'guest-pay-by@example.com' }))
    ).json();
    const access = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${order._id}/guest-access`,
      payload: { email: 'guest-pay-by@example.com', postalCode: usAddress.postalCode },
    });
    expect(access.statusCode).toBe(200);
    const read = await t.app.inject({
      url: `/api/orders/${order._id}/guest?accessToken=${access.json().accessToken}`,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().payBy).toBe(order.payBy);
    expect(order.payBy).toBeTruthy();
  });

  it('answers payBy null once the order is paid, and once it is cancelled', async () => {
    const p = await createProduct(t.app.db);
    const buyer = await signedIn(t.app);
    const paid = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    const payment = await pay(t, paid._id, buyer.headers);
    expect(payment.statusCode).toBe(200);
    expect(payment.json()).toMatchObject({ isPaid: true, payBy: null });
    expect((await t.app.inject({ url: `/api/orders/${paid._id}`, headers: buyer.headers })).json().payBy).toBeNull();

    const unpaid = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    // the sweep an hour and a minute later cancels it
    await expireUnpaidOrders(t.app.db, 60, new Date(Date.parse(unpaid.createdAt) + 61 * MINUTE));
    const cancelled = (await t.app.inject({ url: `/api/orders/${unpaid._id}`, headers: buyer.headers })).json();
    expect(cancelled).toMatchObject({ isCancelled: true, payBy: null });
  });
});

describe('ORDER_HOLD_MINUTES=0: unpaid orders wait for ever', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ ORDER_HOLD_MINUTES: '0' });
  });
  afterAll(async () => t?.close());

  it('answers payBy null and sets no deadline in the confirmation e-mail', async () => {
    const p = await createProduct(t.app.db);
    const buyer = await signedIn(t.app, { email: 'no-hold@example.com' });
    const order = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    expect(order.payBy).toBeNull();
    expect((await t.app.inject({ url: `/api/orders/${order._id}`, headers: buyer.headers })).json().payBy).toBeNull();
    const mail = await confirmationTo(t, 'no-hold@example.com');
    expect(mail?.text).toContain('Thank you for your order.');
    expect(mail?.text).not.toContain('Please pay within');
  });
});
