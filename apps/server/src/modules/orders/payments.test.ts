import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, standIn, type Auth } from '#test/orders-support.ts';
import { paypalOrder, paypalStandIn, type PaypalAnswers } from '#test/paypal-stand-in.ts';

const paypalOrders: PaypalAnswers = new Map();
let paypal: Awaited<ReturnType<typeof standIn>>;
let t: TestContext;
let buyer: Awaited<ReturnType<typeof signedIn>>;
let productId: string;

const pay = (id: string, auth: Auth, paymentId: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/orders/${id}/pay`,
    headers: auth.headers,
    payload: {
      orderId: id,
      paymentResult: { id: paymentId, status: 'COMPLETED', update_time: 'x', email: 'payer@example.com' },
      ...extra,
    },
  });

async function newOrder(app = t.app, who: Auth = buyer, product = productId) {
  const res = await placeOrder(app, who, orderBody([{ product, qty: 1 }]));
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; totalPrice: number };
}

const isPaid = async (id: string) =>
  (await t.app.db.select({ p: orders.isPaid }).from(orders).where(eq(orders.id, id)))[0]!.p;

describe('paying with PayPal (verified against a local PayPal stand-in)', () => {
  beforeAll(async () => {
    paypal = await paypalStandIn(paypalOrders);
    t = await createTestApp({
      PAYPAL_CLIENT_ID: 'client-id',
      PAYPAL_CLIENT_SECRET: 'client-secret',
      PAYPAL_API_BASE: paypal.url,
    });
    buyer = await signedIn(t.app);
    productId = (await createProduct(t.app.db, { priceCents: 2000, countInStock: 1000 })).id; // total $23.00
  });
  afterAll(async () => {
    await t?.close();
    await paypal?.close();
  });

  it('tells the browser the client id', async () => {
    expect((await t.app.inject({ url: '/api/config/paypal' })).json()).toEqual({
      clientId: 'client-id',
      testMode: false,
    });
  });

  it('marks the order paid when PayPal confirms a completed USD payment of exactly the total', async () => {
    const order = await newOrder();
    paypalOrders.set('PP-OK-1', { status: 200, body: paypalOrder('PP-OK-1', '23.00') });
    const res = await pay(order._id, buyer, 'PP-OK-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isPaid: true,
      isTestPayment: false,
      paymentResult: { id: 'PP-OK-1', status: 'COMPLETED', email_address: 'payer@example.com' },
    });
    expect(res.json().paidAt).toBeTruthy();
    const [row] = await t.app.db.select().from(payments).where(eq(payments.orderId, order._id));
    expect(row).toMatchObject({ provider: 'paypal', providerPaymentId: 'PP-OK-1', amountCents: 2300, currency: 'USD' });
    expect(paypal.calls.some((c) => c.url === '/v1/oauth2/token' && c.body === 'grant_type=client_credentials')).toBe(
      true,
    );
  });

  it.each([
    [
      'a payment that is not completed',
      paypalOrder('PP-X', '23.00', { status: 'APPROVED' }),
      'Payment not completed (PayPal status: APPROVED)',
    ],
    ['another currency', paypalOrder('PP-X', '23.00', { currency: 'EUR' }), 'Payment currency must be USD'],
    ['a smaller amount', paypalOrder('PP-X', '22.99'), 'Payment amount does not match the order total'],
    ['a larger amount', paypalOrder('PP-X', '23.01'), 'Payment amount does not match the order total'],
    [
      'captures short of the total',
      paypalOrder('PP-X', '23.00', { capture: '1.00' }),
      'Payment amount does not match the order total',
    ],
    ['a malformed amount', paypalOrder('PP-X', '23.0000001'), 'Payment amount does not match the order total'],
  ])('refuses %s and leaves the order unpaid', async (_label, body, message) => {
    const order = await newOrder();
    paypalOrders.set('PP-X', { status: 200, body });
    const res = await pay(order._id, buyer, 'PP-X');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await isPaid(order._id)).toBe(false);
  });

  it('refuses a PayPal payment already used for another order', async () => {
    const first = await newOrder();
    const second = await newOrder();
    paypalOrders.set('PP-ONCE', { status: 200, body: paypalOrder('PP-ONCE', '23.00') });
    expect((await pay(first._id, buyer, 'PP-ONCE')).statusCode).toBe(200);
    const res = await pay(second._id, buyer, 'PP-ONCE');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Payment already used');
    expect(await isPaid(second._id)).toBe(false);
  });

  it('refuses a payment PayPal does not know, and says so when PayPal is down', async () => {
    const order = await newOrder();
    expect((await pay(order._id, buyer, 'PP-UNKNOWN')).json().message).toBe('PayPal payment not found');
    paypalOrders.set('PP-500', { status: 500, body: { name: 'INTERNAL_SERVER_ERROR' } });
    const down = await pay(order._id, buyer, 'PP-500');
    expect(down.statusCode).toBe(400);
    expect(down.json().message).toBe('Could not verify the payment with PayPal, please try again');
    expect((await pay(order._id, buyer, '')).json().message).toBe('Payment result is required');
    expect(await isPaid(order._id)).toBe(false);
  });

  it('refuses paying twice, paying another buyer’s order, a cancelled order, or a mismatched order id', async () => {
    const order = await newOrder();
    paypalOrders.set('PP-TWICE', { status: 200, body: paypalOrder('PP-TWICE', '23.00') });
    expect((await pay(order._id, buyer, 'PP-TWICE')).statusCode).toBe(200);
    const again = await pay(order._id, buyer, 'PP-TWICE');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'Order already paid', code: 'ALREADY_PAID' });

    const stranger = await signedIn(t.app);
    const theirs = await newOrder();
    paypalOrders.set('PP-STRANGER', { status: 200, body: paypalOrder('PP-STRANGER', '23.00') });
    expect((await pay(theirs._id, stranger, 'PP-STRANGER')).statusCode).toBe(403);
    expect((await pay(theirs._id, { headers: {} }, 'PP-STRANGER')).statusCode).toBe(401);
    expect((await pay(theirs._id, buyer, 'PP-STRANGER', { orderId: 'f'.repeat(24) })).json().message).toBe(
      'Order id does not match',
    );

    // a cancelled order is never paid; a verified PayPal payment for it is kept on record for a refund
    await t.app.db.update(orders).set({ isCancelled: true, cancelledAt: new Date() }).where(eq(orders.id, theirs._id));
    const cancelled = await pay(theirs._id, buyer, 'PP-STRANGER');
    expect(cancelled.statusCode).toBe(400);
    expect(cancelled.json().message).toBe('Order is cancelled. Your payment is recorded and will be refunded.');
    expect(await isPaid(theirs._id)).toBe(false);
    const kept = await t.app.db.select().from(payments).where(eq(payments.orderId, theirs._id));
    expect(kept.map((p) => [p.providerPaymentId, p.status])).toEqual([['PP-STRANGER', 'REFUND_DUE']]);
    // the same payment again changes nothing; an unverifiable one gets the plain refusal
    expect((await pay(theirs._id, buyer, 'PP-STRANGER')).statusCode).toBe(400);
    expect((await pay(theirs._id, buyer, 'PP-UNKNOWN')).json().message).toBe('Order is cancelled');
    expect(await t.app.db.$count(payments, eq(payments.orderId, theirs._id))).toBe(1);
  });

  it('refuses every payment when PayPal rejects the store’s credentials', async () => {
    const wrong = await createTestApp({
      PAYPAL_CLIENT_ID: 'client-id',
      PAYPAL_CLIENT_SECRET: 'wrong',
      PAYPAL_API_BASE: paypal.url,
    });
    try {
      const who = await signedIn(wrong.app);
      const p = await createProduct(wrong.app.db, { priceCents: 2000 });
      const order = await newOrder(wrong.app, who, p.id);
      paypalOrders.set('PP-CREDS', { status: 200, body: paypalOrder('PP-CREDS', '23.00') });
      const res = await wrong.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/pay`,
        headers: who.headers,
        payload: { paymentResult: { id: 'PP-CREDS' } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Could not verify the payment with PayPal, please try again');
    } finally {
      await wrong.close();
    }
  });

  it('refuses when PayPal cannot be reached at all', async () => {
    const gone = await standIn(() => ({ status: 200, body: {} }));
    await gone.close();
    const offline = await createTestApp({
      PAYPAL_CLIENT_ID: 'client-id',
      PAYPAL_CLIENT_SECRET: 'client-secret',
      PAYPAL_API_BASE: gone.url,
    });
    try {
      const who = await signedIn(offline.app);
      const p = await createProduct(offline.app.db, { priceCents: 2000 });
      const order = await newOrder(offline.app, who, p.id);
      const res = await offline.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/pay`,
        headers: who.headers,
        payload: { paymentResult: { id: 'PP-1' } },
      });
      expect(res.json()).toEqual({
        message: 'Could not verify the payment with PayPal, please try again',
        code: 'UPSTREAM_FAILED',
      });
    } finally {
      await offline.close();
    }
  });
});
