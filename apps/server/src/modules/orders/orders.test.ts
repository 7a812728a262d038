import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, orderBody, placeOrder, signedIn, usAddress } from '#test/orders-support.ts';

let t: TestContext;
let buyer: Awaited<ReturnType<typeof signedIn>>;

describe('placing an order', () => {
  beforeAll(async () => {
    t = await createTestApp({ SHIPPING_RATES: 'standard:Standard:0,express:Express (2 days):1299' });
    buyer = await signedIn(t.app, { email: 'buyer@example.com', firstName: 'Bea', lastName: 'Buyer' });
  });
  afterAll(async () => t?.close());

  it('prices from the catalogue and ignores the prices, totals and stock the client sends', async () => {
    const p = await createProduct(t.app.db, { name: 'Lamp', priceCents: 2500, countInStock: 10 });
    const res = await placeOrder(t.app, buyer, {
      ...orderBody([{ product: p.id, qty: 2, price: 0.01, countInStock: 999, name: 'Free lamp' } as never]),
      itemsPrice: 0.02,
      taxPrice: 0,
      shippingPrice: 0,
      totalPrice: 0.02,
    });
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order).toMatchObject({
      itemsPrice: 50,
      taxPrice: 7.5,
      shippingPrice: 0,
      totalPrice: 57.5,
      isPaid: false,
      paymentMethod: 'PayPal',
    });
    expect(order.orderItems).toEqual([
      expect.objectContaining({ name: 'Lamp', price: 25, qty: 2, product: p.id, selectedColorsVariants: null }),
    ]);
    expect(order.user).toMatchObject({
      _id: buyer.user.id,
      username: buyer.user.username,
      email: 'buyer@example.com',
      firstName: 'Bea',
    });
    const [row] = await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, p.id));
    expect(row!.n).toBe(8);
  });

  it('charges the variant price when the variant has one, the product price otherwise', async () => {
    const p = await createProduct(t.app.db, {
      name: 'Headphones',
      priceCents: 19999,
      variants: [{ name: 'Black' }, { name: 'Gold', priceCents: 24999, src: '/uploads/x/gold.webp' }],
    });
    const variants = (await t.app.inject({ url: `/api/products/${p.id}` })).json().colorsVariants as {
      _id: string;
      name: string;
    }[];
    const black = variants.find((v) => v.name === 'Black')!;
    const gold = variants.find((v) => v.name === 'Gold')!;
    const res = await placeOrder(
      t.app,
      buyer,
      orderBody([
        { product: p.id, qty: 1, selectedColorsVariants: { ...gold, price: 1 } },
        { product: p.id, qty: 1, selectedColorsVariants: black._id },
      ]),
    );
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order.itemsPrice).toBe(449.98);
    expect(order.taxPrice).toBe(67.5); // 15% of 449.98 = 67.497 → 67.50
    expect(order.totalPrice).toBe(517.48);
    const goldLine = order.orderItems.find(
      (i: { selectedColorsVariants: { name: string } | null }) => i.selectedColorsVariants?.name === 'Gold',
    );
    expect(goldLine).toMatchObject({
      price: 249.99,
      image: '/uploads/x/gold.webp',
      selectedColorsVariants: { _id: gold._id, name: 'Gold', price: 249.99 },
    });
  });

  it('rounds tax half up to the cent and adds the chosen shipping rate', async () => {
    const p = await createProduct(t.app.db, { priceCents: 333, countInStock: 50 });
    const res = await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 3 }], { shippingRateId: 'express' }));
    expect(res.json()).toMatchObject({
      itemsPrice: 9.99,
      taxPrice: 1.5,
      shippingPrice: 12.99,
      totalPrice: 24.48,
      shippingRateId: 'express',
    });
    const unknown = await placeOrder(
      t.app,
      buyer,
      orderBody([{ product: p.id, qty: 1 }], { shippingRateId: 'teleport' }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown shipping rate');
  });

  it('refuses empty orders, bad quantities, unknown products and variants with a message', async () => {
    const p = await createProduct(t.app.db, { name: 'Mug', countInStock: 3, variants: [{ name: 'Blue' }] });
    const cases: [unknown, number, string | RegExp][] = [
      [orderBody([]), 400, 'No order items'],
      [{ shippingAddress: usAddress }, 400, 'No order items'],
      [orderBody([{ product: p.id, qty: 0 }]), 400, 'Quantity must be at least 1'],
      [orderBody([{ product: p.id, qty: 1.5 }]), 400, 'Quantity must be a whole number'],
      [orderBody([{ product: 'f'.repeat(24), qty: 1 }]), 400, `Product not found: ${'f'.repeat(24)}`],
      [orderBody([{ product: 'nope', qty: 1 }]), 400, 'Product not found: nope'],
      [
        orderBody([{ product: p.id, qty: 1, selectedColorsVariants: 'a'.repeat(24) }]),
        400,
        'Selected variant not found for Mug',
      ],
      [orderBody([{ product: p.id, qty: 4 }]), 409, 'Not enough stock for Mug'],
      [orderBody([{ product: p.id, qty: 1 }], { paymentMethod: 'Cash' }), 400, 'Payment method must be PayPal'],
      [{ orderItems: [{ product: p.id, qty: 1 }] }, 400, 'Shipping address is required'],
      [
        orderBody([{ product: p.id, qty: 1 }], { shippingAddress: { ...usAddress, postalCode: '1234' } }),
        400,
        'US ZIP: 12345 or 12345-6789',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await placeOrder(t.app, buyer, body);
      expect({ status: res.statusCode, message: res.json().message }).toEqual({ status, message });
    }
    const [row] = await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, p.id));
    expect(row!.n).toBe(3);
  });

  it('takes nothing when one line of several is short of stock', async () => {
    const a = await createProduct(t.app.db, { name: 'Plenty', countInStock: 10 });
    const b = await createProduct(t.app.db, { name: 'Scarce', countInStock: 1 });
    const res = await placeOrder(
      t.app,
      buyer,
      orderBody([
        { product: a.id, qty: 2 },
        { product: b.id, qty: 2 },
      ]),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Not enough stock for Scarce', code: 'OUT_OF_STOCK' });
    const rows = await t.app.db
      .select({ id: products.id, n: products.countInStock })
      .from(products)
      .where(sql`${products.id} in (${a.id}, ${b.id})`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.n]))).toEqual({ [a.id]: 10, [b.id]: 1 });
  });

  it('counts two lines of one product (different variants) against its one stock', async () => {
    const p = await createProduct(t.app.db, {
      name: 'Socks',
      countInStock: 3,
      variants: [{ name: 'Red' }, { name: 'Green' }],
    });
    const [red, green] = (await t.app.inject({ url: `/api/products/${p.id}` })).json().colorsVariants;
    const res = await placeOrder(
      t.app,
      buyer,
      orderBody([
        { product: p.id, qty: 2, selectedColorsVariants: red },
        { product: p.id, qty: 2, selectedColorsVariants: green },
      ]),
    );
    expect(res.statusCode).toBe(409);
  });

  it('normalises the shipping address and snapshots the buyer', async () => {
    const p = await createProduct(t.app.db);
    const res = await placeOrder(
      t.app,
      buyer,
      orderBody([{ product: p.id, qty: 1 }], {
        shippingAddress: {
          ...usAddress,
          state: 'new york',
          postalCode: '100011234',
          country: 'United States',
          address1: ' 5 <b>Fifth</b> Ave ',
        },
      }),
    );
    expect(res.json().shippingAddress).toEqual({
      ...usAddress,
      address1: '5 bFifth/b Ave',
      state: 'NY',
      postalCode: '10001-1234',
      country: 'US',
    });
  });

  it('queues an order confirmation e-mail with a link to the order', async () => {
    const p = await createProduct(t.app.db);
    const order = (await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]))).json();
    const mails = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'buyer@example.com'));
    expect(mails.some((m) => m.text.includes(`${t.config.publicUrl}/order/${order._id}`))).toBe(true);
  });

  it('lets a guest order with the cookie alone, but only with an e-mail', async () => {
    const p = await createProduct(t.app.db);
    const g = await guest(t.app.db);
    const without = await placeOrder(t.app, g, orderBody([{ product: p.id, qty: 1 }]));
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe('Please enter your email to check out as a guest');
    const res = await placeOrder(t.app, g, orderBody([{ product: p.id, qty: 1 }], { email: ' Guest@Example.COM ' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ email: 'guest@example.com', isGuest: true });
    const saved = await guest(t.app.db, 'saved@example.com');
    expect((await placeOrder(t.app, saved, orderBody([{ product: p.id, qty: 1 }]))).json().user.email).toBe(
      'saved@example.com',
    );
  });

  it('needs a signed-in user or a guest', async () => {
    const res = await placeOrder(t.app, { headers: {} }, orderBody([{ product: 'a'.repeat(24), qty: 1 }]));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Not authorized, no token');
  });
});
