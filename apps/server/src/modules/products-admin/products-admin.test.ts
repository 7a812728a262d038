import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#test/accounts.ts';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
let admin: { headers: Record<string, string> };
let shopper: { headers: Record<string, string> };
const anon = { headers: {} };
type Auth = { headers: Record<string, string> };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: Auth = anon, payload?: object) =>
  t.app.inject({ method, url, headers: auth.headers, ...(payload ? { payload } : {}) });
const create = async () => (await call('POST', '/api/products', admin)).json();

describe('admin product writes', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
  });
  afterAll(async () => t?.close());

  it('refuses anonymous callers (401) and non-admins (403) on every write', async () => {
    const p = await createProduct(t.app.db);
    const routes: ['POST' | 'PUT' | 'DELETE', string][] = [
      ['POST', '/api/products'],
      ['PUT', `/api/products/${p.id}`],
      ['PUT', `/api/products/image/${p.id}`],
      ['DELETE', `/api/products/${p.id}`],
    ];
    for (const [method, url] of routes) {
      expect((await call(method, url, anon, { name: 'x' })).statusCode, url).toBe(401);
      const res = await call(method, url, shopper, { name: 'x' });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ message: 'Not authorized as an admin', code: 'FORBIDDEN' });
    }
    expect((await call('GET', `/api/products/${p.id}`)).json().name).toBe(p.name);
  });

  it('creates a draft sample product with a unique slug each time', async () => {
    const res = await call('POST', '/api/products', admin);
    expect(res.statusCode).toBe(201);
    const first = res.json();
    expect(first).toMatchObject({
      name: 'Sample name',
      price: 0,
      countInStock: 0,
      colorsVariants: [],
      imageB: [],
      status: 'draft',
    });
    expect(first._id).toMatch(/^[0-9a-f]{24}$/);
    const second = await create();
    expect(second.slug).not.toBe(first.slug);
    expect((await call('GET', `/api/admin/products/${second._id}`, admin)).json()).toMatchObject({
      slug: second.slug,
      status: 'draft',
    });
  });

  it('saves every editable field and shows it at once (the cached answer is dropped)', async () => {
    const p = await create();
    const cat = await createCategory(t.app.db, { name: 'Desk Lamps' });
    expect((await call('GET', `/api/products/${p._id}`, admin)).json().name).toBe('Sample name'); // now cached
    const body = {
      _id: p._id,
      name: '  Brass   Desk Lamp ',
      purchaseLink: 'https://supplier.example.com/item/42',
      price: 49.9,
      image: '/uploads/brass-lamp/main-1a2b.webp',
      imageFolderName: 'brass-lamp',
      imageB: [{ src: '/uploads/brass-lamp/main-1a2b.webp' }, { src: 'https://cdn.example.com/side.jpg' }],
      colorsVariants: [
        { name: 'Brass', src: '/uploads/brass-lamp/main-1a2b.webp' },
        { name: 'Black', src: '', price: 59.5 },
      ],
      video: 'https://www.youtube.com/watch?v=abc',
      brand: 'Lumen',
      shippingMethod: 'Standard',
      category: cat.id,
      description: '<p>Warm <b>light</b></p>',
      countInStock: '12',
    };
    const res = await call('PUT', `/api/products/${p._id}`, admin, body);
    expect(res.statusCode).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({
      status: 'active',
      name: 'Brass Desk Lamp',
      slug: 'brass-desk-lamp',
      purchaseLink: body.purchaseLink,
      price: 49.9,
      image: body.image,
      imageFolderName: 'brass-lamp',
      video: body.video,
      brand: 'Lumen',
      shippingMethod: 'Standard',
      category: 'Desk Lamps',
      categoryId: cat.id,
      description: '<p>Warm <strong>light</strong></p>',
      countInStock: 12,
    });
    expect(saved.imageB.map((i: { src: string }) => i.src)).toEqual(body.imageB.map((i) => i.src));
    expect(saved.colorsVariants).toMatchObject([
      { name: 'Brass', price: null },
      { name: 'Black', price: 59.5 },
    ]);
    const read = (await call('GET', `/api/products/${p._id}`)).json();
    expect(read).toMatchObject({ name: 'Brass Desk Lamp', price: 49.9 });
    const list = (await call('GET', '/api/products?adminCheck=true&sortBy=name&order=asc&name=brass', admin)).json();
    expect(list.products[0]).toMatchObject({ _id: p._id, purchaseLink: body.purchaseLink, category: 'Desk Lamps' });
    // a category can be named instead of given by id
    expect((await call('PUT', `/api/products/${p._id}`, admin, { category: 'desk lamps' })).json().categoryId).toBe(
      cat.id,
    );
    expect((await call('PUT', `/api/products/${p._id}`, admin, { category: '' })).json().categoryId).toBeNull();
  });

  it('refuses bad values with clear messages', async () => {
    const p = await create();
    const cases: [object, string][] = [
      [{ name: '   ' }, 'Name is required'],
      [{ name: '<>' }, 'Name is required'],
      [{ price: -1 }, 'Price must be a number from 0 with at most two decimals'],
      [{ price: 1.234 }, 'Price must be a number from 0 with at most two decimals'],
      [{ price: 'abc' }, 'Price must be a number from 0 with at most two decimals'],
      [{ countInStock: 1.5 }, 'Count in stock must be a whole number from 0'],
      [{ countInStock: -3 }, 'Count in stock must be a whole number from 0'],
      [{ purchaseLink: 'javascript:alert(1)' }, 'Buy link must be an http(s) URL'],
      [{ video: 'ftp://x.example.com/v.mp4' }, 'Video must be an http(s) URL or an uploaded file'],
      [{ image: '/etc/passwd' }, 'Images must be uploaded images (/uploads/...) or http(s) URLs'],
      [
        { imageB: [{ src: '/uploads/../secret.webp' }] },
        'Images must be uploaded images (/uploads/...) or http(s) URLs',
      ],
      [
        { imageFolderName: '../x' },
        'Image Gallery Folder Name may contain only letters, digits, hyphens and underscores (at most 64)',
      ],
      [{ colorsVariants: [{ name: '', src: '' }] }, 'Each colour variant needs a name'],
      [
        { colorsVariants: [{ name: 'Red', price: 2.555 }] },
        'Variant price must be empty or a number from 0 with at most two decimals',
      ],
      [{ category: 'No Such Category' }, 'Category not found'],
      [{ category: 'ffffffffffffffffffffffff' }, 'Category not found'],
    ];
    for (const [body, message] of cases) {
      const res = await call('PUT', `/api/products/${p._id}`, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(message);
    }
    const ok = await call('PUT', `/api/products/${p._id}`, admin, { name: 'Cheap Pen', price: 0.29, countInStock: 0 });
    expect(ok.json()).toMatchObject({ price: 0.29, status: 'active' });
    expect((await call('PUT', `/api/products/${'f'.repeat(24)}`, admin, { name: 'X' })).statusCode).toBe(404);
  });

  it('refuses an edit that changes nothing with a 400 that says so, leaving the product untouched', async () => {
    const p = await create();
    // `_id` names nothing to change, and unknown fields are dropped
    for (const [url, body] of [
      [`/api/products/${p._id}`, {}],
      [`/api/products/${p._id}`, { _id: p._id }],
      [`/api/products/${p._id}`, { rating: 5, numReviews: 9 }],
      [`/api/products/image/${p._id}`, {}],
      [`/api/products/image/${p._id}`, { name: 'Not a gallery field' }],
    ] as const) {
      const res = await call('PUT', url, admin, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toEqual({ message: 'Nothing to update', code: 'NOTHING_TO_UPDATE' });
    }
    expect((await call('GET', `/api/admin/products/${p._id}`, admin)).json()).toMatchObject({
      name: 'Sample name',
      status: 'draft',
      updatedAt: p.updatedAt,
    });
    expect((await call('PUT', `/api/products/image/${p._id}`, admin, { imageB: [] })).statusCode).toBe(200);
  });

  it('filters and pages the admin list in SQL', async () => {
    const cat = await createCategory(t.app.db, { name: 'Filter Kitchen' });
    for (let i = 0; i < 5; i++)
      await createProduct(t.app.db, {
        name: `Filter Pot ${i}`,
        brand: 'PotCo',
        priceCents: 1000 + i * 100,
        categoryId: cat.id,
      });
    const q = (s: string) => call('GET', `/api/products?adminCheck=true&sortBy=name&order=asc&${s}`);
    const brand = (await q('brand=potco&pageSize=2&pageNumber=2')).json();
    expect(brand).toMatchObject({ page: 2, pages: 3, total: 5 });
    expect(brand.products.map((x: { name: string }) => x.name)).toEqual(['Filter Pot 2', 'Filter Pot 3']);
    expect((await q('category=filter%20kitchen&minPrice=11&maxPrice=13')).json().total).toBe(3);
    expect((await q(`category=${cat.id}&name=pot%204`)).json().products[0].name).toBe('Filter Pot 4');
  });
});
