import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments } from '../src/db/schema/index.ts';
import { createProduct } from './factories.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { json, misbehavingApi, type Behaviour } from './misbehaving-api.ts';
import { orderBody, placeOrder, signedIn, usAddress } from './orders-support.ts';
import { paypalOrder } from './paypal-stand-in.ts';

/**
 * PayPal, the address service (USPS) and the tracking service (ParcelsApp) hang, stop mid-answer or
 * answer garbage. Every call has a deadline; the shopper gets a clear 400/502 message (or, for
 * addresses, the built-in suggestion: checkout goes on) within it, never a 500 or a hang; and no order
 * is recorded as paid unless PayPal really said so. The outside APIs are local HTTP servers that
 * misbehave on cue (by order id, street or tracking number).
 */
const PAYPAL_UNAVAILABLE = {
  message: 'Could not verify the payment with PayPal, please try again',
  code: 'UPSTREAM_FAILED',
};
const TRACKING_UNAVAILABLE = {
  message: 'Tracking service unavailable, please try again later',
  code: 'UPSTREAM_FAILED',
};
/** The longest any shopper's request may take: PayPal's and the carrier's budgets are 10 and 12 s. */
const DEADLINE_MS = 14_000;

const garbage: Record<string, Behaviour> = {
  HTML: { status: 200, body: '<html><body>Service Unavailable</body></html>', type: 'text/html' },
  TRUNCATED: { status: 200, body: '{"id":"PP-TRUNC' },
  ARRAY: json([1, 2, 3]),
  NULL: { status: 200, body: 'null' },
};
/** Picks a misbehaviour by a word in the request (an order id, a street, a tracking number), else undefined. */
function misbehaviour(text: string): Behaviour | undefined {
  if (/HANG/i.test(text)) return { hang: true };
  if (/STALL/i.test(text)) return { stall: true };
  const word = Object.keys(garbage).find((k) => text.toUpperCase().includes(k));
  return word ? garbage[word] : undefined;
}

let paypal: Awaited<ReturnType<typeof misbehavingApi>>;
let usps: Awaited<ReturnType<typeof misbehavingApi>>;
let carrier: Awaited<ReturnType<typeof misbehavingApi>>;
let t: TestContext;
let total = '0.00';
/** The PayPal answers by order id for the wrong-shape cases (set per case). */
const paypalShapes = new Map<string, unknown>();

beforeAll(async () => {
  paypal = await misbehavingApi((url, method) => {
    if (method === 'POST' && url.pathname === '/v1/oauth2/token')
      return json({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 });
    const id = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    if (paypalShapes.has(id)) return json(paypalShapes.get(id));
    return misbehaviour(id) ?? json(paypalOrder(id, total));
  });
  usps = await misbehavingApi((url) => {
    if (url.pathname === '/oauth2/v3/token') return json({ access_token: 'token', expires_in: 3600 });
    const street = url.searchParams.get('streetAddress') ?? '';
    if (/SHAPE/i.test(street)) return json({ address: { streetAddress: 42, city: null, ZIPCode: 'none' } });
    if (/REFUSED/i.test(street)) return { status: 400, body: '<html>Bad Request</html>', type: 'text/html' };
    return (
      misbehaviour(street) ??
      json({ address: { streetAddress: street.toUpperCase(), city: 'SPRINGFIELD', state: 'IL', ZIPCode: '62701' } })
    );
  });
  carrier = await misbehavingApi((url, method, body) => {
    const id =
      method === 'POST' ? (JSON.parse(body) as { shipments: { trackingId: string }[] }).shipments[0]!.trackingId : '';
    if (/SHAPE/i.test(id))
      return json({ done: true, shipments: [{ trackingId: id, states: [{ date: {}, state: 7 }, 'nonsense', null] }] });
    return misbehaviour(id) ?? json({ done: true, shipments: [] });
  });
  t = await createTestApp({
    PAYPAL_CLIENT_ID: 'client-id',
    PAYPAL_CLIENT_SECRET: 'client-secret',
    PAYPAL_API_BASE: paypal.url,
    ADDRESS_PROVIDER: 'usps',
    USPS_CLIENT_ID: 'usps-id',
    USPS_CLIENT_SECRET: 'usps-secret',
    USPS_API_BASE: usps.url,
    TRACKING_PROVIDER: 'parcelsapp',
    TRACKING_API_KEY: 'key',
    TRACKING_API_BASE: carrier.url,
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([paypal?.close(), usps?.close(), carrier?.close()]);
});

async function timed(req: InjectOptions) {
  const t0 = Date.now();
  const res = await t.app.inject(req);
  return { status: res.statusCode, body: res.json() as unknown, ms: Date.now() - t0 };
}

/** A fresh unpaid order, and a try to pay it with the PayPal order `paymentId`. */
async function payNewOrder(paymentId: string) {
  const buyer = await signedIn(t.app);
  const product = await createProduct(t.app.db, { priceCents: 2000, countInStock: 100 });
  const placed = await placeOrder(t.app, buyer, orderBody([{ product: product.id, qty: 1 }]));
  expect(placed.statusCode).toBe(201);
  const order = placed.json() as { _id: string; totalPrice: number };
  total = order.totalPrice.toFixed(2);
  const answer = await timed({
    method: 'PUT',
    url: `/api/orders/${order._id}/pay`,
    headers: buyer.headers,
    payload: { paymentResult: { id: paymentId, status: 'COMPLETED', email_address: 'payer@example.com' } },
  });
  const [row] = await t.app.db.select({ isPaid: orders.isPaid }).from(orders).where(eq(orders.id, order._id));
  const recorded = await t.app.db.$count(payments, eq(payments.orderId, order._id));
  return { ...answer, paid: row!.isPaid, recorded };
}

const validate = (address1: string) =>
  timed({ method: 'POST', url: '/api/shipping/shippingaddress', payload: { ...usAddress, address1 } });
const track = (trackingId: string) =>
  timed({
    method: 'POST',
    url: '/api/orders/shipments/tracking',
    payload: { trackingId, destinationCountry: 'United States', language: 'en', zipcode: '62701' },
  });
/** What the built-in rules suggest for usAddress (USPS down or useless: checkout goes on with it). */
const builtin = (street: string) => ({ Address1: street, City: 'Springfield', State: 'IL', Zip5: '62701' });

describe('outside services that hang or answer garbage', () => {
  it('gives up on services that hang or stop mid-answer within their deadlines', { timeout: 40_000 }, async () => {
    const [payHang, payStall, addrHang, addrStall, trackHang, trackStall] = await Promise.all([
      payNewOrder('PP-HANG'),
      payNewOrder('PP-STALL'),
      validate('1 Hang St'),
      validate('1 Stall St'),
      track('HANG123'),
      track('STALL123'),
    ]);
    for (const pay of [payHang, payStall]) {
      expect(pay).toMatchObject({ status: 400, body: PAYPAL_UNAVAILABLE, paid: false, recorded: 0 });
      expect(pay.ms).toBeLessThan(DEADLINE_MS);
    }
    expect(addrHang).toMatchObject({ status: 200, body: builtin('1 Hang St') });
    expect(addrStall).toMatchObject({ status: 200, body: builtin('1 Stall St') });
    for (const tr of [trackHang, trackStall]) expect(tr).toMatchObject({ status: 502, body: TRACKING_UNAVAILABLE });
    for (const a of [addrHang, addrStall, trackHang, trackStall]) expect(a.ms).toBeLessThan(DEADLINE_MS);
  });

  it('answers a clear message for garbage and records no payment PayPal did not confirm', async () => {
    for (const id of ['PP-HTML', 'PP-TRUNCATED', 'PP-ARRAY', 'PP-NULL'])
      expect(await payNewOrder(id)).toMatchObject({ status: 400, body: PAYPAL_UNAVAILABLE, paid: false, recorded: 0 });

    // JSON of the wrong shape: about no order at all, without a status, amounts that are not money,
    // another order's answer
    paypalShapes.set('PP-EMPTY', {});
    expect(await payNewOrder('PP-EMPTY')).toMatchObject({ status: 400, body: PAYPAL_UNAVAILABLE, paid: false });
    paypalShapes.set('PP-NOSTATUS', { id: 'PP-NOSTATUS' });
    expect(await payNewOrder('PP-NOSTATUS')).toMatchObject({
      status: 400,
      body: { message: 'Payment not completed (PayPal status: unknown)' },
      paid: false,
    });
    paypalShapes.set('PP-UNITS', { id: 'PP-UNITS', status: 'COMPLETED', purchase_units: 'all of them' });
    paypalShapes.set('PP-NUMBER', {
      id: 'PP-NUMBER',
      status: 'COMPLETED',
      purchase_units: [{ amount: { currency_code: 'USD', value: 23 } }],
    });
    for (const id of ['PP-UNITS', 'PP-NUMBER'])
      expect(await payNewOrder(id)).toMatchObject({
        status: 400,
        body: { message: 'Payment amount does not match the order total' },
        paid: false,
        recorded: 0,
      });
    const other = await payNewOrder('PP-FIRST'); // sets `total` for the order below
    expect(other).toMatchObject({ status: 200, paid: true, recorded: 1 });
    paypalShapes.set('PP-MINE', paypalOrder('PP-SOMEONE-ELSES', total));
    expect(await payNewOrder('PP-MINE')).toMatchObject({ status: 400, body: PAYPAL_UNAVAILABLE, paid: false });

    // the address service: garbage or a useless answer leaves the built-in suggestion; a refusal says why
    for (const street of ['1 Html St', '1 Truncated St', '1 Shape St'])
      expect(await validate(street)).toMatchObject({ status: 200, body: builtin(street) });
    expect(await validate('1 Refused St')).toMatchObject({ status: 400, body: { message: 'Address not found' } });

    // the tracking service: garbage is a 502 with a message; unusable events are left out
    for (const id of ['HTML123', 'TRUNCATED123', 'ARRAY123', 'NULL123'])
      expect(await track(id)).toMatchObject({ status: 502, body: TRACKING_UNAVAILABLE });
    expect(await track('SHAPE123')).toMatchObject({ status: 200, body: [] });
  });
});
