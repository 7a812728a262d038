import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn } from '#test/orders-support.ts';
import { products } from '#server/db/schema/index.ts';
import { TEST_REDIS_URL, redisReachable } from '#test/redis.ts';

const REDIS_URL = TEST_REDIS_URL;
const hasRedis = await redisReachable();
if (!hasRedis) console.warn(`SKIPPED: cross-process cache invalidation needs Redis at ${REDIS_URL} (TEST_REDIS_URL)`);

describe('HTTP caching of catalogue answers', () => {
  let t: TestContext;
  let product: { id: string; slug: string };
  let category: { id: string };
  let admin: { headers: Record<string, string> };
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><!--app-head--></head><body></body></html>',
    );
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await createTestApp({}, { webDist: dist });
    category = await createCategory(t.database.db, { name: 'Lamps' });
    await createCategory(t.database.db, { name: 'Desk lamps', parentId: category.id });
    // a description long enough that the product's answer is compressed (answers under 1 KB are not)
    product = await createProduct(t.database.db, {
      categoryId: category.id,
      numReviews: 1,
      rating: 4.5,
      purchaseLink: 'https://supplier.example/lamp',
      description: `<p>${'A sturdy lamp with a linen shade and a brass stem. '.repeat(30)}</p>`,
    });
    for (let i = 0; i < 6; i++) await createProduct(t.database.db, { categoryId: category.id });
    admin = await signedIn(t.app, { isAdmin: true });
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  it('tags every public catalogue answer and answers 304 to a matching If-None-Match', async () => {
    const urls = [
      '/api/products',
      '/api/products?pageNumber=2',
      '/api/products/top',
      `/api/products/slug/${product.slug}`,
      `/api/products/${product.id}`,
      '/api/categories/roots',
      `/api/categories/${category.id}/children`,
      '/api/products/max-name-length',
    ];
    for (const url of urls) {
      const first = await get(url);
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('public, no-cache');
      const etag = first.headers.etag as string;
      expect(etag, url).toMatch(/^W\/"[\w-]+"$/);
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
      expect(again.headers.etag, url).toBe(etag);
      // a list of tags, or the strong form of the same tag, matches too
      expect((await get(url, { 'if-none-match': `"other", ${etag.slice(2)}` })).statusCode, url).toBe(304);
      expect((await get(url, { 'if-none-match': 'W/"other"' })).statusCode, url).toBe(200);
    }
  });

  it('changes the tag when the catalogue changes', async () => {
    const url = `/api/products/slug/${product.slug}`;
    const before = (await get(url)).headers.etag as string;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}`,
      headers: admin.headers,
      payload: { countInStock: 3 },
    });
    expect(put.statusCode).toBe(200);
    const after = await get(url, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.json().countInStock).toBe(3);
    expect(after.headers.etag).not.toBe(before);
  });

  const decode = (res: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
    const coding = res.headers['content-encoding'];
    if (coding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString();
    if (coding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString();
    expect(coding).toBeUndefined();
    return res.rawPayload.toString();
  };

  it('sends br and gzip answers that decompress to exactly the JSON, varying on Accept-Encoding', async () => {
    for (const url of ['/api/products', `/api/products/slug/${product.slug}`, `/api/products/${product.id}`]) {
      const plain = await get(url);
      expect(plain.statusCode, url).toBe(200);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(plain.rawPayload.length, url).toBeGreaterThan(1024);
      expect(plain.headers.vary, url).toMatch(/accept-encoding/i);
      expect(plain.headers.vary, url).toMatch(/authorization/i);
      const cases: [string, string | undefined][] = [
        ['gzip, deflate, br', 'br'],
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['x-gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['br;q=0, *', 'gzip'],
        ['identity', undefined],
        ['deflate', undefined],
      ];
      for (const [accept, coding] of cases) {
        // twice: the first answer compresses and keeps the bytes, the second sends the kept ones
        for (let i = 0; i < 2; i++) {
          const res = await get(url, { 'accept-encoding': accept });
          expect(res.statusCode, `${url} ${accept}`).toBe(200);
          expect(res.headers['content-encoding'], `${url} ${accept}`).toBe(coding);
          expect(res.headers.vary, `${url} ${accept}`).toMatch(/accept-encoding/i);
          expect(res.headers.etag, `${url} ${accept}`).toBe(plain.headers.etag);
          expect(Number(res.headers['content-length']), `${url} ${accept}`).toBe(res.rawPayload.length);
          expect(decode(res), `${url} ${accept}`).toBe(plain.body);
        }
      }
      // a compressed answer revalidates like the plain one
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': plain.headers.etag as string });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length, url).toBe(0);
    }
  });

  it('drops the compressed bytes with the answer on a catalogue write', async () => {
    const url = `/api/products/slug/${product.slug}`;
    const before = {
      br: decode(await get(url, { 'accept-encoding': 'br' })),
      gzip: decode(await get(url, { 'accept-encoding': 'gzip' })),
    };
    expect(JSON.parse(before.br).name).not.toBe('Renamed lamp');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}`,
      headers: admin.headers,
      payload: { name: 'Renamed lamp' },
    });
    expect(put.statusCode).toBe(200);
    const plain = (await get(url)).body;
    expect(JSON.parse(plain).name).toBe('Renamed lamp');
    for (const coding of ['br', 'gzip']) {
      const res = await get(url, { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(decode(res)).toBe(plain);
    }
    const list = await get('/api/products', { 'accept-encoding': 'br' });
    expect(JSON.parse(decode(list)).products.some((p: { name: string }) => p.name === 'Renamed lamp')).toBe(true);
  });

  it('compresses admin answers too, never storable and never shared with anonymous ones', async () => {
    const url = `/api/products/${product.id}`;
    const anonymous = JSON.parse(decode(await get(url, { 'accept-encoding': 'br' })));
    const res = await get(url, { ...admin.headers, 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const body = JSON.parse(decode(res));
    expect(body._id).toBe(product.id);
    expect(anonymous.purchaseLink).toBe('');
    expect(body.purchaseLink).toBe('https://supplier.example/lamp');
  });

  it('never lets anyone store an admin answer', async () => {
    for (const url of ['/api/products', `/api/products/${product.id}`]) {
      const res = await get(url, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers.vary).toMatch(/authorization/i);
    }
  });

  it('an order drops only the answers showing its products: their stock is fresh, the rest stay kept', async () => {
    const ordered = await createProduct(t.database.db, { name: 'Ordered lamp', countInStock: 5 });
    const other = await createProduct(t.database.db, { name: 'Other lamp', countInStock: 5 });
    const stockIn = async (url: string) => (await get(url)).json().countInStock as number;
    expect(await stockIn(`/api/products/slug/${ordered.slug}`)).toBe(5);
    expect(await stockIn(`/api/products/slug/${other.slug}`)).toBe(5);
    // changed behind the cache's back: only a re-read would show it
    await t.database.db.update(products).set({ countInStock: 4 }).where(eq(products.id, other.id));

    const buyer = await signedIn(t.app);
    expect((await placeOrder(t.app, buyer, orderBody([{ product: ordered.id, qty: 2 }]))).statusCode).toBe(201);

    expect(await stockIn(`/api/products/slug/${ordered.slug}`)).toBe(3);
    expect(await stockIn(`/api/products/${ordered.id}`)).toBe(3);
    expect(await stockIn(`/api/products/slug/${other.slug}`)).toBe(5); // kept: the order did not show it
    await t.app.catalogCache.invalidate(); // any catalogue write drops everything
    expect(await stockIn(`/api/products/slug/${other.slug}`)).toBe(4);
  });

  it('compresses an answer made per request (a placed order) with brotli, decoding to the order', async () => {
    const lamp = await createProduct(t.database.db, { name: 'Compressed order lamp', countInStock: 5 });
    const buyer = await signedIn(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { ...buyer.headers, 'accept-encoding': 'br' },
      payload: orderBody([{ product: lamp.id, qty: 1 }]),
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-encoding']).toBe('br');
    const order = JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8'));
    expect(order.orderItems).toEqual([expect.objectContaining({ product: lamp.id, qty: 1 })]);
    // the same order, read back without compression
    const plain = await t.app.inject({ url: `/api/orders/${order._id}`, headers: buyer.headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()._id).toBe(order._id);
  });

  it('tags the served product page', async () => {
    const first = await get(`/product/${product.slug}`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await get(`/product/${product.slug}`, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('serves hashed web assets and uploaded images as immutable for a year', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const uploads = path.join(t.config.dataDir, 'uploads', 'lamps');
    mkdirSync(uploads, { recursive: true });
    writeFileSync(path.join(uploads, 'desk-0123456789ab-640.webp'), 'RIFF');
    const image = await get('/uploads/lamps/desk-0123456789ab-640.webp');
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe.skipIf(!hasRedis)('cache invalidation across processes (REDIS_URL)', () => {
  let a: TestContext;
  let b: FastifyInstance;

  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}:` };
    a = await createTestApp(env);
    // a second app instance of its own (own cache, own Redis connections) on the same database
    b = await buildApp({ config: a.config, database: a.database, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('an order through one instance drops the answers showing its product in the other, and only those', async () => {
    const ordered = await createProduct(a.database.db, { name: 'Ordered elsewhere', countInStock: 5 });
    const other = await createProduct(a.database.db, { name: 'Not ordered', countInStock: 5 });
    const stockIn = async (app: FastifyInstance, id: string) =>
      (await app.inject({ url: `/api/products/${id}` })).json().countInStock as number;
    expect(await stockIn(b, ordered.id)).toBe(5);
    expect(await stockIn(b, other.id)).toBe(5);
    await a.database.db.update(products).set({ countInStock: 4 }).where(eq(products.id, other.id));

    const buyer = await signedIn(a.app);
    expect((await placeOrder(a.app, buyer, orderBody([{ product: ordered.id, qty: 1 }]))).statusCode).toBe(201);
    const t0 = Date.now();
    while ((await stockIn(b, ordered.id)) !== 4 && Date.now() - t0 < 1000) await new Promise((r) => setTimeout(r, 5));
    expect(await stockIn(b, ordered.id)).toBe(4);
    expect(await stockIn(b, other.id)).toBe(5); // kept in the other instance: the order did not show it
  });

  it('a product edited through one instance is seen fresh through the other', async () => {
    const product = await createProduct(a.database.db, { name: 'Old name' });
    const admin = await signedIn(a.app, { isAdmin: true });
    const url = `/api/products/${product.id}`;
    // both instances keep the answer
    expect((await a.app.inject({ url })).json().name).toBe('Old name');
    expect((await b.inject({ url })).json().name).toBe('Old name');
    const list = (await b.inject({ url: '/api/products' })).json();
    expect(list.products.find((p: { _id: string }) => p._id === product.id)?.name).toBe('Old name');

    const put = await a.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { name: 'New name' } });
    expect(put.statusCode).toBe(200);

    // the other instance hears of the write through Redis within milliseconds (its own answers live 5 s)
    const t0 = Date.now();
    while ((await b.inject({ url })).json().name !== 'New name' && Date.now() - t0 < 1000)
      await new Promise((r) => setTimeout(r, 5));
    expect((await b.inject({ url })).json().name).toBe('New name');
    const fresh = (await b.inject({ url: '/api/products' })).json();
    expect(fresh.products.find((p: { _id: string }) => p._id === product.id)?.name).toBe('New name');
  });
});
