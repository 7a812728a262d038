import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';

let t: TestContext;
let admin: Auth;
let buyer: Awaited<ReturnType<typeof signedIn>>;
const put = (url: string, auth: Auth, payload?: object) =>
  t.app.inject({ method: 'PUT', url, headers: auth.headers, ...(payload ? { payload } : {}) });

async function order(paid: boolean) {
  const p = await createProduct(t.app.db);
  const o = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
  if (paid) expect((await put(`/api/orders/${o._id}/pay`, buyer, {})).statusCode).toBe(200);
  return o._id as string;
}

describe('shipping and delivering (admin)', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
    buyer = await signedIn(t.app, { email: 'ship-me@example.com' });
  });
  afterAll(async () => t?.close());

  it('ships a paid order with its tracking numbers and e-mails them to the buyer', async () => {
    const id = await order(true);
    const res = await put(`/api/orders/${id}/ship`, admin, {
      trackingNumbers: [{ number: '1Z999AA10123456784', trackingItem: ['Lamp', 'Lamp', ' '] }, { number: 'LX123' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isShipped: true,
      trackingNumbers: [
        { number: '1Z999AA10123456784', trackingItem: ['Lamp'] },
        { number: 'LX123', trackingItem: [] },
      ],
    });
    const mails = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ship-me@example.com'));
    expect(mails.some((m) => m.text.includes('1Z999AA10123456784') && m.subject.includes('shipped'))).toBe(true);
  });

  it('stores tracking numbers without their spaces, upper-cased, and tracking finds them as typed', async () => {
    const id = await order(true);
    const res = await put(`/api/orders/${id}/ship`, admin, {
      trackingNumbers: [{ number: ' 1z 999 aa1 0123 456 784 ' }, { number: 'lx-123 456' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().trackingNumbers.map((n: { number: string }) => n.number)).toEqual([
      '1Z999AA10123456784',
      'LX-123456',
    ]);
    for (const trackingId of ['1Z 999 AA1 0123 456 784', '1z999aa10123456784', 'LX-123 456']) {
      const tracked = await t.app.inject({
        method: 'POST',
        url: '/api/orders/shipments/tracking',
        payload: { trackingId, destinationCountry: 'United States', language: 'en', zipcode: '62701' },
      });
      expect(tracked.statusCode, trackingId).toBe(200);
      expect(tracked.json()).toEqual([]);
    }
    const mails = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ship-me@example.com'));
    expect(mails.some((m) => m.text.includes('- 1Z999AA10123456784') && m.text.includes('- LX-123456'))).toBe(true);
  });

  it('refuses a tracking number with characters carriers do not print', async () => {
    const id = await order(true);
    for (const [number, message] of [
      ['1Z/999', 'Tracking number may contain only letters, digits and hyphens'],
      ['   ', 'Tracking number is required'],
      ['A1 '.repeat(40), 'Tracking number is too long'],
    ]) {
      const res = await put(`/api/orders/${id}/ship`, admin, { trackingNumbers: [{ number }] });
      expect(res.statusCode, number).toBe(400);
      expect(res.json()).toEqual({ message, code: 'BAD_REQUEST' });
    }
  });

  it('follows the order states', async () => {
    const unpaid = await order(false);
    expect((await put(`/api/orders/${unpaid}/ship`, admin, {})).json()).toEqual({
      message: 'Order is not paid yet',
      code: 'BAD_REQUEST',
    });
    expect((await put(`/api/orders/${unpaid}/deliver`, admin)).json()).toEqual({
      message: 'Order is not shipped yet',
      code: 'BAD_REQUEST',
    });
    const paid = await order(true);
    expect((await put(`/api/orders/${paid}/deliver`, admin)).statusCode).toBe(400);
    expect((await put(`/api/orders/${paid}/ship`, admin)).statusCode).toBe(200);
    expect((await put(`/api/orders/${paid}/ship`, admin, {})).json()).toEqual({
      message: 'Order already shipped',
      code: 'BAD_REQUEST',
    });
    const delivered = await put(`/api/orders/${paid}/deliver`, admin);
    expect(delivered.json()).toMatchObject({ isDelivered: true });
    expect(delivered.json().deliveredAt).toBeTruthy();
    expect((await put(`/api/orders/${paid}/deliver`, admin)).json()).toEqual({
      message: 'Order already delivered',
      code: 'BAD_REQUEST',
    });
    expect((await put(`/api/orders/${'0'.repeat(24)}/ship`, admin, {})).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    const id = await order(true);
    expect((await put(`/api/orders/${id}/ship`, buyer, {})).json()).toEqual({
      message: 'Not authorized as an admin',
      code: 'FORBIDDEN',
    });
    expect((await put(`/api/orders/${id}/deliver`, { headers: {} })).statusCode).toBe(401);
  });
});
