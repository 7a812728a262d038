import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, orders, productVariants, products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';
import { expireUnpaidOrders } from './order-expiry.ts';

let t: TestContext;
let admin: Auth;

const productStock = async (id: string) =>
  (await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, id)))[0]!.n;
const variantStock = async (id: string) =>
  (
    await t.app.db.select({ n: productVariants.countInStock }).from(productVariants).where(eq(productVariants.id, id))
  )[0]!.n;
const put = (id: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/products/${id}`, headers: admin.headers, payload });
const get = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).json();

/** A mug sold in red (from the product's 20 units) and in blue and green (their own 3 and 0). */
async function mug(name = `Mug ${Math.random().toString(36).slice(2, 7)}`) {
  return createProduct(t.app.db, {
    name,
    countInStock: 20,
    variants: [
      { name: 'Red' },
      { name: 'Blue', countInStock: 3, sku: `${name.replace(/\W/g, '')}-BLUE` },
      { name: 'Green', countInStock: 0 },
    ],
  });
}

describe('variants with their own stock and SKU', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
  });
  afterAll(async () => t?.close());

  it('answers each variant’s own stock (null: the product’s) and SKU, in lists and on the product page', async () => {
    const p = await mug('Answer Mug');
    const page = await get(p.id);
    expect(
      page.colorsVariants.map((v: { name: string; countInStock: number | null; sku: string }) => [
        v.name,
        v.countInStock,
        v.sku,
      ]),
    ).toEqual([
      ['Red', null, ''],
      ['Blue', 3, 'AnswerMug-BLUE'],
      ['Green', 0, ''],
    ]);
    const list = (await t.app.inject({ method: 'GET', url: '/api/products?name=Answer%20Mug' })).json();
    expect(list.products[0].colorsVariants[1]).toMatchObject({ name: 'Blue', countInStock: 3, sku: 'AnswerMug-BLUE' });
  });

  it('takes a variant’s units from its own stock and leaves the product’s alone; a shared variant takes the product’s', async () => {
    const p = await mug();
    const [red, blue] = p.variantRows;
    const buyer = await signedIn(t.app);
    const res = await placeOrder(
      t.app,
      buyer,
      orderBody([
        { product: p.id, qty: 2, selectedColorsVariants: { _id: blue!.id } },
        { product: p.id, qty: 4, selectedColorsVariants: red!.id },
        { product: p.id, qty: 1 },
      ]),
    );
    expect(res.statusCode).toBe(201);
    expect(await variantStock(blue!.id)).toBe(1);
    expect(await productStock(p.id)).toBe(15); // 20 − 4 (red) − 1 (no variant)
    expect(await variantStock(red!.id)).toBeNull();
    const items = await t.app.db
      .select({ variantId: orderItems.variantId, fromVariant: orderItems.fromVariantStock })
      .from(orderItems)
      .where(eq(orderItems.orderId, res.json()._id));
    expect(items.find((i) => i.variantId === blue!.id)?.fromVariant).toBe(true);
    expect(items.find((i) => i.variantId === red!.id)?.fromVariant).toBe(false);
  });

  it('refuses more than a variant has with a 409 naming the product and the variant, writing nothing', async () => {
    const p = await createProduct(t.app.db, {
      name: 'Short Mug',
      countInStock: 50,
      variants: [{ name: 'Blue', countInStock: 2 }],
    });
    const blue = p.variantRows[0]!;
    const before = await t.app.db.$count(orders);
    const res = await placeOrder(
      t.app,
      await signedIn(t.app),
      orderBody([{ product: p.id, qty: 3, selectedColorsVariants: blue.id }]),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Not enough stock for Short Mug (Blue)', code: 'OUT_OF_STOCK' });
    expect(await variantStock(blue.id)).toBe(2);
    expect(await productStock(p.id)).toBe(50);
    expect(await t.app.db.$count(orders)).toBe(before);
    // a sold-out variant is refused even though the product has units
    const green = await createProduct(t.app.db, {
      name: 'Green Mug',
      countInStock: 9,
      variants: [{ name: 'Green', countInStock: 0 }],
    });
    const refused = await placeOrder(
      t.app,
      await signedIn(t.app),
      orderBody([{ product: green.id, qty: 1, selectedColorsVariants: green.variantRows[0]!.id }]),
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Not enough stock for Green Mug (Green)');
  });

  it('sells a variant’s last units to exactly as many buyers as it has units', async () => {
    const p = await createProduct(t.app.db, {
      name: 'Race Mug',
      countInStock: 100,
      variants: [{ name: 'Blue', countInStock: 4 }],
    });
    const blue = p.variantRows[0]!;
    const buyers = await Promise.all(Array.from({ length: 25 }, () => signedIn(t.app)));
    const results = await Promise.all(
      buyers.map((b) => placeOrder(t.app, b, orderBody([{ product: p.id, qty: 1, selectedColorsVariants: blue.id }]))),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(4);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(21);
    expect(await variantStock(blue.id)).toBe(0);
    expect(await productStock(p.id)).toBe(100);
  });

  it('gives an expired order’s units back to the pool each came from', async () => {
    const p = await mug();
    const [red, blue] = p.variantRows;
    const res = await placeOrder(
      t.app,
      await signedIn(t.app),
      orderBody([
        { product: p.id, qty: 3, selectedColorsVariants: blue!.id },
        { product: p.id, qty: 5, selectedColorsVariants: red!.id },
      ]),
    );
    expect(res.statusCode).toBe(201);
    expect([await variantStock(blue!.id), await productStock(p.id)]).toEqual([0, 15]);
    const { cancelled, products: touched } = await expireUnpaidOrders(t.app.db, 1, new Date(Date.now() + 2 * 60_000));
    expect(cancelled).toBeGreaterThanOrEqual(1);
    expect(touched).toContain(p.id);
    expect([await variantStock(blue!.id), await productStock(p.id)]).toEqual([3, 20]);
    // the product page shows them at once (its cached answer was dropped)
    expect((await get(p.id)).colorsVariants[1].countInStock).toBe(3);
  });

  it('gives nothing back to a pool that no longer exists (the variant now draws on the product)', async () => {
    const p = await mug();
    const blue = p.variantRows[1]!;
    const res = await placeOrder(
      t.app,
      await signedIn(t.app),
      orderBody([{ product: p.id, qty: 2, selectedColorsVariants: blue.id }]),
    );
    expect(res.statusCode).toBe(201);
    await t.app.db.update(productVariants).set({ countInStock: null }).where(eq(productVariants.id, blue.id));
    await expireUnpaidOrders(t.app.db, 1, new Date(Date.now() + 2 * 60_000));
    expect(await variantStock(blue.id)).toBeNull();
    expect(await productStock(p.id)).toBe(20);
  });

  it('lets the admin set each variant’s stock and SKU; left out, an existing variant keeps them', async () => {
    const p = await mug('Edit Mug');
    const page = await get(p.id);
    const [red, blue, green] = page.colorsVariants;
    const res = await put(p.id, {
      colorsVariants: [
        { ...red, countInStock: 7, sku: 'edit-red' },
        { _id: blue._id, name: 'Blue', src: '' }, // an older client: no stock, no SKU
        { ...green, countInStock: '', sku: '' },
        { name: 'Yellow', src: '' }, // a new variant without them draws on the product
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .colorsVariants.map((v: { name: string; countInStock: number | null; sku: string }) => [
          v.name,
          v.countInStock,
          v.sku,
        ]),
    ).toEqual([
      ['Red', 7, 'edit-red'],
      ['Blue', 3, 'EditMug-BLUE'],
      ['Green', null, ''],
      ['Yellow', null, ''],
    ]);
  });

  it('refuses a bad stock or SKU, and a SKU another variant has whatever its case, with a 400 that says so', async () => {
    const p = await mug('Check Mug');
    const other = await mug('Other Mug');
    const [red, blue] = (await get(p.id)).colorsVariants;
    const bad = async (variants: object[]) => {
      const res = await put(p.id, { colorsVariants: variants });
      expect(res.statusCode).toBe(400);
      return res.json();
    };
    expect((await bad([{ ...red, countInStock: -1 }])).message).toBe(
      'Variant stock must be empty (uses the product stock) or a whole number from 0',
    );
    expect((await bad([{ ...red, countInStock: 1.5 }])).message).toMatch(/Variant stock/);
    expect((await bad([{ ...red, sku: 'has space' }])).message).toMatch(/^SKU must be at most 64 characters/);
    expect((await bad([{ ...red, sku: 'x'.repeat(65) }])).message).toMatch(/^SKU must be at most 64/);
    expect(await bad([{ ...red, sku: 'otherMUG-blue' }])).toEqual({
      message: 'SKU OtherMug-BLUE is already used by another product',
      code: 'DUPLICATE',
    });
    expect(
      (
        await bad([
          { ...red, sku: 'TWICE' },
          { ...blue, sku: 'twice' },
        ])
      ).message,
    ).toBe('SKU twice is given to more than one variant');
    // nothing changed
    expect((await get(p.id)).colorsVariants.map((v: { sku: string }) => v.sku)).toEqual(['', 'CheckMug-BLUE', '']);
    // two variants of one product may swap their SKUs
    const swapped = await put(p.id, {
      colorsVariants: [
        { ...red, sku: 'CheckMug-BLUE' },
        { ...blue, sku: 'CheckMug-RED' },
      ],
    });
    expect(swapped.statusCode).toBe(200);
    expect(swapped.json().colorsVariants.map((v: { sku: string }) => v.sku)).toEqual(['CheckMug-BLUE', 'CheckMug-RED']);
    expect(other.id).toBeTruthy();
  });

  it('finds products by the start of a variant SKU in the admin list, whatever its case', async () => {
    await mug('Sku Finder');
    const res = await t.app.inject({ method: 'GET', url: '/api/products?adminCheck=true&sku=skufinder-b' });
    expect(res.statusCode).toBe(200);
    expect(res.json().products.map((p: { name: string }) => p.name)).toEqual(['Sku Finder']);
    const none = await t.app.inject({ method: 'GET', url: '/api/products?sku=no-such-sku_' });
    expect(none.json().total).toBe(0);
  });
});
