import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, orders, products, reviews } from '#server/db/schema/index.ts';
import { createAccount } from '#test/accounts.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, usAddress } from '#test/orders-support.ts';

let t: TestContext;
const review = (productId: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/products/${productId}/reviews`, headers, payload: payload as object });
const product = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).json();

describe('product reviews', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('refuses visitors and guests', async () => {
    const p = await createProduct(t.database.db);
    const anon = await review(p.id, {}, { rating: 5, comment: 'x' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().message).toBe('Not authorized, no token');
    const g = await guest(t.database.db, 'g@example.com');
    const asGuest = await review(p.id, g.headers, { rating: 5, comment: 'x' });
    expect(asGuest.statusCode).toBe(401);
  });

  it('checks the rating range and the product', async () => {
    const p = await createProduct(t.database.db);
    const { headers } = await createAccount(t);
    for (const rating of [0, 6, 2.5, 'abc', null]) {
      const res = await review(p.id, headers, { rating, comment: 'ok' });
      expect(res.statusCode, String(rating)).toBe(400);
      expect(res.json().message).toBe('Please select a rating');
    }
    expect((await review('0'.repeat(24), headers, { rating: 3 })).statusCode).toBe(404);
    expect((await review('not-an-id', headers, { rating: 3 })).statusCode).toBe(400);
  });

  it('stores a cleaned comment under the user name, once per product, and recomputes the rating', async () => {
    const p = await createProduct(t.database.db);
    const a = await createAccount(t, { firstName: 'Ada', lastName: 'Lovelace' });
    const b = await createAccount(t);
    const res = await review(p.id, a.headers, {
      rating: 5,
      comment: '  Great\u200b <b>sound</b>\u0007  \n\n\n\nworks  ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().review).toMatchObject({ name: 'Ada Lovelace', rating: 5, comment: 'Great bsound/b\n\nworks' });
    expect(res.json().review.verifiedPurchase).toBe(false);
    const again = await review(p.id, a.headers, { rating: 1, comment: 'changed my mind' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Product already reviewed');
    expect((await review(p.id, b.headers, { rating: 2, comment: '' })).statusCode).toBe(201);
    const shown = await product(p.id);
    expect(shown.numReviews).toBe(2);
    expect(shown.rating).toBe(3.5);
    expect(shown.reviews.map((r: { name: string }) => r.name)).toContain('Ada Lovelace');
  });

  it('cuts long comments at the limit', async () => {
    const p = await createProduct(t.database.db);
    const { headers } = await createAccount(t);
    const res = await review(p.id, headers, { rating: 4, comment: 'a'.repeat(2500) });
    expect(res.statusCode).toBe(201);
    expect(res.json().review.comment).toHaveLength(2000);
    expect((await review(p.id, headers, { rating: 4, comment: 'a'.repeat(5000) })).statusCode).toBe(400);
  });

  it('keeps rating and count right under concurrent reviews', async () => {
    const p = await createProduct(t.database.db);
    const accounts = await Promise.all(Array.from({ length: 10 }, () => createAccount(t)));
    const ratings = [1, 2, 3, 4, 5, 5, 4, 3, 5, 5];
    const answers = await Promise.all(
      accounts.map((a, i) => review(p.id, a.headers, { rating: ratings[i], comment: `r${i}` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const [row] = await t.database.db.select().from(products).where(eq(products.id, p.id));
    expect(row!.numReviews).toBe(10);
    expect(row!.rating).toBe(3.7);
    const count = await t.database.db.select().from(reviews).where(eq(reviews.productId, p.id));
    expect(count).toHaveLength(10);
  });

  it('marks reviews by buyers with a paid order as verified purchases', async () => {
    const db = t.database.db;
    const p = await createProduct(db);
    const buyer = await createAccount(t);
    const unpaid = await createAccount(t);
    for (const [user, isPaid] of [
      [buyer.user, true],
      [unpaid.user, false],
    ] as const) {
      const [order] = await db
        .insert(orders)
        .values({
          userId: user.id,
          email: user.email!,
          shippingAddress: usAddress,
          itemsCents: 1000,
          taxCents: 150,
          shippingCents: 0,
          totalCents: 1150,
          isPaid,
          paidAt: isPaid ? new Date() : null,
        })
        .returning();
      await db.insert(orderItems).values({ orderId: order!.id, productId: p.id, name: 'x', priceCents: 1000, qty: 1 });
    }
    const verified = await review(p.id, buyer.headers, { rating: 5, comment: 'bought it' });
    expect(verified.json().review.verifiedPurchase).toBe(true);
    const notVerified = await review(p.id, unpaid.headers, { rating: 4, comment: 'not paid' });
    expect(notVerified.json().review.verifiedPurchase).toBe(false);
    const shown = await product(p.id);
    const byComment = Object.fromEntries(
      shown.reviews.map((r: { comment: string; verifiedPurchase: boolean }) => [r.comment, r.verifiedPurchase]),
    );
    expect(byComment).toEqual({ 'bought it': true, 'not paid': false });
  });
});
