import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productSlugs } from '#server/db/schema/index.ts';
import { addReview, createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { createAccount } from '#test/accounts.ts';

let t: TestContext;
const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('catalogue API', () => {
  let root: { id: string };
  let child: { id: string };
  let headphones: { id: string; slug: string };
  let cheap: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    // one clock for every product: the order of their dates must not depend on how long the inserts take
    const t0 = Date.now();
    root = await createCategory(db, { name: 'Electronics', slug: 'electronics' });
    child = await createCategory(db, { name: 'Headphones', slug: 'headphones', parentId: root.id });
    await createCategory(db, { name: 'Kitchen', slug: 'kitchen' });
    headphones = await createProduct(db, {
      name: 'Wireless Noise Cancelling Headphones',
      brand: 'SoundMax',
      categoryId: child.id,
      priceCents: 19999,
      variants: [
        { name: 'Black', src: '/uploads/x/black.webp' },
        { name: 'Gold', src: '/uploads/x/gold.webp', priceCents: 24999 },
      ],
      images: ['/uploads/x/1.webp', '/uploads/x/2.webp'],
      description: '<p>Great <strong>sound</strong> for travel.</p>',
      createdAt: new Date(t0 - 1000),
    });
    cheap = await createProduct(db, {
      name: 'Stainless Steel Frying Pan',
      brand: 'ChefCo',
      priceCents: 2599,
      createdAt: new Date(t0 - 2000),
    });
    await createProduct(db, {
      name: '100% Cotton_Towel (set of 2)',
      brand: 'Homey',
      priceCents: 1299,
      createdAt: new Date(t0 - 3000),
    });
    for (let i = 0; i < 30; i++)
      await createProduct(db, {
        name: `Filler Gadget ${i}`,
        priceCents: 1000 + i,
        createdAt: new Date(t0 - 10_000 - i * 1000),
      });
    await addReview(db, headphones.id, 5);
    await addReview(db, headphones.id, 4);
    await addReview(db, cheap.id, 3);
  });
  afterAll(async () => t?.close());

  it('lists 24 products a page, newest first, with the page count', async () => {
    const res = await get('/api/products');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.products).toHaveLength(24);
    expect(body.page).toBe(1);
    expect(body.pages).toBe(2);
    expect(body.total).toBe(33);
    expect(body.products[0].name).toBe('Wireless Noise Cancelling Headphones');
    expect(body.products[0]).toMatchObject({
      price: 199.99,
      brand: 'SoundMax',
      category: 'Headphones',
      rating: 4.5,
      numReviews: 2,
    });
    expect(body.products[0].colorsVariants.map((v: { name: string }) => v.name)).toEqual(['Black', 'Gold']);
    const page2 = (await get('/api/products?pageNumber=2')).json();
    expect(page2.products).toHaveLength(9);
    const ids = new Set([...body.products, ...page2.products].map((p: { _id: string }) => p._id));
    expect(ids.size).toBe(33);
  });

  it('sorts by name and by price in either order', async () => {
    const byName = (await get('/api/products?sortBy=name&order=asc&pageSize=100'))
      .json()
      .products.map((p: { name: string }) => p.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const byPrice = (await get('/api/products?sortBy=price&order=desc')).json().products;
    expect(byPrice[0].price).toBe(199.99);
    expect(byPrice[1].price).toBe(25.99);
  });

  it('finds products by words and word prefixes, ranked by relevance', async () => {
    const res = (await get('/api/products?keyword=headphone')).json();
    expect(res.products.map((p: { name: string }) => p.name)).toEqual(['Wireless Noise Cancelling Headphones']);
    expect((await get('/api/products?keyword=wirel%20head')).json().total).toBe(1);
    expect((await get('/api/products?keyword=soundmax')).json().total).toBe(1);
    expect((await get('/api/products?keyword=travel')).json().total).toBe(1);
    // the category's name finds its products too (the breadcrumb links search by category)
    expect((await get('/api/products?keyword=electronics')).json().total).toBe(1);
    expect((await get('/api/products?keyword=Headphones')).json().total).toBe(1);
  });

  it('falls back to trigram similarity for typos', async () => {
    const res = (await get('/api/products?keyword=headphnes')).json();
    expect(res.products[0]?.name).toBe('Wireless Noise Cancelling Headphones');
  });

  it('suggests nothing for real words that are never found together (the typo fallback is for typos)', async () => {
    // "cancelling" and "headphone" are both in the catalogue, never with "frying": no typo, no suggestions
    const apart = (await get('/api/products?keyword=frying%20cancelling%20headphone')).json();
    expect(apart).toMatchObject({ products: [], total: 0, pages: 1 });
    // one word matching nothing on its own is a typo: similar names are suggested
    const typo = (await get('/api/products?keyword=wireless%20noise%20cancelling%20headphnes')).json();
    expect(typo.products[0]?.name).toBe('Wireless Noise Cancelling Headphones');
  });

  it('treats pattern and regex characters in the keyword as plain text', async () => {
    for (const kw of ['%', '_', '.*', '(', '\\', "'; drop table products; --", '[a-z]+', '100%']) {
      const res = await get(`/api/products?keyword=${encodeURIComponent(kw)}`);
      expect(res.statusCode, kw).toBe(200);
    }
    expect((await get('/api/products?keyword=%25')).json().total).toBe(0);
    expect((await get(`/api/products?keyword=${encodeURIComponent('100%')}`)).json().products[0]?.name).toBe(
      '100% Cotton_Towel (set of 2)',
    );
  });

  it('caps the keyword at the server limit instead of failing', async () => {
    const res = await get(`/api/products?keyword=${'a'.repeat(3000)}`);
    expect(res.statusCode).toBe(200);
    expect((await get(`/api/products?keyword=${'a'.repeat(5000)}`)).statusCode).toBe(400);
  });

  it('answers the search length limit clamped to 32..256', async () => {
    expect((await get('/api/products/max-name-length')).json()).toEqual({ maxNameLength: 36 });
  });

  it('filters by id prefix, name, brand, category and price range', async () => {
    expect((await get(`/api/products?id=${headphones.id}`)).json().total).toBe(1);
    expect(
      (await get(`/api/products?id=${headphones.id.slice(0, 20)}`))
        .json()
        .products.some((p: { _id: string }) => p._id === headphones.id),
    ).toBe(true);
    expect((await get('/api/products?id=zz')).json().total).toBe(0);
    expect((await get('/api/products?name=frying')).json().total).toBe(1);
    // a brand is matched whole, whatever the case
    expect((await get('/api/products?brand=chefco')).json().total).toBe(1);
    expect((await get('/api/products?brand=chef')).json().total).toBe(0);
    expect((await get('/api/products?category=headph')).json().total).toBe(1);
    expect((await get(`/api/products?category=${child.id}`)).json().total).toBe(1);
    expect(
      (await get('/api/products?minPrice=20&maxPrice=30')).json().products.map((p: { price: number }) => p.price),
    ).toEqual([25.99]);
    expect((await get('/api/products?name=%25')).json().total).toBe(1);
  });

  it('rejects malformed list parameters with a 400 message', async () => {
    for (const q of ['pageNumber=0', 'pageNumber=abc', 'sortBy=evil', 'order=sideways', 'minPrice=-1']) {
      const res = await get(`/api/products?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('takes price filters up to the largest price a product can hold, and says so past it', async () => {
    expect((await get('/api/products?minPrice=0&maxPrice=21474836.47')).statusCode).toBe(200);
    for (const [q, message] of [
      ['minPrice=1000000000', 'minPrice: must be at most 21474836.47'],
      ['maxPrice=21474836.48', 'maxPrice: must be at most 21474836.47'],
      ['maxPrice=1e9', 'maxPrice: must be at most 21474836.47'],
      ['minPrice=-1', 'minPrice: must be 0 or more'],
      ['minPrice=cheap', 'minPrice: must be a number'],
    ]) {
      const res = await get(`/api/products?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toEqual({ message, code: 'BAD_REQUEST' });
    }
  });

  it('answers a product by id, by slug, and by a former slug', async () => {
    const byId = (await get(`/api/products/${headphones.id}`)).json();
    expect(byId).toMatchObject({
      _id: headphones.id,
      slug: headphones.slug,
      price: 199.99,
      numReviews: 2,
      category: 'Headphones',
    });
    expect(byId.imageB.map((i: { src: string }) => i.src)).toEqual(['/uploads/x/1.webp', '/uploads/x/2.webp']);
    expect(byId.colorsVariants[1]).toMatchObject({ name: 'Gold', price: 249.99 });
    expect(byId.colorsVariants[0].price).toBeNull();
    expect(byId.reviews).toHaveLength(2);
    expect(byId.description).toContain('<strong>sound</strong>');
    expect((await get(`/api/products/slug/${headphones.slug}`)).json()._id).toBe(headphones.id);
    expect((await get(`/api/products/${headphones.slug}`)).json()._id).toBe(headphones.id);
    await t.database.db.insert(productSlugs).values({ slug: 'old-headphones', productId: headphones.id });
    const moved = (await get('/api/products/slug/old-headphones')).json();
    expect(moved).toMatchObject({ _id: headphones.id, slug: headphones.slug });
  });

  it('answers 404 for unknown or malformed product ids, never 500', async () => {
    for (const id of ['ffffffffffffffffffffffff', 'nope', '%00', 'x'.repeat(300), '..%2F..%2Fetc', '{"$gt":""}']) {
      const res = await get(`/api/products/${id}`);
      expect([400, 404], id).toContain(res.statusCode);
      expect(res.json().message).toBeTruthy();
    }
    expect((await get('/api/products/slug/Nope!')).statusCode).toBe(404);
  });

  it('answers the top-rated products', async () => {
    const top = (await get('/api/products/top')).json();
    expect(top.map((p: { name: string }) => p.name)).toEqual([
      'Wireless Noise Cancelling Headphones',
      'Stainless Steel Frying Pan',
    ]);
  });

  it('answers root categories and the children of one', async () => {
    const roots = (await get('/api/categories/roots')).json();
    expect(roots.map((c: { name: string }) => c.name).sort()).toEqual(['Electronics', 'Kitchen']);
    expect(roots.find((c: { name: string }) => c.name === 'Electronics')).toMatchObject({
      hasChildren: true,
      parent: null,
    });
    const children = (await get(`/api/categories/${root.id}/children`)).json();
    expect(children).toEqual([
      expect.objectContaining({ _id: child.id, name: 'Headphones', parent: root.id, hasChildren: false }),
    ]);
    expect((await get('/api/categories/ffffffffffffffffffffffff/children')).statusCode).toBe(404);
    expect((await get('/api/categories/abc/children')).statusCode).toBe(400);
  });

  it('shows the supplier purchase link to admins only', async () => {
    const db = t.database.db;
    const p = await createProduct(db, { name: 'Sourced Lamp', purchaseLink: 'https://supplier.example.com/lamp' });
    const admin = await createAccount(t, { isAdmin: true });
    const shopper = await createAccount(t);
    for (const headers of [{}, shopper.headers, { authorization: 'Bearer not-a-token' }]) {
      const one = await t.app.inject({ url: `/api/products/${p.id}`, headers });
      expect(one.statusCode).toBe(200);
      expect(one.json().purchaseLink).toBe('');
      const list = (await t.app.inject({ url: '/api/products?keyword=sourced', headers })).json();
      expect(list.products[0].purchaseLink).toBe('');
    }
    const asAdmin = await t.app.inject({ url: `/api/products/${p.id}`, headers: admin.headers });
    expect(asAdmin.json().purchaseLink).toBe('https://supplier.example.com/lamp');
    const adminList = (await t.app.inject({ url: '/api/products?keyword=sourced', headers: admin.headers })).json();
    expect(adminList.products[0].purchaseLink).toBe('https://supplier.example.com/lamp');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await get('/api/definitely-not-here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().message).toMatch(/Not found/);
  });
});
