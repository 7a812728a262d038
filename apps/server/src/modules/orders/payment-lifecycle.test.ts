import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, orders, payments, products } from '#server/db/schema/index.ts';
import { createCoupon, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';
import { WEBHOOK_ID, paypalSandbox, type PaypalSandbox } from '#test/paypal-sandbox.ts';
import { expireUnpaidOrders } from './order-expiry.ts';

type Response = { statusCode: number };

let pp: PaypalSandbox;
let t: TestContext;
let buyer: Awaited<ReturnType<typeof signedIn>>;
let admin: Awaited<ReturnType<typeof signedIn>>;

async function newOrder(
  o: { qty?: number; priceCents?: number; stock?: number; extra?: Record<string, unknown> } = {},
) {
  const product = await createProduct(t.app.db, { priceCents: o.priceCents ?? 2000, countInStock: o.stock ?? 100 });
  const res = await placeOrder(t.app, buyer, orderBody([{ product: product.id, qty: o.qty ?? 1 }], o.extra));
  expect(res.statusCode).toBe(201);
  return { order: res.json() as { _id: string; totalPrice: number; orderNumber: number }, productId: product.id };
}

const start = (id: string, auth: Auth = buyer) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${id}/paypal`, headers: auth.headers });
const capture = (id: string, paypalOrderId: string, auth: Auth = buyer) =>
  t.app.inject({
    method: 'POST',
    url: `/api/orders/${id}/paypal/capture`,
    headers: auth.headers,
    payload: { paypalOrderId },
  });
const refund = (id: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${id}/refunds`, headers: admin.headers, payload });
const cancel = (id: string, auth: Auth) =>
  t.app.inject({ method: 'PUT', url: `/api/orders/${id}/cancel`, headers: auth.headers });
const adminView = async (id: string) =>
  (await t.app.inject({ url: `/api/orders/${id}`, headers: admin.headers })).json();
const paymentsOf = (orderId: string) => t.app.db.select().from(payments).where(eq(payments.orderId, orderId));
const stockOf = async (id: string) =>
  (await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, id)))[0]!.n;
const mailsTo = (email: string) => t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));

/** A paid order: created and captured through the server, as the PayPal buttons do. */
async function paidOrder(o: Parameters<typeof newOrder>[0] = {}) {
  const placed = await newOrder(o);
  const { id } = (await start(placed.order._id)).json() as { id: string };
  pp.approve(id);
  const res = await capture(placed.order._id, id);
  expect(res.statusCode).toBe(200);
  return { ...placed, paypalOrderId: id };
}

async function until(check: () => Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * A store paying through a fresh PayPal stand-in (the sweep every `reconcileSeconds`, 0 for none), with a
 * buyer and an admin; closed after the block.
 */
function storeWithPaypal(o: { reconcileSeconds: string; webhook: boolean; adminName?: string }) {
  beforeAll(async () => {
    pp = await paypalSandbox();
    t = await createTestApp({
      PAYPAL_CLIENT_ID: 'client-id',
      PAYPAL_CLIENT_SECRET: 'client-secret',
      PAYPAL_API_BASE: pp.url,
      ...(o.webhook ? { PAYPAL_WEBHOOK_ID: WEBHOOK_ID } : {}),
      PAYPAL_RECONCILE_SECONDS: o.reconcileSeconds,
    });
    buyer = await signedIn(t.app, { email: 'buyer@example.com' });
    admin = await signedIn(t.app, { isAdmin: true, ...(o.adminName ? { username: o.adminName } : {}) });
  });
  afterAll(async () => {
    await t?.close();
    await pp?.close();
  });
}

describe('payments the server creates and captures with PayPal', () => {
  storeWithPaypal({ reconcileSeconds: '0.3', webhook: true });

  it('creates the PayPal order for the total it computed, with the order id as custom_id, and captures it', async () => {
    const { order } = await newOrder({ priceCents: 2000 }); // $20 + 15% tax = $23.00
    const created = await start(order._id);
    expect(created.statusCode).toBe(200);
    const { id } = created.json() as { id: string };
    const create = pp.calls.find((c) => c.url === '/v2/checkout/orders')!;
    const sent = JSON.parse(create.body);
    expect(sent.intent).toBe('CAPTURE');
    expect(sent.purchase_units[0]).toMatchObject({
      custom_id: order._id,
      amount: { currency_code: 'USD', value: '23.00' },
    });
    expect(create.headers['paypal-request-id']).toBeTruthy();

    pp.approve(id);
    const res = await capture(order._id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isPaid: true,
      isTestPayment: false,
      paymentResult: { id, status: 'COMPLETED' },
    });
    const [payment] = await paymentsOf(order._id);
    expect(payment).toMatchObject({ providerPaymentId: id, status: 'COMPLETED', amountCents: 2300 });
    expect(payment!.captureId).toBe(pp.capture(id).id);
    // capturing again answers the same paid order and records nothing more
    const again = await capture(order._id, id);
    expect(again.statusCode).toBe(200);
    expect(await paymentsOf(order._id)).toHaveLength(1);
  });

  it('refuses a PayPal order it did not create for this order, other people, and unapproved payments', async () => {
    const a = await newOrder();
    const b = await newOrder();
    const { id } = (await start(a.order._id)).json() as { id: string };
    expect((await capture(b.order._id, id)).statusCode).toBe(400);
    const stranger = await signedIn(t.app);
    expect((await start(a.order._id, stranger)).statusCode).toBe(403);
    expect((await capture(a.order._id, id, stranger)).statusCode).toBe(403);
    expect((await start(a.order._id, { headers: {} })).statusCode).toBe(401);
    const notApproved = await capture(a.order._id, id);
    expect(notApproved.statusCode).toBe(400);
    expect(notApproved.json().message).toMatch(/not approved/i);
    expect((await t.app.db.select().from(orders).where(eq(orders.id, a.order._id)))[0]!.isPaid).toBe(false);
  });

  it('gives the shopper a clear message when PayPal does not answer, and loses nothing', async () => {
    const { order } = await newOrder();
    for (let i = 0; i < 3; i++) pp.failNext(/^POST \/v2\/checkout\/orders$/, 503);
    const res = await start(order._id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_FAILED' });
    expect(res.json().message).toMatch(/PayPal is not answering/);
    // a brief outage is ridden out by the bounded retry
    pp.failNext(/^POST \/v2\/checkout\/orders$/, 503);
    expect((await start(order._id)).statusCode).toBe(200);
  });

  it('records a payment captured at PayPal whose browser never came back (the sweep)', async () => {
    const { order } = await newOrder();
    const { id } = (await start(order._id)).json() as { id: string };
    pp.approve(id);
    pp.captureBehindOurBack(id); // the browser closed after PayPal took the money
    const paid = await until(
      async () => (await t.app.db.select().from(orders).where(eq(orders.id, order._id)))[0]!.isPaid,
    );
    expect(paid).toBe(true);
    const [payment] = await paymentsOf(order._id);
    expect(payment).toMatchObject({ providerPaymentId: id, status: 'COMPLETED' });
    const history = (await adminView(order._id)).history as { event: string; note: string }[];
    expect(history.find((e) => e.event === 'paid')!.note).toMatch(/sweep/);
  });

  it('records one payment when the webhook and the capture race', async () => {
    for (let round = 0; round < 3; round++) {
      const { order } = await newOrder();
      const { id } = (await start(order._id)).json() as { id: string };
      pp.approve(id);
      const hook = pp.webhook('CHECKOUT.ORDER.APPROVED', {
        id,
        status: 'APPROVED',
        purchase_units: [{ custom_id: order._id }],
      });
      const [cap, wh] = await Promise.all([
        capture(order._id, id),
        t.app.inject({ method: 'POST', url: '/api/paypal/webhook', headers: hook.headers, payload: hook.payload }),
      ]);
      expect(cap.statusCode).toBe(200);
      expect(wh.statusCode).toBe(200);
      expect(await paymentsOf(order._id)).toHaveLength(1);
      expect(pp.refunds.filter((r) => r.captureId === pp.capture(id).id)).toHaveLength(0);
      // PayPal's later PAYMENT.CAPTURE.COMPLETED finds it recorded
      const cap2 = pp.capture(id);
      const done = pp.webhook('PAYMENT.CAPTURE.COMPLETED', {
        ...cap2,
        supplementary_data: { related_ids: { order_id: id } },
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/paypal/webhook',
        headers: done.headers,
        payload: done.payload,
      });
      expect(res.json()).toMatchObject({ received: true, outcome: 'already recorded' });
      expect(await paymentsOf(order._id)).toHaveLength(1);
    }
  });

  it('never captures a cancelled order; a payment PayPal took anyway is refunded at once, and the shopper told', async () => {
    const { order } = await newOrder();
    const { id } = (await start(order._id)).json() as { id: string };
    expect((await cancel(order._id, buyer)).statusCode).toBe(200);
    pp.approve(id);
    const captures = () => pp.calls.filter((c) => c.url === `/v2/checkout/orders/${id}/capture`).length;
    const res = await capture(order._id, id);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Order is cancelled');
    expect(captures()).toBe(0);
    // the money moved at PayPal all the same (captured elsewhere): the sweep finds it and gives it back
    pp.captureBehindOurBack(id);
    expect(await until(async () => (await paymentsOf(order._id))[0]?.status === 'REFUNDED')).toBe(true);
    const captureId = pp.capture(id).id;
    expect(pp.refunds.filter((r) => r.captureId === captureId).map((r) => r.amount)).toEqual([
      Math.round(order.totalPrice * 100),
    ]);
    const mails = await mailsTo('buyer@example.com');
    expect(mails.some((m) => m.subject.startsWith(`Your payment for order #${order.orderNumber}`))).toBe(true);
    expect((await t.app.db.select().from(orders).where(eq(orders.id, order._id)))[0]!.isPaid).toBe(false);
  });

  it('lists a payment for a cancelled order for the admin when PayPal refuses the refund, and retries it', async () => {
    const { order } = await newOrder();
    const { id } = (await start(order._id)).json() as { id: string };
    expect((await cancel(order._id, buyer)).statusCode).toBe(200);
    pp.approve(id);
    pp.failNext(/\/refund$/, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'CAPTURE_NOT_REFUNDABLE' }] });
    pp.captureBehindOurBack(id);
    const hook = pp.webhook('PAYMENT.CAPTURE.COMPLETED', {
      ...pp.capture(id),
      supplementary_data: { related_ids: { order_id: id } },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/paypal/webhook',
      headers: hook.headers,
      payload: hook.payload,
    });
    expect(res.statusCode).toBe(200);
    expect(['refund due', 'already recorded']).toContain(res.json().outcome);
    const history = (await adminView(order._id)).history as { event: string }[];
    expect(history.map((e) => e.event)).toContain('payment refund due');
    // the sweep asks PayPal again, with the same key, and the money goes back once
    const refunded = await until(async () => (await paymentsOf(order._id))[0]!.status === 'REFUNDED');
    expect(refunded).toBe(true);
    const captureId = pp.capture(id).id;
    expect(pp.refunds.filter((r) => r.captureId === captureId)).toHaveLength(1);
    const mails = (await mailsTo('buyer@example.com')).filter((m) =>
      m.subject.startsWith(`Your payment for order #${order.orderNumber}`),
    );
    mails.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(mails.map((m) => m.text.includes('We refunded the payment in full'))).toEqual([false, true]);
  });
});

describe('cancelling orders', () => {
  storeWithPaypal({ reconcileSeconds: '0', webhook: false });

  it('lets the shopper cancel an unpaid order: stock and the code come back, and an e-mail goes out', async () => {
    const coupon = await createCoupon(t.app.db, { code: 'TENOFF', type: 'percent', value: 1000, usageLimit: 5 });
    const { order, productId } = await newOrder({ qty: 3, stock: 10, extra: { couponCode: 'TENOFF' } });
    expect(await stockOf(productId)).toBe(7);
    const res = await cancel(order._id, buyer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isCancelled: true });
    expect(res.json().cancelledAt).toBeTruthy();
    expect(res.json().history).toBeUndefined();
    expect(await stockOf(productId)).toBe(10);
    const { couponCode } = res.json();
    expect(couponCode).toBe('TENOFF');
    const [c] = await t.app.db
      .execute<{ times_used: number }>(
        // the code's use is given back
        (await import('drizzle-orm')).sql`select times_used from coupons where id = ${coupon.id}`,
      )
      .then((r) => r.rows);
    expect(Number(c!.times_used)).toBe(0);
    const mails = await mailsTo('buyer@example.com');
    expect(mails.some((m) => m.subject.startsWith(`Order #${order.orderNumber} is cancelled`))).toBe(true);
    const again = await cancel(order._id, buyer);
    expect(again.statusCode).toBe(400);
    // the stock is not given back twice
    expect(await stockOf(productId)).toBe(10);
  });

  it('refuses strangers, and a shopper cancelling a paid order', async () => {
    const { order } = await newOrder();
    const stranger = await signedIn(t.app);
    expect((await cancel(order._id, stranger)).statusCode).toBe(403);
    expect((await cancel(order._id, { headers: {} })).statusCode).toBe(401);
    const paid = await paidOrder();
    const res = await cancel(paid.order._id, buyer);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/paid/);
  });

  it('lets an admin cancel a paid order: refunded in full first, then cancelled and restocked', async () => {
    const { order, productId, paypalOrderId } = await paidOrder({ qty: 2, stock: 5 });
    expect(await stockOf(productId)).toBe(3);
    const res = await cancel(order._id, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isCancelled: true, refundedPrice: order.totalPrice });
    expect(res.json().refunds).toHaveLength(1);
    const captureId = pp.capture(paypalOrderId).id;
    expect(pp.refunds.filter((r) => r.captureId === captureId).map((r) => r.amount)).toEqual([
      Math.round(order.totalPrice * 100),
    ]);
    expect(await stockOf(productId)).toBe(5);
    const events = (res.json().history as { event: string; by: string }[]).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['placed', 'paid', 'refunded', 'cancelled', 'email']));
  });

  it('does not cancel a shipped order', async () => {
    const { order } = await paidOrder();
    const shipped = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/ship`,
      headers: admin.headers,
      payload: { trackingNumbers: [{ number: '1Z999', trackingItem: [] }] },
    });
    expect(shipped.statusCode).toBe(200);
    const res = await cancel(order._id, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/shipped/);
  });

  it('never restocks twice when a cancel races the unpaid-order sweeper and another cancel', async () => {
    const { order, productId } = await newOrder({ qty: 4, stock: 10 });
    const results = await Promise.all([
      cancel(order._id, buyer),
      cancel(order._id, buyer),
      cancel(order._id, admin),
      expireUnpaidOrders(t.app.db, 1, new Date(Date.now() + 2 * 60_000)),
    ]);
    expect(results.slice(0, 3).filter((r) => (r as Response).statusCode === 200).length).toBeLessThanOrEqual(1);
    const history = (await adminView(order._id)).history as { event: string }[];
    expect(history.filter((e) => e.event === 'cancelled')).toHaveLength(1);
    expect(await stockOf(productId)).toBe(10);
  });

  it('writes the expiry into the history and tells the shopper', async () => {
    const { order } = await newOrder();
    await expireUnpaidOrders(t.app.db, 1, new Date(Date.now() + 2 * 60_000), 'https://shop.example');
    const history = (await adminView(order._id)).history as { event: string; by: string; note: string }[];
    expect(history.find((e) => e.event === 'cancelled')).toMatchObject({
      by: 'system',
      note: 'not paid within 1 minute',
    });
    const mail = (await mailsTo('buyer@example.com')).find((m) =>
      m.subject.startsWith(`Order #${order.orderNumber} is cancelled`),
    );
    expect(mail?.text).toContain('it was not paid within 1 minute');
    expect(mail?.text).toContain(`https://shop.example/order/${order._id}`);
  });
});

describe('refunds', () => {
  storeWithPaypal({ reconcileSeconds: '0', webhook: true, adminName: 'merchant' });

  it('records a payment PayPal reports by webhook (no sweep here), and ignores events it cannot verify', async () => {
    const { order } = await newOrder();
    const { id } = (await start(order._id)).json() as { id: string };
    pp.approve(id);
    pp.captureBehindOurBack(id);
    const capture0 = pp.capture(id);
    const forged = pp.webhook(
      'PAYMENT.CAPTURE.COMPLETED',
      { ...capture0, supplementary_data: { related_ids: { order_id: id } } },
      'forged-signature',
    );
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/paypal/webhook',
      headers: forged.headers,
      payload: forged.payload,
    });
    expect(bad.statusCode).toBe(400);
    expect(await paymentsOf(order._id)).toHaveLength(0);
    const real = pp.webhook('PAYMENT.CAPTURE.COMPLETED', {
      ...capture0,
      supplementary_data: { related_ids: { order_id: id } },
    });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/paypal/webhook',
      headers: real.headers,
      payload: real.payload,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().outcome).toBe('recorded');
    expect((await paymentsOf(order._id))[0]).toMatchObject({ providerPaymentId: id, status: 'COMPLETED' });
  });

  it('lists for the admin the orders holding a payment still to refund', async () => {
    const { order } = await newOrder();
    const { id } = (await start(order._id)).json() as { id: string };
    expect((await cancel(order._id, buyer)).statusCode).toBe(200);
    pp.approve(id);
    pp.captureBehindOurBack(id);
    pp.failNext(/\/refund$/, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'CAPTURE_NOT_REFUNDABLE' }] });
    const hook = pp.webhook('PAYMENT.CAPTURE.COMPLETED', {
      ...pp.capture(id),
      supplementary_data: { related_ids: { order_id: id } },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/paypal/webhook',
      headers: hook.headers,
      payload: hook.payload,
    });
    expect(res.json().outcome).toBe('refund due');
    const listed = async (q: string) =>
      (
        (await t.app.inject({ url: `/api/orders?${q}&pageSize=100`, headers: admin.headers })).json().orders as {
          _id: string;
        }[]
      ).map((o) => o._id);
    expect(await listed('refundDue=yes')).toEqual([order._id]);
    expect(await listed('refundDue=no')).not.toContain(order._id);
  });

  it('refunds part of a paid order through PayPal with an idempotency key, and puts chosen items back', async () => {
    const { order, productId, paypalOrderId } = await paidOrder({ qty: 2, stock: 10 });
    const res = await refund(order._id, {
      amount: 10,
      reason: 'One arrived broken',
      restock: [{ product: productId, qty: 1 }],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.refundedPrice).toBe(10);
    expect(body.refunds).toEqual([
      expect.objectContaining({ amount: 10, reason: 'One arrived broken', status: 'COMPLETED' }),
    ]);
    expect(await stockOf(productId)).toBe(9);
    const captureId = pp.capture(paypalOrderId).id;
    const call = pp.calls.find((c) => c.url === `/v2/payments/captures/${captureId}/refund`)!;
    expect(call.headers['paypal-request-id']).toBe(body.refunds[0]._id);
    expect(JSON.parse(call.body).amount).toEqual({ currency_code: 'USD', value: '10.00' });
    const history = body.history as { event: string; by: string; note: string }[];
    expect(history.find((e) => e.event === 'refunded')).toMatchObject({ by: 'admin merchant' });
    expect(history.find((e) => e.event === 'refunded')!.note).toMatch(/\$10\.00: One arrived broken/);
    const mails = await mailsTo('buyer@example.com');
    expect(mails.some((m) => m.subject.startsWith(`Refund for order #${order.orderNumber}`))).toBe(true);
    // what is left, and no more
    const over = await refund(order._id, { amount: order.totalPrice - 10 + 0.01, reason: '' });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain(`$${(order.totalPrice - 10).toFixed(2)}`);
    const rest = await refund(order._id, { amount: Number((order.totalPrice - 10).toFixed(2)), reason: 'Rest' });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().refundedPrice).toBe(order.totalPrice);
    // the line can give back one more unit, not two
    const more = await refund(order._id, { amount: 0.01, restock: [{ product: productId, qty: 2 }] });
    expect(more.statusCode).toBe(400);
  });

  it('never refunds more than was paid, however many refunds race', async () => {
    const { order, paypalOrderId } = await paidOrder({ priceCents: 2000 }); // $23.00
    pp.state.delayMs = 30;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => refund(order._id, { amount: 5, reason: 'race' })),
    );
    pp.state.delayMs = 0;
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(4); // 4 × $5 = $20 of $23.00
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(4);
    const captureId = pp.capture(paypalOrderId).id;
    const atPaypal = pp.refunds.filter((r) => r.captureId === captureId).reduce((n, r) => n + r.amount, 0);
    expect(atPaypal).toBe(2000);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row!.refundedCents).toBe(2000);
  });

  it("takes refunds off the dashboard's revenue", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const stats = async () =>
      (await t.app.inject({ url: `/api/admin/stats?from=${day}&to=${day}`, headers: admin.headers })).json() as {
        revenue: number;
        refunded: number;
      };
    const before = await stats();
    const { order } = await paidOrder();
    expect((await stats()).revenue).toBeCloseTo(before.revenue + order.totalPrice, 2);
    expect((await refund(order._id, { amount: 3.5 })).statusCode).toBe(200);
    const after = await stats();
    expect(after.refunded).toBeCloseTo(before.refunded + 3.5, 2);
    expect(after.revenue).toBeCloseTo(before.revenue + order.totalPrice - 3.5, 2);
  });

  it('records nothing when PayPal refuses the refund (502 with a message)', async () => {
    const { order } = await paidOrder();
    pp.failNext(/\/refund$/, 422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'REFUND_TIME_LIMIT_EXCEEDED' }] });
    const res = await refund(order._id, { amount: 5, reason: 'late' });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/PayPal refused the refund.*REFUND_TIME_LIMIT_EXCEEDED/);
    const view = await adminView(order._id);
    expect(view.refunds).toEqual([]);
    expect(view.refundedPrice).toBe(0);
    for (let i = 0; i < 3; i++) pp.failNext(/\/refund$/, 500);
    const down = await refund(order._id, { amount: 5, reason: 'down' });
    expect(down.statusCode).toBe(502);
    expect((await adminView(order._id)).refunds).toEqual([]);
  });

  it('refuses refunds of unpaid orders, by non-admins, and bad amounts', async () => {
    const { order } = await newOrder();
    expect((await refund(order._id, { amount: 1 })).statusCode).toBe(400);
    const paid = await paidOrder();
    const asBuyer = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${paid.order._id}/refunds`,
      headers: buyer.headers,
      payload: { amount: 1 },
    });
    expect(asBuyer.statusCode).toBe(403);
    expect((await refund(paid.order._id, { amount: 0 })).statusCode).toBe(400);
    expect((await refund(paid.order._id, { amount: -3 })).statusCode).toBe(400);
    expect((await refund(paid.order._id, { amount: 1, restock: [{ product: 'nope', qty: 1 }] })).statusCode).toBe(400);
  });

  it('numbers orders in sequence, shows refunded and cancelled orders to the admin list filters', async () => {
    const a = await newOrder();
    const b = await newOrder();
    expect(b.order.orderNumber).toBe(a.order.orderNumber + 1);
    const paid = await paidOrder();
    await refund(paid.order._id, { amount: 1 });
    await cancel(a.order._id, buyer);
    const list = async (q: string) =>
      (
        (await t.app.inject({ url: `/api/orders?${q}&pageSize=100`, headers: admin.headers })).json().orders as {
          _id: string;
          orderNumber: number;
        }[]
      ).map((o) => o._id);
    expect(await list('refunded=yes')).toContain(paid.order._id);
    expect(await list('refunded=yes')).not.toContain(b.order._id);
    expect(await list('cancelled=yes')).toContain(a.order._id);
    expect(await list('cancelled=yes')).not.toContain(b.order._id);
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.to, 'buyer@example.com'),
          eq(mailOutbox.subject, `Order #${b.order.orderNumber} received | Store`),
        ),
      );
    expect(mail).toBeTruthy();
  });
});

describe('test-mode payments through the same calls', () => {
  beforeAll(async () => {
    t = await createTestApp();
    buyer = await signedIn(t.app, { email: 'buyer@example.com' });
    admin = await signedIn(t.app, { isAdmin: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, captures and refunds without PayPal, clearly marked as a test', async () => {
    const { order } = await newOrder();
    const { id } = (await start(order._id)).json() as { id: string };
    expect(id).toMatch(/^TEST-/);
    const res = await capture(order._id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isPaid: true, isTestPayment: true });
    const refunded = await refund(order._id, { amount: order.totalPrice });
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json().refundedPrice).toBe(order.totalPrice);
    const hook = await t.app.inject({ method: 'POST', url: '/api/paypal/webhook', payload: { event_type: 'X' } });
    expect(hook.statusCode).toBe(404);
  });
});
