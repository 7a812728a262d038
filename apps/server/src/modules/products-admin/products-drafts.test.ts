import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_WIDTHS } from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { products } from '#server/db/schema/index.ts';
import { createAccount } from '#test/accounts.ts';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { multipart, testImage } from '#test/multipart.ts';
import { DRAFT_TTL_MS, removeStaleDrafts } from './draft-cleanup.ts';

let t: TestContext;
type Auth = { headers: Record<string, string> };
let admin: Auth;
let shopper: Auth;
const anon: Auth = { headers: {} };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: Auth = anon, payload?: object) =>
  t.app.inject({ method, url, headers: auth.headers, ...(payload ? { payload } : {}) });
const create = async () => (await call('POST', '/api/products', admin)).json();
const statusOf = async (id: string) =>
  (await t.app.db.select({ s: products.status }).from(products).where(eq(products.id, id)))[0]?.s;
const uploadsDir = () => path.join(t.app.config.dataDir, 'uploads');
/** The sweep as the server runs it, on this test app's uploads directory. */
const sweep = (log = { warn: vi.fn() }) => removeStaleDrafts(t.app.db, { uploadsDir: uploadsDir(), log });

describe('draft products (admin side)', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
  });
  afterAll(async () => t?.close());

  it('POST makes a draft that admins read with its status', async () => {
    const p = await create();
    expect(p).toMatchObject({ status: 'draft', name: 'Sample name', price: 0 });
    expect(await statusOf(p._id)).toBe('draft');
    expect((await call('GET', `/api/admin/products/${p._id}`, admin)).json()).toMatchObject({
      _id: p._id,
      status: 'draft',
    });
    const list = (await call('GET', '/api/admin/products?status=draft&pageSize=100', admin)).json();
    expect(list.products.map((r: { _id: string }) => r._id)).toContain(p._id);
    expect(list.products.every((r: { status: string }) => r.status === 'draft')).toBe(true);
  });

  it('a save that names no status publishes a draft, once it has a real name and a price', async () => {
    const p = await create();
    // the placeholder name, price 0: refused, and the product stays a draft with nothing changed
    let res = await call('PUT', `/api/products/${p._id}`, admin, { brand: 'Lumen' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: "Give the product a real name (not 'Sample name') and a price above 0 before publishing",
      code: 'BAD_REQUEST',
    });
    res = await call('PUT', `/api/products/${p._id}`, admin, { name: 'Desk Lamp' });
    expect(res.json().message).toBe('Set a price above 0 before publishing');
    res = await call('PUT', `/api/products/${p._id}`, admin, { price: 25, name: 'sample NAME' });
    expect(res.json().message).toBe("Give the product a real name before publishing (not 'Sample name')");
    expect(await statusOf(p._id)).toBe('draft');
    expect((await call('GET', `/api/admin/products/${p._id}`, admin)).json()).toMatchObject({
      brand: 'Sample brand',
      name: 'Sample name',
    });

    res = await call('PUT', `/api/products/${p._id}`, admin, { name: 'Desk Lamp', price: 25 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', name: 'Desk Lamp', price: 25 });
    // an active product stays active on a save that names no status
    res = await call('PUT', `/api/products/${p._id}`, admin, { brand: 'Lumen' });
    expect(res.json()).toMatchObject({ status: 'active', brand: 'Lumen' });
    // and cannot lose its price while active
    res = await call('PUT', `/api/products/${p._id}`, admin, { price: 0 });
    expect(res.statusCode).toBe(400);
    expect(await statusOf(p._id)).toBe('active');
  });

  it('"Save as draft" keeps a product out of the shop whatever its fields; an active one can go back to draft', async () => {
    const p = await create();
    let res = await call('PUT', `/api/products/${p._id}`, admin, { brand: 'Work in progress', status: 'draft' });
    expect(res.json()).toMatchObject({ status: 'draft', brand: 'Work in progress' });
    res = await call('PUT', `/api/products/${p._id}`, admin, { name: 'Mug', price: 8, status: 'active' });
    expect(res.json().status).toBe('active');
    res = await call('PUT', `/api/products/${p._id}`, admin, { status: 'draft' });
    expect(res.json().status).toBe('draft');
    res = await call('PUT', `/api/products/${p._id}`, admin, { status: 'archived' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Status must be 'draft' or 'active'");
  });

  it('the gallery call never publishes a draft', async () => {
    const p = await create();
    const res = await call('PUT', `/api/products/image/${p._id}`, admin, { imageFolderName: 'sample-name' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'draft', imageFolderName: 'sample-name' });
  });

  it('removes drafts never published and untouched for a day, and nothing else', async () => {
    const old = new Date(Date.now() - DRAFT_TTL_MS - 60_000);
    const stale = await createProduct(t.app.db, { status: 'draft', publishedAt: null, updatedAt: old });
    const fresh = await createProduct(t.app.db, { status: 'draft', publishedAt: null });
    // once published, a product is never swept, even back in draft
    const wasPublished = await createProduct(t.app.db, { status: 'draft', publishedAt: old, updatedAt: old });
    const active = await createProduct(t.app.db, { updatedAt: old });
    const removed = await sweep();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await statusOf(stale.id)).toBeUndefined();
    for (const kept of [fresh, wasPublished, active]) expect(await statusOf(kept.id)).toBeDefined();
    // a draft an admin saved today is kept
    const p = await create();
    await call('PUT', `/api/products/${p._id}`, admin, { brand: 'x', status: 'draft' });
    await sweep();
    expect(await statusOf(p._id)).toBe('draft');
  });

  it('the cleanup sweep is safe with several processes at once (each draft removed once)', async () => {
    const old = new Date(Date.now() - DRAFT_TTL_MS - 60_000);
    for (let i = 0; i < 30; i++) await createProduct(t.app.db, { status: 'draft', publishedAt: null, updatedAt: old });
    const counts = await Promise.all([sweep(), sweep()]);
    expect(counts[0]! + counts[1]!).toBe(30);
    const [left] = await t.app.db
      .execute<{ n: number }>(
        sql`select count(*)::int as n from products where status = 'draft' and published_at is null and updated_at < ${old.toISOString()}::timestamptz + interval '1 minute'`,
      )
      .then((r) => r.rows);
    expect(left?.n).toBe(0);
  });
});

describe('admin product list', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
  });
  afterAll(async () => t?.close());

  it('is for admins only', async () => {
    expect((await call('GET', '/api/admin/products')).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/products', shopper)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/products/${'a'.repeat(24)}`, shopper)).statusCode).toBe(403);
  });

  it('shows stock (own pool plus variants with their own), SKUs, status and category; sorts on the server', async () => {
    const cat = await createCategory(t.app.db, { name: 'Sort Lamps' });
    const a = await createProduct(t.app.db, {
      name: 'Sort Alpha',
      brand: 'Zeta',
      priceCents: 3000,
      countInStock: 50,
      categoryId: cat.id,
      variants: [
        { name: 'Red', countInStock: 4, sku: 'ALPHA-RED' },
        { name: 'Blue', countInStock: 6, sku: 'ALPHA-BLUE' },
      ],
    });
    const b = await createProduct(t.app.db, {
      name: 'Sort Bravo',
      brand: 'Alpha',
      priceCents: 1000,
      countInStock: 3,
      categoryId: cat.id,
      variants: [
        { name: 'Green', sku: 'BRAVO-G' },
        { name: 'Grey', countInStock: 20 },
      ],
    });
    const c = await createProduct(t.app.db, {
      name: 'Sort Charlie',
      brand: 'Mid',
      priceCents: 2000,
      countInStock: 100,
      categoryId: cat.id,
      status: 'draft',
    });
    const q = async (s: string) =>
      (await call('GET', `/api/admin/products?category=${cat.id}&${s}`, admin)).json() as {
        products: { _id: string; name: string; stock: number; lowStock: boolean; skus: string[]; status: string }[];
        total: number;
      };
    const byName = await q('sortBy=name&order=asc');
    expect(byName.products.map((p) => p.name)).toEqual(['Sort Alpha', 'Sort Bravo', 'Sort Charlie']);
    const rows = new Map(byName.products.map((p) => [p._id, p]));
    // every variant has its own stock: the product's pool sells nothing
    expect(rows.get(a.id)).toMatchObject({ stock: 10, lowStock: true, skus: ['ALPHA-RED', 'ALPHA-BLUE'] });
    // one variant draws on the pool: pool + the other's own
    expect(rows.get(b.id)).toMatchObject({ stock: 23, lowStock: true, skus: ['BRAVO-G'], status: 'active' });
    expect(rows.get(c.id)).toMatchObject({ stock: 100, lowStock: false, skus: [], status: 'draft' });
    expect(rows.get(a.id)).toMatchObject({ category: 'Sort Lamps', price: 30 });

    const names = async (s: string) => (await q(s)).products.map((p) => p.name.replace('Sort ', ''));
    expect(await names('sortBy=name&order=desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(await names('sortBy=price&order=asc')).toEqual(['Bravo', 'Charlie', 'Alpha']);
    expect(await names('sortBy=price&order=desc')).toEqual(['Alpha', 'Charlie', 'Bravo']);
    expect(await names('sortBy=stock&order=asc')).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await names('sortBy=stock&order=desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(await names('sortBy=brand&order=asc')).toEqual(['Bravo', 'Charlie', 'Alpha']);
    expect((await names('sortBy=status&order=desc'))[0]).toBe('Charlie');
    expect(await names('status=active&sortBy=name')).toEqual(['Alpha', 'Bravo']);
    expect(await names('sku=alpha-b')).toEqual(['Alpha']);
    const paged = await q('sortBy=name&pageSize=2&pageNumber=2');
    expect(paged.products.map((p) => p.name)).toEqual(['Sort Charlie']);
    expect((await call('GET', '/api/admin/products?sortBy=rating', admin)).statusCode).toBe(400);
  });

  it('sorts by walking an index, not by sorting the table', async () => {
    // a tiny test table would be scanned and sorted anyway: the planner is told to avoid scans
    for (const s of ['enable_seqscan', 'enable_bitmapscan']) await t.app.db.execute(sql.raw(`set ${s} = off`));
    try {
      for (const order of [
        'lower(p.name), p.id',
        'p.price_cents desc, p.id desc',
        'p.status, p.created_at desc nulls last, p.id desc nulls last',
        'p.status desc, p.created_at asc nulls first, p.id asc nulls first',
        'lower(p.brand), p.id',
      ]) {
        const plan = await t.app.db.execute<{ 'QUERY PLAN': string }>(
          sql.raw(`explain select p.id from products p order by ${order} limit 24`),
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, order).toMatch(/Index (Only )?Scan/);
        // a full sort is refused; the brand index orders by brand and only ties are sorted (incremental)
        expect(text, order).not.toMatch(/^\s*(->\s*)?Sort\s+\(/m);
      }
    } finally {
      for (const s of ['enable_seqscan', 'enable_bitmapscan']) await t.app.db.execute(sql.raw(`reset ${s}`));
    }
  });
});

describe('bulk product actions', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
  });
  afterAll(async () => t?.close());
  const bulk = (payload: object, auth: Auth = admin) => call('POST', '/api/products/bulk', auth, payload);

  it('is for admins only, and a refused caller changes nothing', async () => {
    const p = await createProduct(t.app.db);
    expect((await bulk({ ids: [p.id], action: 'delete' }, anon)).statusCode).toBe(401);
    expect((await bulk({ ids: [p.id], action: 'delete' }, shopper)).statusCode).toBe(403);
    expect(await statusOf(p.id)).toBe('active');
  });

  it('sets draft and active, moves to a category, deletes; answering how many', async () => {
    const cat = await createCategory(t.app.db, { name: 'Bulk Target' });
    const a = await createProduct(t.app.db, { name: 'Bulk A' });
    const b = await createProduct(t.app.db, { name: 'Bulk B' });
    let res = await bulk({ ids: [a.id, b.id], action: 'draft' });
    expect(res.json()).toEqual({ message: '2 products set to draft', count: 2 });
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['draft', 'draft']);
    res = await bulk({ ids: [a.id, b.id], action: 'activate' });
    expect(res.json()).toEqual({ message: '2 products published', count: 2 });
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['active', 'active']);
    res = await bulk({ ids: [a.id], action: 'category', category: 'bulk target' });
    expect(res.json().count).toBe(1);
    expect((await call('GET', `/api/admin/products/${a.id}`, admin)).json().categoryId).toBe(cat.id);
    res = await bulk({ ids: [a.id], action: 'category', category: null });
    expect((await call('GET', `/api/admin/products/${a.id}`, admin)).json().categoryId).toBeNull();
    expect((await bulk({ ids: [a.id], action: 'category' })).statusCode).toBe(400);
    expect((await bulk({ ids: [a.id], action: 'category', category: 'Nope' })).json().message).toBe(
      'Category not found',
    );
    res = await bulk({ ids: [a.id, b.id], action: 'delete' });
    expect(res.json()).toEqual({ message: '2 products deleted', count: 2 });
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual([undefined, undefined]);
  });

  it('is all or nothing: one missing product, or one that cannot be published, changes none', async () => {
    const a = await createProduct(t.app.db, { name: 'Keep A' });
    const b = await createProduct(t.app.db, { name: 'Keep B' });
    let res = await bulk({ ids: [a.id, b.id, 'f'.repeat(24)], action: 'delete' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Some of the selected products no longer exist; nothing was changed');
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['active', 'active']);

    await bulk({ ids: [a.id], action: 'draft' });
    const sample = await create();
    res = await bulk({ ids: [a.id, sample._id], action: 'activate' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Sample name');
    expect([await statusOf(a.id), await statusOf(sample._id)]).toEqual(['draft', 'draft']);
    expect((await bulk({ ids: [], action: 'delete' })).json().message).toBe('Select at least one product');
    expect((await bulk({ ids: [a.id], action: 'explode' })).statusCode).toBe(400);
  });
});

describe('uploads that attach to a product', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
  });
  afterAll(async () => t?.close());

  const upload = async (folder: string, productId: string, names: string[]) => {
    const png = await testImage('png');
    const body = multipart(names.map((n) => ({ field: 'files', data: png, filename: n, contentType: 'image/png' })));
    return t.app.inject({
      method: 'POST',
      url: `/api/upload/${folder}?product=${productId}`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
  };

  it('appends the files to the gallery in upload order; the first becomes the main image when there is none', async () => {
    const p = await create();
    const first = await upload('sample-name', p._id, ['a.png', 'b.png']);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    const srcs = body.files.map((f: { src: string }) => f.src);
    expect(srcs).toHaveLength(2);
    expect(body.product).toMatchObject({ image: srcs[0], imageFolderName: 'sample-name', status: 'draft' });
    expect(body.product.imageB.map((i: { src: string }) => i.src)).toEqual(srcs);

    const second = (await upload('other-folder', p._id, ['c.png'])).json();
    const all = [...srcs, second.files[0].src];
    // the main image and the folder stay as they were
    expect(second.product).toMatchObject({ image: srcs[0], imageFolderName: 'sample-name' });
    expect(second.product.imageB.map((i: { src: string }) => i.src)).toEqual(all);
    expect((await upload('x', 'f'.repeat(24), ['d.png'])).statusCode).toBe(404);
  });

  /** Every width of the image at `src` on disk: the largest is `{base}.webp`, the others `{base}-{w}.webp`. */
  const filesOf = (src: string) => {
    const main = path.join(uploadsDir(), src.slice('/uploads/'.length));
    const smaller = IMAGE_WIDTHS.filter((w) => w < Math.max(...IMAGE_WIDTHS));
    return [main, ...smaller.map((w) => main.replace(/\.webp$/, `-${w}.webp`))];
  };
  const makeStale = (id: string) =>
    t.app.db
      .update(products)
      .set({ updatedAt: new Date(Date.now() - DRAFT_TTL_MS - 60_000) })
      .where(eq(products.id, id));

  it('the cleanup sweep removes the image files of the drafts it removes, but none another product uses', async () => {
    const draft = await create();
    const uploaded = (await upload('sweep-test', draft._id, ['only.png', 'gallery.png', 'variant.png'])).json();
    const [only, gallery, variant] = uploaded.files.map((f: { src: string }) => f.src) as [string, string, string];
    // the same picture uploaded for a live product is the same file; another shows one in a variant
    const live = await create();
    await call('PUT', `/api/products/${live._id}`, admin, { name: 'Live Lamp', price: 12 });
    const again = (await upload('sweep-test', live._id, ['gallery.png'])).json();
    expect(again.files[0].src).toBe(gallery);
    const withVariant = await createProduct(t.app.db, { variants: [{ name: 'Red', src: variant }] });
    // a stale draft whose srcs point out of the uploads directory: those files are never touched
    const outside = path.join(t.app.config.dataDir, 'outside.webp');
    const escape = path.join(t.app.config.dataDir, 'escape.webp');
    writeFileSync(outside, 'keep');
    writeFileSync(escape, 'keep');
    const sneaky = await createProduct(t.app.db, {
      status: 'draft',
      publishedAt: null,
      image: '/uploads/../outside.webp',
      images: ['/uploads/sweep-test/../../escape.webp', 'https://cdn.example.test/x.webp'],
    });
    await makeStale(draft._id);
    await makeStale(sneaky.id);
    for (const src of [only, gallery, variant]) for (const f of filesOf(src)) expect(existsSync(f), f).toBe(true);

    const log = { warn: vi.fn() };
    expect(await sweep(log)).toBeGreaterThanOrEqual(2);
    expect(await statusOf(draft._id)).toBeUndefined();
    expect(await statusOf(sneaky.id)).toBeUndefined();
    for (const f of filesOf(only)) expect(existsSync(f), f).toBe(false);
    for (const src of [gallery, variant]) for (const f of filesOf(src)) expect(existsSync(f), f).toBe(true);
    expect(existsSync(outside) && existsSync(escape)).toBe(true);
    expect(log.warn).not.toHaveBeenCalled();
    // the products that share them still show them
    const liveNow = (await call('GET', `/api/admin/products/${live._id}`, admin)).json();
    expect(liveNow.imageB.map((i: { src: string }) => i.src)).toEqual([gallery]);
    expect(await statusOf(withVariant.id)).toBe('active');
  });

  it('a file the sweep cannot remove is logged and the sweep goes on', async () => {
    const stuck = await create();
    const fine = await create();
    const stuckSrc = (await upload('sweep-fail', stuck._id, ['stuck.png'])).json().files[0].src as string;
    const fineSrc = (await upload('sweep-fail', fine._id, ['fine.png'])).json().files[0].src as string;
    // one width of the stuck image is a folder with something in it: removing it as a file fails
    const blocker = filesOf(stuckSrc)[1]!;
    rmSync(blocker);
    mkdirSync(blocker);
    writeFileSync(path.join(blocker, 'inside'), 'x');
    await makeStale(stuck._id);
    await makeStale(fine._id);

    const log = { warn: vi.fn() };
    expect(await sweep(log)).toBeGreaterThanOrEqual(2);
    expect(await statusOf(stuck._id)).toBeUndefined();
    expect(await statusOf(fine._id)).toBeUndefined();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![0]).toMatchObject({ src: stuckSrc });
    for (const f of filesOf(fineSrc)) expect(existsSync(f), f).toBe(false);
    expect(existsSync(blocker)).toBe(true);
  });
});
