import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn } from '#test/orders-support.ts';

let t: TestContext;

describe('a draft product is not for sale', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('cannot be ordered or reviewed by its id, while an active one can be ordered', async () => {
    const buyer = await signedIn(t.app);
    const draft = await createProduct(t.app.db, { status: 'draft', countInStock: 5, priceCents: 1000 });
    const res = await placeOrder(t.app, buyer, orderBody([{ product: draft.id, qty: 1 }]));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Product not found: ${draft.id}`);
    const review = await t.app.inject({
      method: 'POST',
      url: `/api/products/${draft.id}/reviews`,
      headers: buyer.headers,
      payload: { rating: 5, comment: 'Great' },
    });
    expect(review.statusCode).toBe(404);
    const active = await createProduct(t.app.db, { countInStock: 5, priceCents: 1000 });
    expect((await placeOrder(t.app, buyer, orderBody([{ product: active.id, qty: 1 }]))).statusCode).toBe(201);
  });
});
