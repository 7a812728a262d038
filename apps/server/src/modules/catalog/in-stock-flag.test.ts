import { PRODUCT_CSV_COLUMNS } from '@store/shared';
import { stringify } from 'csv-stringify/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productVariants, products } from '#server/db/schema/index.ts';
import { ordersRepository } from '#server/modules/orders/orders.repository.ts';
import { expireUnpaidOrders } from '#server/modules/orders/order-expiry.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { multipart } from '#test/multipart.ts';
import { orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';
import { testDbKind } from '#test/test-db.ts';

let t: TestContext;
let admin: Auth;

/** The flag as stored, and the rule worked out afresh from the product's and its variants' stock. */
async function flags(id: string) {
  const result = await t.app.db.execute<{ stored: boolean; rule: boolean }>(sql`
    select p.in_stock as stored,
      case when exists (select 1 from product_variants v where v.product_id = p.id)
        then exists (select 1 from product_variants v where v.product_id = p.id and coalesce(v.count_in_stock, p.count_in_stock) > 0)
        else p.count_in_stock > 0 end as rule
    from products p where p.id = ${id}`);
  return result.rows[0]!;
}

/** The stored flag, after checking it is the rule's. */
async function inStock(id: string): Promise<boolean> {
  const { stored, rule } = await flags(id);
  expect(stored).toBe(rule);
  return stored;
}

/** Whether the shopper's "in stock" list has the product (it filters on the flag). */
async function listedInStock(name: string, id: string): Promise<boolean> {
  const res = await t.app.inject({ url: `/api/products?inStock=true&name=${encodeURIComponent(name)}&pageSize=50` });
  expect(res.statusCode).toBe(200);
  return (res.json().products as { _id: string }[]).some((p) => p._id === id);
}

const put = (id: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/products/${id}`, headers: admin.headers, payload });
const variantsOf = async (id: string) =>
  (await t.app.inject({ url: `/api/products/${id}` })).json().colorsVariants as {
    _id: string;
    name: string;
    src: string;
    countInStock: number | null;
  }[];
const unique = (name: string) => `${name} ${Math.random().toString(36).slice(2, 8)}`;

describe('the in-stock flag the database keeps on each product', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
  });
  afterAll(async () => t?.close());

  it('starts from the stock a product is created with, with or without variants', async () => {
    const plain = await createProduct(t.app.db, { name: unique('Plain'), countInStock: 2 });
    const none = await createProduct(t.app.db, { name: unique('None'), countInStock: 0 });
    // its own stock is 5, but every variant keeps a count of its own, all 0: nothing can be bought
    const ownOnly = await createProduct(t.app.db, {
      name: unique('Own Only'),
      countInStock: 5,
      variants: [{ name: 'A', countInStock: 0 }],
    });
    // no stock of its own, but a variant with units
    const variantOnly = await createProduct(t.app.db, {
      name: unique('Variant Only'),
      countInStock: 0,
      variants: [{ name: 'A' }, { name: 'B', countInStock: 1 }],
    });
    expect(await inStock(plain.id)).toBe(true);
    expect(await inStock(none.id)).toBe(false);
    expect(await inStock(ownOnly.id)).toBe(false);
    expect(await inStock(variantOnly.id)).toBe(true);
    expect(await listedInStock(plain.name, plain.id)).toBe(true);
    expect(await listedInStock(ownOnly.name, ownOnly.id)).toBe(false);
    expect(await listedInStock(variantOnly.name, variantOnly.id)).toBe(true);
  });

  it('turns false when an order takes the last unit, and true again when the order expires unpaid', async () => {
    const p = await createProduct(t.app.db, { name: unique('Last One'), countInStock: 1 });
    const res = await placeOrder(t.app, await signedIn(t.app), orderBody([{ product: p.id, qty: 1 }]));
    expect(res.statusCode).toBe(201);
    expect(await inStock(p.id)).toBe(false);
    expect(await listedInStock(p.name, p.id)).toBe(false);
    await expireUnpaidOrders(t.app.db, 1, new Date(Date.now() + 2 * 60_000));
    expect(await inStock(p.id)).toBe(true);
  });

  it('follows a variant’s own stock: its last unit sold, then given back when the buyer cancels', async () => {
    const p = await createProduct(t.app.db, {
      name: unique('Mug'),
      countInStock: 0,
      variants: [{ name: 'Shared' }, { name: 'Blue', countInStock: 1 }],
    });
    const blue = p.variantRows[1]!;
    const buyer = await signedIn(t.app);
    const res = await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1, selectedColorsVariants: blue.id }]));
    expect(res.statusCode).toBe(201);
    expect(await inStock(p.id)).toBe(false);
    const cancelled = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${res.json()._id}/cancel`,
      headers: buyer.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(true);
  });

  it('turns true when a refund puts units back (the restock of a refund)', async () => {
    const p = await createProduct(t.app.db, {
      name: unique('Refunded'),
      countInStock: 0,
      variants: [{ name: 'Own', countInStock: 0 }],
    });
    const own = p.variantRows[0]!;
    expect(await inStock(p.id)).toBe(false);
    await t.app.db.transaction((tx) =>
      ordersRepository.returnUnits(tx, [{ productId: p.id, variantId: own.id, qty: 2, fromVariant: true }]),
    );
    expect(await inStock(p.id)).toBe(true);
    // units given back to the product's own stock: its variant keeps a count of its own, still 2
    const q = await createProduct(t.app.db, { name: unique('Refunded Plain'), countInStock: 0 });
    await t.app.db.transaction((tx) =>
      ordersRepository.returnUnits(tx, [{ productId: q.id, variantId: null, qty: 1, fromVariant: false }]),
    );
    expect(await inStock(q.id)).toBe(true);
  });

  it('follows the admin’s edits of the stock, of a variant’s stock, and variants added or removed', async () => {
    const p = await createProduct(t.app.db, { name: unique('Edited'), countInStock: 0 });
    expect(await inStock(p.id)).toBe(false);
    expect((await put(p.id, { countInStock: 4 })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(true);
    // a variant with its own count of 0: the product's 4 no longer count
    expect((await put(p.id, { colorsVariants: [{ name: 'Red', src: '', countInStock: 0 }] })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(false);
    const [red] = await variantsOf(p.id);
    expect((await put(p.id, { colorsVariants: [{ ...red!, countInStock: 2 }] })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(true);
    expect((await put(p.id, { colorsVariants: [{ ...red!, countInStock: 0 }] })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(false);
    // a variant drawing on the product's 4 is added
    expect(
      (
        await put(p.id, {
          colorsVariants: [
            { ...red!, countInStock: 0 },
            { name: 'Any', src: '' },
          ],
        })
      ).statusCode,
    ).toBe(200);
    expect(await inStock(p.id)).toBe(true);
    // and removed again
    expect((await put(p.id, { colorsVariants: [{ ...red!, countInStock: 0 }] })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(false);
    // every variant removed: the product's own 4 count again
    expect((await put(p.id, { colorsVariants: [] })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(true);
    expect((await put(p.id, { countInStock: 0 })).statusCode).toBe(200);
    expect(await inStock(p.id)).toBe(false);
  });

  it('is put right when written by hand, and by any write of the stock whoever makes it', async () => {
    const p = await createProduct(t.app.db, { name: unique('By Hand'), countInStock: 3 });
    await t.app.db.update(products).set({ inStock: false }).where(eq(products.id, p.id));
    expect(await inStock(p.id)).toBe(true);
    await t.app.db.update(products).set({ countInStock: 0 }).where(eq(products.id, p.id));
    expect(await inStock(p.id)).toBe(false);
    const [v] = await t.app.db
      .insert(productVariants)
      .values({ productId: p.id, name: 'Own', countInStock: 1 })
      .returning();
    expect(await inStock(p.id)).toBe(true);
    // a variant moved to another product changes both
    const other = await createProduct(t.app.db, { name: unique('Other'), countInStock: 0 });
    await t.app.db.update(productVariants).set({ productId: other.id }).where(eq(productVariants.id, v!.id));
    expect(await inStock(p.id)).toBe(false);
    expect(await inStock(other.id)).toBe(true);
    await t.app.db.delete(productVariants).where(eq(productVariants.id, v!.id));
    expect(await inStock(other.id)).toBe(false);
  });

  it('follows a CSV import that creates products and changes stock and variants', async () => {
    const slug = `csv-flag-${Math.random().toString(36).slice(2, 8)}`;
    const row = (o: Record<string, string>) => ({
      slug,
      name: 'Csv Flag',
      price: '12.5',
      countInStock: '0',
      variants: '[]',
      ...o,
    });
    const importRows = async (r: Record<string, string>) => {
      const csv = stringify([
        [...PRODUCT_CSV_COLUMNS],
        PRODUCT_CSV_COLUMNS.map((c) => (r as Record<string, string | undefined>)[c] ?? ''),
      ]);
      const body = multipart([{ field: 'file', filename: 'products.csv', contentType: 'text/csv', data: csv }]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/products/import',
        headers: { ...admin.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(200);
    };
    await importRows(row({}));
    const [created] = await t.app.db.select({ id: products.id }).from(products).where(eq(products.slug, slug));
    expect(await inStock(created!.id)).toBe(false);
    await importRows(row({ countInStock: '6' }));
    expect(await inStock(created!.id)).toBe(true);
    await importRows(row({ countInStock: '6', variants: JSON.stringify([{ name: 'Own', countInStock: 0 }]) }));
    expect(await inStock(created!.id)).toBe(false);
    await importRows(row({ countInStock: '6', variants: JSON.stringify([{ name: 'Own', countInStock: 3 }]) }));
    expect(await inStock(created!.id)).toBe(true);
    await importRows(row({ countInStock: '0', variants: '[]' }));
    expect(await inStock(created!.id)).toBe(false);
  });

  // concurrent transactions need several connections (PGlite has one)
  if (testDbKind() === 'postgres')
    it('stays right when many buyers race for the last units of a product and of its variants', async () => {
      // 10 buyers want the plain product alone, 10 it and the mixed one's own-stock variant, 10 the mixed
      // one's shared variant and it (the two products locked in either order): 2 + 2 of the mixed orders
      // fit, and with them the plain product's 14 units are exactly sold
      const plain = await createProduct(t.app.db, { name: unique('Race Plain'), countInStock: 14 });
      const mixed = await createProduct(t.app.db, {
        name: unique('Race Mixed'),
        countInStock: 2,
        variants: [{ name: 'Shared' }, { name: 'Own', countInStock: 2 }],
      });
      const [shared, own] = mixed.variantRows;
      const buyers = await Promise.all(Array.from({ length: 30 }, () => signedIn(t.app)));
      const results = await Promise.all(
        buyers.map((b, i) =>
          placeOrder(
            t.app,
            b,
            orderBody(
              i % 3 === 0
                ? [{ product: plain.id, qty: 1 }]
                : i % 3 === 1
                  ? [
                      { product: mixed.id, qty: 1, selectedColorsVariants: own!.id },
                      { product: plain.id, qty: 1 },
                    ]
                  : [
                      { product: plain.id, qty: 1 },
                      { product: mixed.id, qty: 1, selectedColorsVariants: shared!.id },
                    ],
            ),
          ),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      // no deadlock nor other failure: each order is placed or refused for stock
      expect(codes.filter((c) => c !== 201 && c !== 409)).toEqual([]);
      expect(codes.filter((c) => c === 201)).toHaveLength(14);
      const stock = await t.app.db
        .select({ id: products.id, n: products.countInStock })
        .from(products)
        .where(sql`${products.id} in (${plain.id}, ${mixed.id})`);
      expect(Object.fromEntries(stock.map((r) => [r.id, r.n]))).toEqual({ [plain.id]: 0, [mixed.id]: 0 });
      expect(await inStock(plain.id)).toBe(false);
      expect(await inStock(mixed.id)).toBe(false);
    });
});
