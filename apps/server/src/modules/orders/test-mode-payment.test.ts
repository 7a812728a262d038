import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn } from '#test/orders-support.ts';

let t: TestContext;

describe('test-mode payments (no PayPal credentials)', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('says so to the browser', async () => {
    expect((await t.app.inject({ url: '/api/config/paypal' })).json()).toEqual({ clientId: '', testMode: true });
  });

  it('pays with a clearly labelled TEST- payment', async () => {
    const buyer = await signedIn(t.app);
    const p = await createProduct(t.app.db);
    const order = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/pay`,
      headers: buyer.headers,
      payload: { orderId: order._id, paymentResult: { id: 'anything', email: 'me@example.com' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isPaid: true,
      isTestPayment: true,
      paymentResult: { status: 'COMPLETED', email_address: 'me@example.com' },
    });
    expect(res.json().paymentResult.id).toMatch(/^TEST-[0-9A-F]{16}$/);
  });

  it('pays an order once when several payments race', async () => {
    const buyer = await signedIn(t.app);
    const p = await createProduct(t.app.db);
    const order = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({ method: 'PUT', url: `/api/orders/${order._id}/pay`, headers: buyer.headers, payload: {} }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('is refused in production', async () => {
    const prod = await createTestApp({}, { isProduction: true });
    try {
      expect((await prod.app.inject({ url: '/api/config/paypal' })).json()).toEqual({ clientId: '', testMode: false });
      const buyer = await signedIn(prod.app);
      const p = await createProduct(prod.app.db);
      const order = (await placeOrder(prod.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
      const res = await prod.app.inject({
        method: 'PUT',
        url: `/api/orders/${order._id}/pay`,
        headers: buyer.headers,
        payload: { paymentResult: { id: 'TEST-1' } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Payments are not configured');
      expect((await prod.app.inject({ url: `/api/orders/${order._id}`, headers: buyer.headers })).json().isPaid).toBe(
        false,
      );
    } finally {
      await prod.close();
    }
  });
});
