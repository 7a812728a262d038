import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '#server/db/schema/index.ts';
import { addReview, createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { signedIn } from '#test/orders-support.ts';
import { productListQuerySchema } from '@store/shared';
import { inStockOf, listProducts, loadFacetTable } from './catalog.service.ts';
import { FacetIndex } from './facet-index.ts';

let t: TestContext;
const get = (url: string) => t.app.inject({ method: 'GET', url });
const names = (body: { products: { name: string }[] }) => body.products.map((p) => p.name);

interface Facets {
  brands: { name: string; count: number }[];
  categories: { slug: string; name: string; count: number }[];
  price: { min: number | null; max: number | null };
}

describe('finding products: categories, filters, facets and sorts', () => {
  let draft: { id: string; slug: string };

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><!--app-head--></head><body></body></html>',
    );
    t = await createTestApp({ PUBLIC_URL: 'https://shop.example.com' }, { webDist: dist });
    const db = t.database.db;
    const audio = await createCategory(db, { name: 'Audio', slug: 'audio' });
    const headphones = await createCategory(db, { name: 'Headphones', slug: 'headphones', parentId: audio.id });
    const kitchen = await createCategory(db, { name: 'Kitchen', slug: 'kitchen' });
    // one clock for every product: their order must not depend on how long the inserts take
    const t0 = Date.now();
    const at = (s: number) => new Date(t0 - s * 1000);
    const studio = await createProduct(db, {
      name: 'Studio Headphones',
      brand: 'SoundMax',
      categoryId: headphones.id,
      priceCents: 19999,
      countInStock: 3,
      createdAt: at(1),
    });
    await createProduct(db, {
      name: 'Bluetooth Speaker',
      brand: 'soundmax',
      categoryId: audio.id,
      priceCents: 4999,
      countInStock: 0,
      createdAt: at(2),
    });
    const budget = await createProduct(db, {
      name: 'Budget Earbuds',
      brand: 'Tinny',
      categoryId: headphones.id,
      priceCents: 999,
      countInStock: 5,
      createdAt: at(3),
    });
    await createProduct(db, {
      name: 'Chef Knife',
      brand: 'ChefCo',
      categoryId: kitchen.id,
      priceCents: 3500,
      countInStock: 2,
      createdAt: at(4),
    });
    // sold out in every colour, though the product's own pool has stock
    await createProduct(db, {
      name: 'Colour Headphones',
      brand: 'Tinny',
      categoryId: headphones.id,
      priceCents: 2999,
      countInStock: 4,
      variants: [
        { name: 'Red', countInStock: 0 },
        { name: 'Blue', countInStock: 0 },
      ],
      createdAt: at(5),
    });
    // in stock through one colour only
    await createProduct(db, {
      name: 'Wired Headphones',
      brand: 'Tinny',
      categoryId: headphones.id,
      priceCents: 1999,
      countInStock: 0,
      variants: [{ name: 'Black', countInStock: 2 }],
      createdAt: at(6),
    });
    draft = await createProduct(db, {
      name: 'Secret Headphones Prototype',
      brand: 'SoundMax',
      categoryId: headphones.id,
      priceCents: 99999,
      status: 'draft',
      createdAt: at(0),
    });
    await addReview(db, studio.id, 5);
    await addReview(db, budget.id, 3);
  });
  afterAll(async () => t?.close());

  it('keeps the list answer as it was and adds facets over every product', async () => {
    const body = (await get('/api/products')).json();
    expect(body).toMatchObject({ page: 1, pages: 1, total: 6 });
    expect(names(body)[0]).toBe('Studio Headphones');
    const facets = body.facets as Facets;
    // brands differing only in case are one brand
    expect(facets.brands).toEqual([
      { name: 'Tinny', count: 3 },
      { name: 'SoundMax', count: 2 },
      { name: 'ChefCo', count: 1 },
    ]);
    // a parent counts its children's products too
    expect(facets.categories).toEqual(
      expect.arrayContaining([
        { slug: 'audio', name: 'Audio', count: 5 },
        { slug: 'headphones', name: 'Headphones', count: 4 },
        { slug: 'kitchen', name: 'Kitchen', count: 1 },
      ]),
    );
    expect(facets.price).toEqual({ min: 9.99, max: 199.99 });
  });

  it('filters by category slug, the category and its children', async () => {
    expect(names((await get('/api/products?category=audio')).json()).sort()).toEqual(
      ['Bluetooth Speaker', 'Budget Earbuds', 'Colour Headphones', 'Studio Headphones', 'Wired Headphones'].sort(),
    );
    expect((await get('/api/products?category=headphones')).json().total).toBe(4);
    expect((await get('/api/products?category=kitchen')).json().total).toBe(1);
    expect((await get('/api/products?category=no-such-category')).json().total).toBe(0);
  });

  it('filters by brand, whole and whatever the case, one or several', async () => {
    expect(names((await get('/api/products?brand=SOUNDMAX')).json())).toEqual([
      'Studio Headphones',
      'Bluetooth Speaker',
    ]);
    expect((await get('/api/products?brand=Sound')).json().total).toBe(0);
    expect((await get('/api/products?brand=chefco&brand=tinny')).json().total).toBe(4);
  });

  it('filters by price range, stock and rating', async () => {
    expect(names((await get('/api/products?minPrice=20&maxPrice=50')).json())).toEqual([
      'Bluetooth Speaker',
      'Chef Knife',
      'Colour Headphones',
    ]);
    expect(names((await get('/api/products?inStock=true')).json())).toEqual([
      'Studio Headphones',
      'Budget Earbuds',
      'Chef Knife',
      'Wired Headphones',
    ]);
    expect((await get('/api/products?inStock=false')).json().total).toBe(6);
    expect(names((await get('/api/products?minRating=4')).json())).toEqual(['Studio Headphones']);
    expect(names((await get('/api/products?minRating=3')).json())).toEqual(['Studio Headphones', 'Budget Earbuds']);
  });

  it('sorts newest, by price, rating and name, either way', async () => {
    const order = async (q: string) => names((await get(`/api/products?category=headphones&${q}`)).json());
    expect(await order('sortBy=newest')).toEqual([
      'Studio Headphones',
      'Budget Earbuds',
      'Colour Headphones',
      'Wired Headphones',
    ]);
    expect(await order('sortBy=newest&order=asc')).toEqual([
      'Wired Headphones',
      'Colour Headphones',
      'Budget Earbuds',
      'Studio Headphones',
    ]);
    expect(await order('sortBy=price&order=asc')).toEqual([
      'Budget Earbuds',
      'Wired Headphones',
      'Colour Headphones',
      'Studio Headphones',
    ]);
    expect(await order('sortBy=price&order=desc')).toEqual([
      'Studio Headphones',
      'Colour Headphones',
      'Wired Headphones',
      'Budget Earbuds',
    ]);
    expect((await order('sortBy=rating&order=desc')).slice(0, 2)).toEqual(['Studio Headphones', 'Budget Earbuds']);
    expect(await order('sortBy=name&order=asc')).toEqual([
      'Budget Earbuds',
      'Colour Headphones',
      'Studio Headphones',
      'Wired Headphones',
    ]);
    expect((await order('sortBy=name&order=desc'))[0]).toBe('Wired Headphones');
  });

  it('combines filters with each other and with the keyword', async () => {
    const body = (
      await get('/api/products?category=headphones&brand=tinny&maxPrice=25&sortBy=price&order=desc')
    ).json();
    expect(names(body)).toEqual(['Wired Headphones', 'Budget Earbuds']);
    // the keyword finds products by their category's name too (the earbuds are headphones)
    expect(names((await get('/api/products?keyword=headphones&brand=tinny&inStock=true')).json())).toEqual([
      'Wired Headphones',
      'Budget Earbuds',
    ]);
    expect(names((await get('/api/products?keyword=headphones&sortBy=price&order=asc')).json())).toEqual([
      'Budget Earbuds',
      'Wired Headphones',
      'Colour Headphones',
      'Studio Headphones',
    ]);
  });

  it('counts each facet over the products matching every filter but its own', async () => {
    const facets = (await get('/api/products?category=headphones&brand=tinny&minPrice=15')).json().facets as Facets;
    // brands: category and price apply, brand does not
    expect(facets.brands).toEqual([
      { name: 'Tinny', count: 2 },
      { name: 'SoundMax', count: 1 },
    ]);
    // categories: brand and price apply, category does not
    expect(facets.categories).toEqual(
      expect.arrayContaining([
        { slug: 'audio', name: 'Audio', count: 2 },
        { slug: 'headphones', name: 'Headphones', count: 2 },
      ]),
    );
    expect(facets.categories.some((c) => c.slug === 'kitchen')).toBe(false);
    // price: category and brand apply, price does not
    expect(facets.price).toEqual({ min: 9.99, max: 29.99 });
    // a price range that empties the list still shows the whole range to pick from
    const none = (await get('/api/products?minPrice=500')).json();
    expect(none.total).toBe(0);
    expect(none.facets.price).toEqual({ min: 9.99, max: 199.99 });
    expect((await get('/api/products?brand=nobody')).json().facets.price).toEqual({ min: null, max: null });
  });

  it('answers the facets of a keyword search, and says which word a typo search found', async () => {
    const body = (await get('/api/products?keyword=headphones')).json();
    expect(body.facets.brands.map((b: { name: string }) => b.name).sort()).toEqual(['SoundMax', 'Tinny']);
    expect(body.suggestion).toBeUndefined();
    const typo = (await get('/api/products?keyword=hedphones')).json();
    expect(typo.total).toBeGreaterThan(0);
    expect(typo.suggestion).toBe('headphones');
  });

  it('answers cards only when asked for fields=card', async () => {
    const body = (await get('/api/products?fields=card&category=headphones&sortBy=price&order=asc')).json();
    expect(body.total).toBe(4);
    expect(body.products[0]).toEqual({
      _id: expect.any(String),
      slug: expect.any(String),
      name: 'Budget Earbuds',
      image: expect.any(String),
      price: 9.99,
      fromPrice: 9.99,
      rating: 3,
      numReviews: 1,
      inStock: true,
    });
    const colour = body.products.find((p: { name: string }) => p.name === 'Colour Headphones');
    expect(colour.inStock).toBe(false);
  });

  it('rejects bad parameters with a 400 that says what is wrong', async () => {
    const cases: [string, RegExp][] = [
      ['sortBy=cheapest', /sortBy/],
      ['order=up', /order/],
      ['minRating=0', /minRating/],
      ['minRating=6', /minRating/],
      ['minRating=high', /minRating/],
      ['inStock=maybe', /inStock/],
      ['minPrice=abc', /minPrice/],
      ['minPrice=50&maxPrice=10', /minPrice/],
      ['fields=everything', /fields/],
    ];
    for (const [q, message] of cases) {
      const res = await get(`/api/products?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toMatch(message);
    }
  });

  it('answers a category page by slug with its parent, and 404 for an unknown one', async () => {
    const res = await get('/api/categories/slug/headphones');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Headphones',
      slug: 'headphones',
      parent: { name: 'Audio', slug: 'audio' },
      hasChildren: false,
    });
    expect((await get('/api/categories/slug/audio')).json()).toMatchObject({ parent: null, hasChildren: true });
    expect((await get('/api/categories/slug/nothing-here')).statusCode).toBe(404);
  });

  it('serves the category page with its title, canonical address and breadcrumbs', async () => {
    const res = await get('/category/headphones');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Headphones | Store</title>');
    expect(res.body).toContain('<link rel="canonical" href="https://shop.example.com/category/headphones">');
    const ld = /<script type="application\/ld\+json" id="ld-breadcrumbs">(.*?)<\/script>/.exec(res.body)?.[1];
    const crumbs = JSON.parse(ld ?? '{}');
    expect(crumbs['@type']).toBe('BreadcrumbList');
    expect(crumbs.itemListElement.map((i: { name: string }) => i.name)).toEqual(['Home', 'Audio', 'Headphones']);
    const page2 = await get('/category/headphones/page/2');
    expect(page2.body).toContain('<link rel="canonical" href="https://shop.example.com/category/headphones/page/2">');
    expect((await get('/category/nothing-here')).statusCode).toBe(404);
    // a product's breadcrumb leads to its category's page
    const product = (await get('/api/products?keyword=studio')).json().products[0];
    const html = (await get(`/product/${product.slug}`)).body;
    expect(html).toContain('https://shop.example.com/category/headphones');
  });

  it('lists the category pages in the sitemap', async () => {
    const xml = (await get('/sitemap.xml')).body;
    expect(xml).toContain('<loc>https://shop.example.com/category/audio</loc>');
    expect(xml).toContain('<loc>https://shop.example.com/category/headphones</loc>');
  });

  it('counts the same with the facet index as with SQL', async () => {
    const db = t.database.db;
    const index = new FacetIndex(() => loadFacetTable(db));
    expect(index.current(false)).toBeUndefined(); // starts the build
    await index.settled();
    expect(index.current(true)?.size).toBe(6); // the draft is not in it
    for (const raw of [
      {},
      { category: 'headphones' },
      { category: 'audio', brand: 'soundmax' },
      { brand: ['tinny', 'ChefCo'], minPrice: '15' },
      { inStock: 'true', minRating: '3' },
      { category: 'headphones', brand: 'tinny', maxPrice: '25', sortBy: 'price', order: 'desc' },
      { minPrice: '500' },
      { pageSize: '2', category: 'audio' },
      // few matches: the index-counted page is sorted by expressions no index has, in the same order
      { category: 'audio', sortBy: 'rating' },
      { inStock: 'true', sortBy: 'rating', order: 'asc' },
      { minPrice: '1', sortBy: 'name', order: 'desc' },
      { brand: 'tinny', sortBy: 'newest', order: 'asc' },
      { brand: ['tinny', 'soundmax'], sortBy: 'newest', pageSize: '1', pageNumber: '2' },
      // past the last match: the index's count answers without reading a page
      { category: 'audio', pageSize: '2', pageNumber: '9' },
    ]) {
      const q = productListQuerySchema.parse(raw);
      const bySql = await listProducts(db, q);
      const byIndex = await listProducts(db, q, undefined, undefined, false, index);
      expect(byIndex, JSON.stringify(raw)).toEqual(bySql);
    }
    // only stock changed: the index still answers filters without stock, and builds afresh for stock
    index.dropStock();
    expect(index.current(false)).toBeDefined();
    expect(index.current(true)).toBeUndefined();
    await index.settled();
    expect(index.current(true)).toBeDefined();
    index.drop();
    expect(index.current(false)).toBeUndefined();
    await index.settled();
  });

  it("patches a product's change of stock into the facet index by id, and agrees with SQL after it", async () => {
    const db = t.database.db;
    let builds = 0;
    const index = new FacetIndex(
      () => {
        builds++;
        return loadFacetTable(db);
      },
      10,
      (ids) => inStockOf(db, ids),
    );
    index.current(false);
    await index.settled();
    const inStock = productListQuerySchema.parse({ inStock: 'true', pageSize: '100' });
    const before = await listProducts(db, inStock);
    const sold = before.products.find((p) => p.colorsVariants.length === 0)!;
    // the last unit sold, as an order would leave it (the database keeps the flag), then the event
    await db.update(products).set({ countInStock: 0 }).where(eq(products.id, sold._id));
    index.dropStock([sold._id]);
    expect(index.current(true)).toBeUndefined(); // until the product is read again: SQL
    await index.settled();
    for (const raw of [
      { inStock: 'true' },
      { inStock: 'true', minRating: '3' },
      { inStock: 'true', category: 'audio' },
    ]) {
      const q = productListQuerySchema.parse(raw);
      const byIndex = await listProducts(db, q, undefined, undefined, false, index);
      expect(byIndex, JSON.stringify(raw)).toEqual(await listProducts(db, q));
    }
    expect((await listProducts(db, inStock, undefined, undefined, false, index)).total).toBe(before.total - 1);
    expect(builds).toBe(1); // patched, not rebuilt
    await db.update(products).set({ countInStock: 5 }).where(eq(products.id, sold._id));
  });

  describe('a draft is invisible to shoppers', () => {
    it('is in no list, facet, search or top list', async () => {
      const all = (await get('/api/products?pageSize=100')).json();
      expect(all.products.some((p: { _id: string }) => p._id === draft.id)).toBe(false);
      expect(all.facets.price.max).toBe(199.99);
      const filtered = (await get('/api/products?category=headphones&brand=soundmax')).json();
      expect(filtered.total).toBe(1);
      expect(filtered.facets.brands.find((b: { name: string }) => b.name === 'SoundMax').count).toBe(1);
      const search = (await get('/api/products?keyword=prototype')).json();
      expect(search.products.some((p: { _id: string }) => p._id === draft.id)).toBe(false);
      await addReview(t.database.db, draft.id, 5);
      t.app.catalogCache.dropLocal();
      const top = (await get('/api/products/top')).json();
      expect(top.some((p: { _id: string }) => p._id === draft.id)).toBe(false);
    });

    it('is not found by id or slug, nor as a product page, nor in the sitemap', async () => {
      expect((await get(`/api/products/${draft.id}`)).statusCode).toBe(404);
      expect((await get(`/api/products/slug/${draft.slug}`)).statusCode).toBe(404);
      expect((await get(`/api/products/${draft.slug}`)).statusCode).toBe(404);
      expect((await get(`/product/${draft.slug}`)).statusCode).toBe(404);
      expect((await get('/sitemap.xml')).body).not.toContain(draft.slug);
    });

    it('is seen by an admin, with its status', async () => {
      const { headers } = await signedIn(t.app, { isAdmin: true });
      const res = await t.app.inject({ url: `/api/products/${draft.id}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('draft');
    });
  });
});
