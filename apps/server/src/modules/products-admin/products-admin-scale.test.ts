import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminProductListQuerySchema } from '@store/shared';
import { createAccount } from '#test/accounts.ts';
import { AdminListTotals, listAdminProducts } from './products-admin-list.service.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { testDbKind } from '#test/test-db.ts';
import {
  fewMatches,
  productsAdminListRepository as repo,
  type AdminProductFilter,
} from './products-admin-list.repository.ts';

let t: TestContext;
let admin: { headers: Record<string, string> };
const N = testDbKind() === 'postgres' ? 100_000 : 5_000;

/** The admin list's sorts on a large catalogue: each answers from its index, not a sort of every product. */
describe(`the admin product list on ${N.toLocaleString('en')} products`, () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    // in chunks: each statement stays within the server's statement timeout
    for (let from = 1; from <= N; from += 5000)
      await t.app.db.execute(sql`
        insert into products (id, slug, name, price_cents, count_in_stock, brand, status, published_at)
        select lpad(to_hex(g), 24, '0'), 'scale-' || g, 'Scale product ' || g, (g * 7919) % 100000, g % 50,
          'Brand ' || (g % 300), case when g % 20 = 0 then 'draft' else 'active' end,
          case when g % 20 = 0 then null else now() end
        from generate_series(${from}::int, ${Math.min(N, from + 4999)}::int) g`);
    await t.app.db.execute(sql`
      insert into product_variants (id, product_id, name, count_in_stock, sku, position)
      select lpad(to_hex(${N}::int * 2 + g), 24, '0'), lpad(to_hex(g * 10), 24, '0'), 'Colour ' || g,
        case when g % 2 = 0 then g % 7 else null end, 'SCALE-' || g, 0
      from generate_series(1, ${N}::int / 10) g`);
    await t.app.db.execute(sql`analyze products`);
    await t.app.db.execute(sql`analyze product_variants`);
  }, 300_000);
  afterAll(async () => t?.close());

  const timed = async (query: string) => {
    const started = performance.now();
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/products?${query}`, headers: admin.headers });
    const ms = performance.now() - started;
    expect(res.statusCode, query).toBe(200);
    return { body: res.json() as { products: { name: string; price: number; stock: number }[] }, ms };
  };

  it('answers each indexed sort, both ways, first and a deep page, in well under a second', async () => {
    for (const sortBy of ['createdAt', 'name', 'price', 'status', 'brand'])
      for (const order of ['asc', 'desc'])
        for (const page of [1, 200]) {
          const { body, ms } = await timed(`sortBy=${sortBy}&order=${order}&pageNumber=${page}`);
          expect(body.products, `${sortBy} ${order} ${page}`).toHaveLength(24);
          expect(ms, `${sortBy} ${order} page ${page}`).toBeLessThan(800);
        }
    const prices = (await timed('sortBy=price&order=desc')).body.products.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('sorts by stock (a sum over variants, grouped once) in under two seconds, lowest first', async () => {
    const { body, ms } = await timed('sortBy=stock&order=asc');
    const stocks = body.products.map((p) => p.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
    expect(stocks[0]).toBe(0);
    expect(ms).toBeLessThan(2000);
  });

  it('reads the same pages from the few matching products, sorted, as by walking the sort index', async () => {
    const filters: AdminProductFilter[] = [
      { brand: 'brand 12' },
      { name: 'product 99', status: 'active' },
      { minPriceCents: 99_000, categoryIds: [] },
      { minPriceCents: 50_000, maxPriceCents: 50_500 },
    ];
    for (const filter of filters)
      for (const sortBy of ['createdAt', 'name', 'price', 'status', 'brand'] as const)
        for (const order of ['asc', 'desc'] as const)
          for (const offset of [0, 48]) {
            const page = { filter, sortBy, order, limit: 24, offset };
            const walked = await repo.page(t.app.db, { ...page, few: false });
            const few = await repo.page(t.app.db, { ...page, few: true });
            expect(
              few.map((r) => r.id),
              JSON.stringify(page),
            ).toEqual(walked.map((r) => r.id));
          }
    expect(fewMatches(100, 0, 24, 100_000)).toBe(true);
    expect(fewMatches(20_000, 0, 24, 100_000)).toBe(false);
  });

  it('answers a brand filter sorted by brand from its matches, and keeps its total until a product changes', async () => {
    // "brand 12" is in Brand 12 and Brand 120 to 129: 11 brands of 300, together in the brand order
    const { body, ms } = await timed('brand=brand 12&sortBy=brand&order=desc');
    const total = (body as unknown as { total: number }).total;
    expect(total).toBe(
      Array.from({ length: N }, (_, i) => (i + 1) % 300).filter(
        (b) => `${b}`.startsWith('12') && (b === 12 || b >= 120),
      ).length,
    );
    expect(body.products[0]!.name).toMatch(/^Scale product/);
    expect(ms).toBeLessThan(800);
    const [one] = await t.app.db
      .execute<{ id: string }>(sql`select id from products where brand = 'Brand 1' limit 1`)
      .then((r) => r.rows);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${one!.id}`,
      headers: admin.headers,
      payload: { brand: 'Brand 12' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await timed('brand=brand 12&sortBy=brand&order=desc')).body).toMatchObject({ total: total + 1 });
    // a brand no product had before: the remembered list of brands is read again after the write
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${one!.id}`,
      headers: admin.headers,
      payload: { brand: 'Zz BRAND 12 Outlet' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = (await timed('brand=brand 12&sortBy=brand&order=asc')).body as unknown as {
      total: number;
      products: { name: string; brand: string }[];
    };
    expect(after.total).toBe(total + 1);
    const last = (await timed(`brand=brand 12&sortBy=brand&order=desc&pageSize=1`)).body as unknown as {
      products: { brand: string }[];
    };
    expect(last.products[0]!.brand).toBe('Zz BRAND 12 Outlet');
  });

  it('resolves a brand text to the brands containing it, with the same pages and totals as a "contains" match', async () => {
    const all = await repo.distinctBrands(t.app.db, 5000);
    expect(all).toHaveLength(new Set(Array.from({ length: N }, (_, i) => (i + 1) % 300)).size + 1);
    expect(all!.every((b) => b === b.toLowerCase())).toBe(true);
    // more brands than allowed: none resolved (the caller matches the text with the trigram index)
    expect(await repo.distinctBrands(t.app.db, all!.length - 1)).toBeNull();
    for (const text of ['brand 12', 'and 29', 'outlet', 'no such brand']) {
      const brands = all!.filter((b) => b.includes(text));
      const contains = { brand: text, minPriceCents: 20_000, maxPriceCents: 80_000 };
      const resolved = { brands, minPriceCents: 20_000, maxPriceCents: 80_000 };
      expect(await repo.count(t.app.db, resolved), text).toEqual(await repo.count(t.app.db, contains));
      for (const sortBy of ['price', 'brand', 'createdAt'] as const)
        for (const few of [false, true]) {
          const page = { sortBy, order: 'asc' as const, limit: 24, offset: 24, few };
          const a = await repo.page(t.app.db, { ...page, filter: resolved });
          const b = await repo.page(t.app.db, { ...page, filter: contains });
          expect(
            a.map((r) => r.id),
            `${text} ${sortBy} ${few}`,
          ).toEqual(b.map((r) => r.id));
        }
    }
  });

  it("counts each price range of a brand from its kept prices exactly as SQL does, and afresh after a product's price changes", async () => {
    const all = await repo.distinctBrands(t.app.db, 5000);
    const brands = all!.filter((b) => b.includes('brand 7'));
    // bounds in cents: both sides of a product's price and random ones, with either bound left out
    const [sample] = await t.app.db
      .execute<{ cents: number }>(sql`select price_cents as cents from products where brand = 'Brand 7' limit 1`)
      .then((r) => r.rows);
    const exact = Number(sample!.cents);
    const ranges: [number | undefined, number | undefined][] = [
      [exact, exact],
      [exact + 1, undefined],
      [undefined, exact - 1],
      [undefined, undefined],
      ...Array.from({ length: 20 }, (): [number, number] => {
        const min = Math.floor(Math.random() * 90_000);
        return [min, min + Math.floor(Math.random() * 20_000)];
      }),
    ];
    const check = async () => {
      for (const [min, max] of ranges) {
        const query = [
          'brand=brand 7',
          min === undefined ? '' : `minPrice=${min / 100}`,
          max === undefined ? '' : `maxPrice=${max / 100}`,
        ]
          .filter(Boolean)
          .join('&');
        const { total } = (await timed(query)).body as unknown as { total: number };
        const filter: AdminProductFilter = { brands, minPriceCents: min, maxPriceCents: max };
        expect(total, query).toBe((await repo.count(t.app.db, filter)).total);
      }
    };
    await check();
    const [one] = await t.app.db
      .execute<{ id: string }>(sql`select id from products where brand = 'Brand 7' and price_cents <> ${exact} limit 1`)
      .then((r) => r.rows);
    const before = (await timed(`brand=brand 7&minPrice=${exact / 100}&maxPrice=${exact / 100}`)).body as unknown as {
      total: number;
    };
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${one!.id}`,
      headers: admin.headers,
      payload: { price: exact / 100 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = (await timed(`brand=brand 7&minPrice=${exact / 100}&maxPrice=${exact / 100}`)).body as unknown as {
      total: number;
    };
    expect(after.total).toBe(before.total + 1);
    await check();
  });

  it('gives the same totals from kept prices and from counts, a brand text matching more products than are kept counted directly', async () => {
    // at most one price per 100 products per filter set: "brand 7" (31 brands of 300) is too broad,
    // "brand 299" (one) is kept
    const totals = new AdminListTotals(2000, { sets: 4, maxValues: N / 100, budget: N });
    for (const brand of ['brand 7', 'brand 299'])
      for (const [min, max] of [
        [undefined, 500],
        [100, 600],
        [250.5, undefined],
        [999, 999.99],
      ]) {
        const q = adminProductListQuerySchema.parse({ brand, minPrice: min, maxPrice: max });
        const label = JSON.stringify(q);
        for (let round = 0; round < 2; round++)
          expect((await listAdminProducts(t.app.db, q, totals)).total, label).toBe(
            (await listAdminProducts(t.app.db, q)).total,
          );
      }
  });

  it('filters by status on its index', async () => {
    const { body, ms } = await timed('status=draft&pageNumber=2');
    expect(body.products).toHaveLength(24);
    expect(ms).toBeLessThan(800);
  });

  it("reads a page's SKUs with its variant totals, by product, when the SKU index's statistics say it is empty", async () => {
    // a catalogue analysed with no SKUs, then SKUs written without a new ANALYZE (an import of a tenth of
    // the catalogue stays under autovacuum's threshold): the partial SKU index looks empty to the
    // planner, which then walked all of it for each row of the page (90 ms a page with 10,000 SKUs at 1M)
    const db = t.app.db;
    await db.execute(sql`update product_variants set sku = ''`);
    await db.execute(sql`analyze product_variants`);
    await db.execute(
      sql`update product_variants set sku = 'SCALE-' || (('x' || right(id, 8))::bit(32)::int - ${N}::int * 2)`,
    );
    try {
      for (const sortBy of ['createdAt', 'price', 'stock'] as const) {
        const statement = repo.pageStatement(db, { filter: {}, sortBy, order: 'desc', limit: 24, offset: 0 }).toSQL();
        const plan = await db.$client.query<{ 'QUERY PLAN': string }>(`explain ${statement.sql}`, statement.params);
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, sortBy).toContain('product_variants');
        expect(text, sortBy).not.toContain('product_variants_sku_uq');
        expect(text, sortBy).not.toMatch(/SubPlan/);
      }
      // and the SKUs are each product's, in their order
      const { body } = await timed('sortBy=createdAt&order=desc&sku=SCALE-1');
      const withSku = body.products as unknown as { _id: string; skus: string[] }[];
      expect(withSku.length).toBeGreaterThan(0);
      for (const p of withSku) expect(p.skus).toEqual([`SCALE-${parseInt(p._id, 16) / 10}`]);
    } finally {
      await db.execute(sql`analyze product_variants`);
    }
  });
});
