import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponUses, coupons, mailOutbox, orders, products } from '#server/db/schema/index.ts';
import { createCoupon, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';
import { expireUnpaidOrders } from '../orders/order-expiry.ts';

let t: TestContext;
let product: { id: string };
const DAY = 86_400_000;

const apply = (payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/coupons/apply', headers, payload });
const items = (qty = 2, id = product.id) => [{ product: id, qty }];
const timesUsed = async (id: string) =>
  (await t.app.db.select({ n: coupons.timesUsed }).from(coupons).where(eq(coupons.id, id)))[0]!.n;
const stock = async (id: string) =>
  (await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, id)))[0]!.n;

describe('discount codes at checkout', () => {
  beforeAll(async () => {
    // a paid shipping rate, so that free shipping has something to take
    t = await createTestApp({ SHIPPING_RATES: 'standard:Standard:500,express:Express:1299' });
    product = await createProduct(t.app.db, { name: 'Lamp', priceCents: 1999, countInStock: 1000 });
  });
  afterAll(async () => t?.close());

  it('prices the items with each kind of code, as an order would, whatever the case typed', async () => {
    await createCoupon(t.app.db, { code: 'TENOFF', type: 'percent', value: 1000 });
    const pct = await apply({ code: ' tenoff ', orderItems: items(2) });
    expect(pct.statusCode).toBe(200);
    // items 39.98; 10% = 3.998 → 4.00; tax 15% of 35.98 = 5.397 → 5.40; shipping 5.00 (the first rate)
    expect(pct.json()).toEqual({
      code: 'TENOFF',
      type: 'percent',
      itemsPrice: 39.98,
      discountPrice: 4,
      taxPrice: 5.4,
      shippingPrice: 5,
      totalPrice: 46.38,
    });

    await createCoupon(t.app.db, { code: 'FIVE-BUCKS', type: 'fixed', value: 500 });
    expect((await apply({ code: 'FIVE-BUCKS', orderItems: items(1), shippingRateId: 'express' })).json()).toEqual({
      code: 'FIVE-BUCKS',
      type: 'fixed',
      itemsPrice: 19.99,
      discountPrice: 5,
      taxPrice: 2.25, // 15% of 14.99 = 2.2485
      shippingPrice: 12.99,
      totalPrice: 30.23,
    });

    await createCoupon(t.app.db, { code: 'SHIPFREE', type: 'free_shipping', value: 0 });
    expect((await apply({ code: 'shipfree', orderItems: items(1), shippingRateId: 'express' })).json()).toEqual({
      code: 'SHIPFREE',
      type: 'free_shipping',
      itemsPrice: 19.99,
      discountPrice: 0,
      taxPrice: 3,
      shippingPrice: 0,
      totalPrice: 22.99,
    });

    // a fixed amount larger than the items takes the items, never more: no tax, shipping still due
    await createCoupon(t.app.db, { code: 'BIGGER', type: 'fixed', value: 100_000 });
    expect((await apply({ code: 'BIGGER', orderItems: items(1) })).json()).toMatchObject({
      discountPrice: 19.99,
      taxPrice: 0,
      shippingPrice: 5,
      totalPrice: 5,
    });
    // 100% off
    await createCoupon(t.app.db, { code: 'ALLOFF', type: 'percent', value: 10_000 });
    expect((await apply({ code: 'ALLOFF', orderItems: items(3) })).json()).toMatchObject({
      discountPrice: 59.97,
      taxPrice: 0,
      totalPrice: 5,
    });
  });

  it('says why a code does not apply, with a 400', async () => {
    const now = Date.now();
    await createCoupon(t.app.db, { code: 'SLEEPY', isActive: false });
    await createCoupon(t.app.db, { code: 'LATER', startsAt: new Date(now + DAY) });
    await createCoupon(t.app.db, { code: 'GONE', endsAt: new Date(now - DAY) });
    await createCoupon(t.app.db, { code: 'ALLUSED', usageLimit: 3, timesUsed: 3 });
    await createCoupon(t.app.db, { code: 'BIGSPEND', minItemsCents: 4000 });
    const why = async (code: string, qty = 2) => {
      const res = await apply({ code, orderItems: items(qty) });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('COUPON_NOT_APPLICABLE');
      return res.json().message;
    };
    expect(await why('NOPE-NOT-A-CODE')).toBe('This discount code does not exist');
    expect(await why('no spaces allowed')).toBe('This discount code does not exist');
    expect(await why('SLEEPY')).toBe('This discount code is not active');
    expect(await why('LATER')).toBe('This discount code is not valid yet');
    expect(await why('GONE')).toBe('This discount code has expired');
    expect(await why('ALLUSED')).toBe('This discount code has been used up');
    expect(await why('BIGSPEND')).toBe('This discount code needs items worth at least $40.00'); // 39.98
    // the minimum exactly met applies
    await createCoupon(t.app.db, { code: 'EXACTLY', minItemsCents: 3998 });
    expect((await apply({ code: 'EXACTLY', orderItems: items(2) })).statusCode).toBe(200);
    // an unknown product is the same 400 an order gets
    const unknown = await apply({ code: 'EXACTLY', orderItems: [{ product: 'f'.repeat(24), qty: 1 }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/Product not found/);
  });

  it('places an order with a code: priced on the server, the code and discount in the answer, the mail and the list', async () => {
    const c = await createCoupon(t.app.db, { code: 'ORDER15', type: 'percent', value: 1500, usageLimit: 10 });
    const buyer = await signedIn(t.app);
    const res = await placeOrder(
      t.app,
      buyer,
      orderBody(items(2), { couponCode: 'order15', itemsPrice: 1, totalPrice: 1 }),
    );
    expect(res.statusCode).toBe(201);
    // items 39.98; 15% = 5.997 → 6.00; tax 15% of 33.98 = 5.097 → 5.10; shipping 5
    expect(res.json()).toMatchObject({
      couponCode: 'ORDER15',
      itemsPrice: 39.98,
      discountPrice: 6,
      taxPrice: 5.1,
      shippingPrice: 5,
      totalPrice: 44.08,
    });
    expect(await timesUsed(c.id)).toBe(1);
    const id = res.json()._id;
    const read = await t.app.inject({ method: 'GET', url: `/api/orders/${id}`, headers: buyer.headers });
    expect(read.json()).toMatchObject({ couponCode: 'ORDER15', discountPrice: 6, totalPrice: 44.08 });
    const mine = await t.app.inject({ method: 'GET', url: '/api/orders/myorders', headers: buyer.headers });
    expect(mine.json()[0].totalPrice).toBe(44.08);
    const [mail] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, buyer.user.email!));
    expect(mail!.text).toContain('Discount code ORDER15: -$6.00');
    expect(mail!.text).toContain('$44.08');
    // without a code: no discount
    const plain = await placeOrder(t.app, buyer, orderBody(items(1), { couponCode: '' }));
    expect(plain.json()).toMatchObject({ couponCode: null, discountPrice: 0, totalPrice: 27.99 });
  });

  it('refuses an order whose code does not apply with a 400, taking no stock and writing no order', async () => {
    await createCoupon(t.app.db, { code: 'EXPIRED-X', endsAt: new Date(Date.now() - 1000) });
    const before = [await t.app.db.$count(orders), await stock(product.id)];
    const res = await placeOrder(t.app, await signedIn(t.app), orderBody(items(1), { couponCode: 'EXPIRED-X' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'This discount code has expired', code: 'COUPON_NOT_APPLICABLE' });
    expect([await t.app.db.$count(orders), await stock(product.id)]).toEqual(before);
  });

  it('limits uses per e-mail address, guests included, whatever the address’s case', async () => {
    const c = await createCoupon(t.app.db, { code: 'ONCE-EACH', perCustomerLimit: 1 });
    const first = await guest(t.app.db, 'Repeat.Buyer@example.com');
    expect((await placeOrder(t.app, first, orderBody(items(1), { couponCode: 'ONCE-EACH' }))).statusCode).toBe(201);
    // the same person in a new guest session
    const again = await guest(t.app.db, 'repeat.buyer@example.com');
    const res = await placeOrder(t.app, again, orderBody(items(1), { couponCode: 'ONCE-EACH' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You have already used this discount code as many times as it allows');
    // apply says so too, for that address
    const said = await apply({ code: 'ONCE-EACH', orderItems: items(1), email: 'REPEAT.buyer@example.com' });
    expect(said.statusCode).toBe(400);
    // somebody else may
    const other = await guest(t.app.db, 'someone.else@example.com');
    expect((await placeOrder(t.app, other, orderBody(items(1), { couponCode: 'ONCE-EACH' }))).statusCode).toBe(201);
    expect(await timesUsed(c.id)).toBe(2);
  });

  it('gives an expired order’s use of its code back, in all and for its e-mail address', async () => {
    const c = await createCoupon(t.app.db, { code: 'COMEBACK', usageLimit: 1, perCustomerLimit: 1 });
    const buyer: Auth = await guest(t.app.db, 'comeback@example.com');
    const placed = await placeOrder(t.app, buyer, orderBody(items(1), { couponCode: 'COMEBACK' }));
    expect(placed.statusCode).toBe(201);
    expect(await timesUsed(c.id)).toBe(1);
    const usedUp = await apply({ code: 'COMEBACK', orderItems: items(1) });
    expect(usedUp.json().message).toBe('This discount code has been used up');
    await expireUnpaidOrders(t.app.db, 1, new Date(Date.now() + 2 * 60_000));
    expect(await timesUsed(c.id)).toBe(0);
    const [use] = await t.app.db
      .select()
      .from(couponUses)
      .where(and(eq(couponUses.couponId, c.id), eq(couponUses.email, 'comeback@example.com')));
    expect(use!.uses).toBe(0);
    // the same buyer may use it again
    expect((await placeOrder(t.app, buyer, orderBody(items(1), { couponCode: 'COMEBACK' }))).statusCode).toBe(201);
  });

  it('a code deleted after it was read fails the order cleanly; orders keep the code they used', async () => {
    const c = await createCoupon(t.app.db, { code: 'SHORTLIVED' });
    const buyer = await signedIn(t.app);
    const res = await placeOrder(t.app, buyer, orderBody(items(1), { couponCode: 'SHORTLIVED' }));
    expect(res.statusCode).toBe(201);
    await t.app.db.delete(coupons).where(eq(coupons.id, c.id));
    const read = await t.app.inject({ method: 'GET', url: `/api/orders/${res.json()._id}`, headers: buyer.headers });
    expect(read.json()).toMatchObject({ couponCode: 'SHORTLIVED', discountPrice: 2 });
    const again = await placeOrder(t.app, buyer, orderBody(items(1), { couponCode: 'SHORTLIVED' }));
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This discount code does not exist');
  });

  it('carries a code limited to N uses on exactly N of many orders racing for it; the rest get 409', async () => {
    const c = await createCoupon(t.app.db, { code: 'RACE-FIVE', usageLimit: 5 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => signedIn(t.app)));
    const results = await Promise.all(
      buyers.map((b) => placeOrder(t.app, b, orderBody(items(1), { couponCode: 'RACE-FIVE' }))),
    );
    const ok = results.filter((r) => r.statusCode === 201);
    expect(ok).toHaveLength(5);
    // refused before placing (400: the read saw it used up) or in the statement (409: lost the race)
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expect([400, 409]).toContain(r.statusCode);
      expect(r.json().message).toBe('This discount code has been used up');
    }
    expect(await timesUsed(c.id)).toBe(5);
    expect(await t.app.db.$count(orders, eq(orders.couponId, c.id))).toBe(5);
  });
});
