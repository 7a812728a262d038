import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAccessTokens } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, orderBody, placeOrder, usAddress } from '#test/orders-support.ts';

let t: TestContext;
let orderA: string;
let orderB: string;
const caAddress = { ...usAddress, state: 'ON', postalCode: 'K1A 0B1', country: 'Canada' };
const access = (id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${id}/guest-access`, payload });
const read = (id: string, token: string) =>
  t.app.inject({ url: `/api/orders/${id}/guest?accessToken=${encodeURIComponent(token)}` });

describe('guest order access by e-mail and postal code', () => {
  beforeAll(async () => {
    t = await createTestApp();
    const p = await createProduct(t.app.db, { countInStock: 100 });
    const g = await guest(t.app.db);
    orderA = (
      await placeOrder(
        t.app,
        g,
        orderBody([{ product: p.id, qty: 1 }], { email: 'Guest@Example.com', shippingAddress: caAddress }),
      )
    ).json()._id;
    orderB = (await placeOrder(t.app, g, orderBody([{ product: p.id, qty: 1 }], { email: 'other@example.com' }))).json()
      ._id;
  });
  afterAll(async () => t?.close());

  it('turns away a fresh browser without credentials (the page then asks to verify)', async () => {
    expect((await t.app.inject({ url: `/api/orders/${orderA}` })).statusCode).toBe(401);
  });

  it('needs both fields', async () => {
    const res = await access(orderA, { email: 'guest@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter email and postal code');
  });

  it('fails on a wrong postal code, a wrong e-mail or an unknown order, all alike', async () => {
    for (const [id, body] of [
      [orderA, { email: 'guest@example.com', postalCode: 'K1A 0B2' }],
      [orderA, { email: 'someone@example.com', postalCode: 'K1A 0B1' }],
      [orderA, { email: 'other@example.com', postalCode: '62701' }],
      ['0'.repeat(24), { email: 'guest@example.com', postalCode: 'K1A 0B1' }],
    ] as const) {
      const res = await access(id, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Verification failed', code: 'FORBIDDEN' });
    }
  });

  it('grants a token for that order when both match, ignoring case and postal spacing', async () => {
    const res = await access(orderA, { email: ' GUEST@example.COM ', postalCode: 'k1a0b1' });
    expect(res.statusCode).toBe(200);
    const { accessToken } = res.json();
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const order = await read(orderA, accessToken);
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({ _id: orderA, shippingAddress: { postalCode: 'K1A 0B1', country: 'CA' } });
    // only a hash is kept
    const rows = await t.app.db.select().from(orderAccessTokens).where(eq(orderAccessTokens.orderId, orderA));
    expect(rows.some((r) => r.tokenHash === accessToken)).toBe(false);
  });

  it('does not open another order with that token, nor any order with a made-up one', async () => {
    const { accessToken } = (await access(orderA, { email: 'guest@example.com', postalCode: 'K1A 0B1' })).json();
    expect((await read(orderB, accessToken)).statusCode).toBe(403);
    expect((await read(orderA, 'made-up')).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/orders/${orderA}/guest` })).statusCode).toBe(403);
  });

  it('stops working once the token expires', async () => {
    const { accessToken } = (await access(orderB, { email: 'other@example.com', postalCode: '62701' })).json();
    expect((await read(orderB, accessToken)).statusCode).toBe(200);
    await t.app.db
      .update(orderAccessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orderAccessTokens.orderId, orderB));
    const res = await read(orderB, accessToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Access token is invalid or has expired');
  });

  it('lets the verified guest pay the order (test mode) with the token', async () => {
    const { accessToken } = (await access(orderB, { email: 'other@example.com', postalCode: '62701' })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderB}/pay?accessToken=${accessToken}`,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().isPaid).toBe(true);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/orders/${orderA}/pay?accessToken=${accessToken}`, payload: {} }))
        .statusCode,
    ).toBe(401);
  });
});
