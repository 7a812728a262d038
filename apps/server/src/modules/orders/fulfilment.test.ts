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
