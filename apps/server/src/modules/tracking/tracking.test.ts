import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { createAccount } from '#test/accounts.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder } from '#test/orders-support.ts';

type Auth = { headers: Record<string, string> };
let t: TestContext;
let admin: Auth;
let buyer: Auth;
let orderId: string;
let numbers: { _id: string; number: string }[];
const anon: Auth = { headers: {} };
const post = (url: string, auth: Auth, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: auth.headers, payload });
const shipment = (trackingId: string) => ({
  trackingId,
  destinationCountry: 'United States',
  language: 'en',
  zipcode: '62701',
});

describe('shipment tracking (manual provider) and the tracking e-mail', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    buyer = await createAccount(t, { email: 'track-me@example.com', firstName: 'Tess' });
    const lamp = await createProduct(t.app.db, { name: 'Lamp' });
    const mug = await createProduct(t.app.db, { name: 'Mug' });
    const order = await placeOrder(
      t.app,
      buyer,
      orderBody([
        { product: lamp.id, qty: 1 },
        { product: mug.id, qty: 2 },
      ]),
    );
    orderId = order.json()._id;
    await t.app.inject({ method: 'PUT', url: `/api/orders/${orderId}/pay`, headers: buyer.headers, payload: {} });
    const shipped = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderId}/ship`,
      headers: admin.headers,
      payload: {
        trackingNumbers: [
          { number: '1Z999AA10123456784', trackingItem: ['Lamp'] },
          { number: 'LX123456789US', trackingItem: ['Mug'] },
        ],
      },
    });
    numbers = shipped.json().trackingNumbers;
  });
  afterAll(async () => t?.close());

  it("answers 'Invalid shipment data' when a field is missing or malformed", async () => {
    const good = shipment('1Z999AA10123456784');
    for (const key of Object.keys(good)) {
      const { [key as keyof typeof good]: _gone, ...rest } = good;
      for (const body of [rest, { ...good, [key]: '' }, { ...good, [key]: 42 }]) {
        const res = await post('/api/orders/shipments/tracking', anon, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toEqual({ message: 'Invalid shipment data', code: 'BAD_REQUEST' });
      }
    }
    const empty = await t.app.inject({ method: 'POST', url: '/api/orders/shipments/tracking' });
    expect(empty.json()).toEqual({ message: 'Invalid shipment data', code: 'BAD_REQUEST' });
    expect((await post('/api/orders/shipments/tracking', anon, { ...good, trackingId: '../../x' })).json()).toEqual({
      message: 'Invalid shipment data',
      code: 'BAD_REQUEST',
    });
  });

  it('answers an empty list before any movement is recorded', async () => {
    const res = await post('/api/orders/shipments/tracking', anon, shipment('1Z999AA10123456784'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('lets admins record movements; tracking and the order page show them newest first', async () => {
    const url = `/api/orders/${orderId}/tracking/${numbers[0]!._id}/events`;
    expect((await post(url, anon, { status: 'x' })).statusCode).toBe(401);
    expect((await post(url, buyer, { status: 'x' })).statusCode).toBe(403);
    expect((await post(url, admin, { status: '  ' })).json()).toEqual({
      message: 'Status is required',
      code: 'BAD_REQUEST',
    });
    expect((await post(url, admin, { status: 'Moved', occurredAt: 'yesterday-ish' })).json()).toEqual({
      message: 'Invalid date',
      code: 'BAD_REQUEST',
    });
    for (const occurredAt of ['0000-01-01', '10000-01-01', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00Z']) {
      const res = await post(url, admin, { status: 'Moved', occurredAt });
      expect(res.statusCode, `${occurredAt}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ message: 'Date must be between years 1 and 9999', code: 'BAD_REQUEST' });
    }
    const first = await post(url, admin, {
      status: 'Picked up',
      location: 'Springfield, IL',
      occurredAt: '2026-03-01T09:00:00.000Z',
    });
    expect(first.statusCode).toBe(201);
    const second = await post(url, admin, {
      status: 'Out for <b>delivery</b>',
      location: 'Chicago, IL',
      occurredAt: '2026-03-02T08:30:00Z',
    });
    const expected = [
      { time: '2026-03-02T08:30:00.000Z', status: 'Out for bdelivery/b', location: 'Chicago, IL' },
      { time: '2026-03-01T09:00:00.000Z', status: 'Picked up', location: 'Springfield, IL' },
    ];
    expect(second.json()).toEqual(expected);
    // any case of the number finds them
    expect((await post('/api/orders/shipments/tracking', anon, shipment('1z999aa10123456784'))).json()).toEqual(
      expected,
    );
    const order = (await t.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: buyer.headers })).json();
    expect(order.trackingNumbers[0].events).toEqual(expected);
    expect(order.trackingNumbers[1].events).toEqual([]);
    // a tracking number of another order, or none at all
    expect(
      (await post(`/api/orders/${orderId}/tracking/${'a'.repeat(24)}/events`, admin, { status: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (await post(`/api/orders/${'b'.repeat(24)}/tracking/${numbers[0]!._id}/events`, admin, { status: 'x' }))
        .statusCode,
    ).toBe(404);
  });

  it("mails the tracking numbers and their items to the order's e-mail through the outbox", async () => {
    const url = '/api/orders/email/send';
    const body = {
      orderId,
      email: 'Track-Me@example.com',
      bigNumber: [
        { number: '1Z999AA10123456784', trackingItem: ['Lamp', 'Lamp'] },
        { number: 'LX123456789US', trackingItem: ['Mug'] },
      ],
    };
    expect((await post(url, anon, body)).statusCode).toBe(401);
    expect((await post(url, buyer, body)).statusCode).toBe(403);
    const before = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'track-me@example.com'));
    const res = await post(url, admin, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Email sent' });
    const mails = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'track-me@example.com'));
    expect(mails).toHaveLength(before.length + 1);
    const mail = mails.find((m) => !before.some((b) => b.id === m.id))!;
    expect(mail.subject).toMatch(/^Order #\d+ has shipped/);
    expect(mail.text).toContain(`/order/${orderId}`);
    expect(mail.text).toContain('- 1Z999AA10123456784 (Lamp)');
    expect(mail.text).toContain('- LX123456789US (Mug)');
    expect(mail.text).toContain(`/order/${orderId}`);
    expect(mail.html).toContain('1Z999AA10123456784 (Lamp)');
  });

  it('refuses a tracking e-mail to another address, without numbers, or for an unknown order', async () => {
    const url = '/api/orders/email/send';
    const bigNumber = [{ number: 'LX1', trackingItem: [] }];
    expect((await post(url, admin, { orderId, email: 'someone@else.example', bigNumber })).json()).toEqual({
      message: 'E-mail does not match the order',
      code: 'BAD_REQUEST',
    });
    expect((await post(url, admin, { orderId, bigNumber: [] })).json()).toEqual({
      message: 'Please add at least one tracking number',
      code: 'BAD_REQUEST',
    });
    expect((await post(url, admin, { orderId: 'c'.repeat(24), bigNumber })).statusCode).toBe(404);
  });
});
