import { existsSync, mkdtempSync, openSync, readSync, closeSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { htmlToText, taxCents } from '@store/shared';
import { adminQuery, adminUrl, randomDbName, templateName, testDbKind, withDatabase } from '#test/test-db.ts';
import { FOLDER_RE } from '#server/lib/images.ts';
import { adminStatsRepository } from '#server/modules/admin-stats/admin-stats.repository.ts';
import { openDatabase, type Database } from '../client.ts';
import { categories, productImages, productVariants, products, reviews, users } from '../schema/index.ts';
import { copyField } from './copy.ts';
import { buildDemoCatalogue, DEMO_CATEGORIES, seedDemoIfEmpty } from './demo.ts';
import { seedLarge } from './large.ts';

const PGLITE_TEMPLATE = path.resolve(import.meta.dirname, '../../../../../.test-data/pglite-template.bin');

function isWebp(file: string): boolean {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(12);
  readSync(fd, head, 0, 12, 0);
  closeSync(fd);
  return head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP';
}

describe('demo catalogue data (pure)', () => {
  const { categories: tree, products: list } = buildDemoCatalogue();

  it('is deterministic', () => {
    expect(JSON.stringify(buildDemoCatalogue())).toBe(JSON.stringify({ categories: tree, products: list }));
  });

  it('keeps the catalogue promises', () => {
    expect(tree.length).toBeGreaterThanOrEqual(4);
    expect(tree.length + tree.reduce((n, c) => n + c.children.length, 0)).toBeGreaterThanOrEqual(8);
    expect(list.length).toBeGreaterThanOrEqual(64);
    const childSlugs = new Set(DEMO_CATEGORIES.flatMap((c) => c.children.map((k) => k.slug)));
    expect(list.filter((p) => childSlugs.has(p.categorySlug)).length).toBeGreaterThan(list.length * 0.9);
    expect(list.filter((p) => p.name.length > 40).length).toBeGreaterThanOrEqual(6);
    expect(list.some((p) => p.name.length > 60)).toBe(true);
    expect(list.filter((p) => p.countInStock === 0).length).toBeGreaterThanOrEqual(5);
    expect(list.filter((p) => p.colors.length >= 2 && p.colors.length <= 4).length).toBeGreaterThanOrEqual(15);
    expect(list.filter((p) => p.colors.some((c) => c.priceCents !== null)).length).toBeGreaterThanOrEqual(5);
    expect(list.filter((p) => p.video).length).toBeGreaterThanOrEqual(3);
    expect(list.some((p) => p.reviews.length === 0)).toBe(true);
    expect(new Set(list.map((p) => p.slug)).size).toBe(list.length);
    expect(new Set(list.map((p) => p.imageFolderName)).size).toBe(list.length);
    for (const p of list) {
      expect(p.priceCents).toBeGreaterThanOrEqual(999);
      expect(p.shots.length).toBeGreaterThanOrEqual(2);
      expect(p.shots.length).toBeLessThanOrEqual(4);
      expect(p.imageFolderName).toMatch(FOLDER_RE);
      expect(p.description).not.toMatch(/<script|on\w+=/i);
      expect(p.description).toMatch(/<ul><li><strong>/);
      if (p.countInStock) expect(p.countInStock).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('seedDemoIfEmpty', () => {
  let database: Database;
  let dataDir: string;
  let uploadsDir: string;
  const info = vi.fn();
  const log = { info, warn: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as FastifyBaseLogger;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-seed-test-'));
    uploadsDir = path.join(dataDir, 'uploads');
    // the api project's global setup leaves a migrated template; without it, a fresh data dir (slower)
    database = existsSync(PGLITE_TEMPLATE)
      ? await openDatabase({ pgliteDump: new Blob([readFileSync(PGLITE_TEMPLATE)]) })
      : await openDatabase({ dataDir: path.join(dataDir, 'data') });
    await seedDemoIfEmpty(database.db, uploadsDir, log);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads categories as a tree and products mostly in child categories', async () => {
    const cats = await database.db.select().from(categories);
    expect(cats.length).toBeGreaterThanOrEqual(8);
    const roots = cats.filter((c) => c.parentId === null);
    expect(roots.length).toBeGreaterThanOrEqual(2);
    const rootIds = new Set(roots.map((r) => r.id));
    const children = cats.filter((c) => c.parentId !== null);
    expect(children.length).toBeGreaterThanOrEqual(4);
    for (const c of children) expect(rootIds.has(c.parentId as string)).toBe(true);
    const list = await database.db.select().from(products);
    expect(list.length).toBeGreaterThanOrEqual(60);
    expect(list.filter((p) => !rootIds.has(p.categoryId as string)).length).toBeGreaterThan(list.length * 0.9);
    // one line announcing the slow first start, one when the catalogue is in
    expect(info).toHaveBeenCalledTimes(2);
    expect(info.mock.calls[1]?.[1]).toBe('demo catalogue loaded');
  });

  it('stores real WebP images for every product, gallery image and variant', async () => {
    const list = await database.db.select().from(products);
    const gallery = await database.db.select().from(productImages).orderBy(productImages.position);
    const variants = await database.db.select().from(productVariants);
    const fileOf = (src: string) => {
      expect(src).toMatch(/^\/uploads\/[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}\/[a-z0-9_-]+\.webp$/);
      return path.join(uploadsDir, src.slice('/uploads/'.length));
    };
    for (const src of new Set([
      ...list.map((p) => p.image),
      ...gallery.map((g) => g.src),
      ...variants.map((v) => v.src),
    ])) {
      const file = fileOf(src);
      expect(existsSync(file), file).toBe(true);
      expect(isWebp(file), file).toBe(true);
      expect(existsSync(file.replace(/\.webp$/, '-320.webp'))).toBe(true);
    }
    for (const p of list) {
      const own = gallery.filter((g) => g.productId === p.id);
      expect(own.length).toBeGreaterThanOrEqual(2);
      expect(own.length).toBeLessThanOrEqual(4);
      expect(own[0]?.src).toBe(p.image);
      expect(p.image.startsWith(`/uploads/${p.imageFolderName}/`)).toBe(true);
      expect(p.descriptionText).toBe(htmlToText(p.description));
    }
  });

  it('has colour variants (some with their own price), out-of-stock items, long names and videos', async () => {
    const list = await database.db.select().from(products);
    const variants = await database.db.select().from(productVariants);
    const byProduct = new Map<string, typeof variants>();
    for (const v of variants) byProduct.set(v.productId, [...(byProduct.get(v.productId) ?? []), v]);
    const withVariants = [...byProduct.values()];
    expect(withVariants.filter((vs) => vs.length >= 2 && vs.length <= 4).length).toBeGreaterThanOrEqual(15);
    expect(withVariants.filter((vs) => vs.some((v) => v.priceCents !== null)).length).toBeGreaterThanOrEqual(5);
    for (const vs of withVariants) expect(new Set(vs.map((v) => v.src)).size).toBe(vs.length);
    expect(list.filter((p) => p.countInStock === 0).length).toBeGreaterThanOrEqual(5);
    expect(list.filter((p) => p.name.length > 40).length).toBeGreaterThanOrEqual(6);
    expect(
      list.filter((p) => /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]{11}$/.test(p.video)).length,
    ).toBeGreaterThanOrEqual(3);
    const ages = list.map((p) => p.createdAt.getTime());
    expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(30 * 86_400_000);
  });

  it('keeps rating and numReviews consistent with the review rows', async () => {
    const list = await database.db.select().from(products);
    const rows = await database.db.select().from(reviews);
    for (const p of list) {
      const own = rows.filter((r) => r.productId === p.id);
      expect(p.numReviews).toBe(own.length);
      const avg = own.length ? Math.round((own.reduce((s, r) => s + r.rating, 0) / own.length) * 100) / 100 : 0;
      expect(p.rating).toBeCloseTo(avg, 2);
    }
    expect(list.some((p) => p.numReviews === 0)).toBe(true);
    expect(rows.length).toBeGreaterThan(list.length);
    const shoppers = await database.db.select().from(users).where(eq(users.isAdmin, false));
    expect(shoppers.length).toBeGreaterThanOrEqual(10);
    for (const u of shoppers) {
      expect(u.isActive).toBe(true);
      expect(u.email).toBe(u.email?.toLowerCase());
    }
  });

  it('does nothing on a second call', async () => {
    const counts = async () => ({
      products: (await database.db.select({ n: count() }).from(products))[0]?.n,
      categories: (await database.db.select({ n: count() }).from(categories))[0]?.n,
      users: (await database.db.select({ n: count() }).from(users))[0]?.n,
    });
    const before = await counts();
    await seedDemoIfEmpty(database.db, uploadsDir, log);
    expect(await counts()).toEqual(before);
    expect(info).toHaveBeenCalledTimes(2);
  });
});

describe('COPY text format', () => {
  it('escapes what the format gives a meaning to and spells nulls, booleans, dates and JSON', () => {
    expect(copyField('plain words')).toBe('plain words');
    expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    // a value that reads like the null marker stays text
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField(null)).toBe('\\N');
    expect(copyField(undefined)).toBe('\\N');
    expect(copyField(true)).toBe('t');
    expect(copyField(false)).toBe('f');
    expect(copyField(1234)).toBe('1234');
    expect(copyField(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)))).toBe('2024-01-02T03:04:05.006Z');
    expect(copyField({ say: 'a "quoted"\tword\\' })).toBe('{"say":"a \\\\"quoted\\\\"\\\\tword\\\\\\\\"}');
  });
});

/**
 * The seed CLI's synthetic catalogue and orders: on PostgreSQL through COPY (secondary indexes set aside and
 * built again, triggers off), on PGlite through INSERTs. Either way the data must hold together.
 */
describe(`seedLarge (${testDbKind() === 'postgres' ? 'COPY on PostgreSQL' : 'INSERTs on PGlite'})`, () => {
  const PRODUCTS = 1500;
  const ORDERS = 2000;
  let database: Database;
  let drop = async () => {};
  let dir: string;
  let marksBefore: { sales: string; stock: string; orders: string }[];
  let indexesBefore: { name: string; def: string }[];
  const lines: string[] = [];

  const rows = async <T>(query: ReturnType<typeof sql>) => (await database.db.execute(query)).rows as T[];
  const one = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: unknown }>(query))[0]?.n);
  const marks = () =>
    rows<{ sales: string; stock: string; orders: string }>(
      sql`select sales::text, stock::text, orders::text from change_marks order by slot`,
    );
  const indexes = () =>
    rows<{ name: string; def: string }>(sql`
      select indexname as name, indexdef as def from pg_indexes
      where schemaname = current_schema() and tablename in ('products', 'product_images', 'product_variants',
        'reviews', 'orders', 'order_items', 'tracking_numbers', 'payments', 'order_events')
      order by indexname`);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'store-seed-large-'));
    let databaseUrl: string | undefined;
    if (testDbKind() === 'postgres') {
      const name = randomDbName();
      // CREATE DATABASE … TEMPLATE fails while another file is copying the same template: retry briefly
      for (let attempt = 0; ; attempt++) {
        try {
          await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`);
          break;
        } catch (err) {
          if (attempt > 20) throw err;
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
        }
      }
      databaseUrl = withDatabase(adminUrl(), name);
      database = await openDatabase({ databaseUrl, poolSize: 2 });
      drop = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } else {
      database = existsSync(PGLITE_TEMPLATE)
        ? await openDatabase({ pgliteDump: new Blob([readFileSync(PGLITE_TEMPLATE)]) })
        : await openDatabase({ dataDir: path.join(dir, 'data') });
    }
    marksBefore = await marks();
    indexesBefore = await indexes();
    const result = await seedLarge(database.db, {
      products: PRODUCTS,
      orders: ORDERS,
      reset: false,
      seed: 7,
      uploadsDir: path.join(dir, 'uploads'),
      databaseUrl,
      progress: (line) => lines.push(line),
    });
    expect(result).toEqual({ products: PRODUCTS, orders: ORDERS });
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads every table, and on PostgreSQL builds the indexes it set aside exactly as they were', async () => {
    expect(await one(sql`select count(*) as n from products`)).toBe(PRODUCTS);
    expect(await one(sql`select count(*) as n from orders`)).toBe(ORDERS);
    expect(await one(sql`select count(*) as n from product_images`)).toBeGreaterThanOrEqual(PRODUCTS);
    expect(await one(sql`select count(*) as n from product_variants`)).toBeGreaterThan(PRODUCTS / 4);
    expect(await one(sql`select count(*) as n from reviews`)).toBeGreaterThan(PRODUCTS / 10);
    const items = await one(sql`select count(*) as n from order_items`);
    expect(items).toBeGreaterThanOrEqual(ORDERS);
    expect(items).toBeLessThanOrEqual(3 * ORDERS);
    expect(await indexes()).toEqual(indexesBefore);
    if (testDbKind() === 'postgres') {
      expect(lines.some((l) => /secondary indexes set aside/.test(l))).toBe(true);
      expect(lines.some((l) => /^index products_search_idx on products: [\d.]+ s$/.test(l))).toBe(true);
      expect(lines.some((l) => /^VACUUM \(ANALYZE\) of 9 tables/.test(l))).toBe(true);
    }
    expect(lines.some((l) => /^orders: 2000\/2000 \([\d.]+ s, \d+ orders\/s, \d+ rows, \d+ rows\/s\)$/.test(l))).toBe(
      true,
    );
  });

  it('points every line of every order at an existing product (and variant of it)', async () => {
    expect(
      await one(sql`select count(*) as n from order_items i left join products p on p.id = i.product_id
        where p.id is null`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) as n from order_items i left join product_variants v on v.id = i.variant_id
        where i.variant_id is not null and (v.id is null or v.product_id <> i.product_id)`),
    ).toBe(0);
    for (const table of ['product_images', 'product_variants', 'reviews']) {
      expect(
        await one(sql`select count(*) as n from ${sql.identifier(table)} x left join products p on p.id = x.product_id
          where p.id is null`),
      ).toBe(0);
    }
    for (const table of ['order_items', 'tracking_numbers', 'payments', 'order_events']) {
      expect(
        await one(sql`select count(*) as n from ${sql.identifier(table)} x left join orders o on o.id = x.order_id
          where o.id is null`),
      ).toBe(0);
    }
  });

  it('keeps stock, prices, totals and ratings sane', async () => {
    expect(await one(sql`select count(*) as n from products where count_in_stock < 0 or price_cents < 900`)).toBe(0);
    // the can-be-bought flag (kept by triggers a bulk load turns off) follows its rule on every product
    expect(
      await one(
        sql`select count(*) as n from products p where in_stock is distinct from product_in_stock(p.id, p.count_in_stock)`,
      ),
    ).toBe(0);
    expect(await one(sql`select count(*) as n from products where in_stock`)).toBeGreaterThan(0);
    expect(await one(sql`select count(*) as n from products where not in_stock`)).toBeGreaterThan(0);
    const orders = await rows<{ items: number; tax: number; total: number; lines: number; is_paid: boolean }>(sql`
      select o.items_cents as items, o.tax_cents as tax, o.total_cents as total, o.is_paid,
        (select sum(i.price_cents * i.qty) from order_items i where i.order_id = o.id)::int as lines
      from orders o`);
    for (const o of orders) {
      expect(o.lines).toBe(o.items);
      expect(o.tax).toBe(taxCents(o.items));
      expect(o.total).toBe(o.items + o.tax);
    }
    expect(
      await one(sql`select count(*) as n from products p where p.num_reviews <>
        (select count(*) from reviews r where r.product_id = p.id)`),
    ).toBe(0);
  });

  it('numbers the orders from the sequence in the order they were placed, with their history and payments', async () => {
    const numbered = await rows<{ n: number; at: string }>(
      sql`select order_number as n, created_at::text as at from orders order by order_number`,
    );
    expect(numbered.map((o) => o.n)).toEqual(Array.from({ length: ORDERS }, (_, i) => 1001 + i));
    const dates = numbered.map((o) => new Date(o.at).getTime());
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(await one(sql`select last_value as n from orders_number_seq`)).toBe(1000 + ORDERS);
    const paid = await one(sql`select count(*) as n from orders where is_paid`);
    expect(paid).toBeGreaterThan(ORDERS / 2);
    expect(
      await one(sql`select count(*) as n from payments p join orders o on o.id = p.order_id
        where o.is_paid and p.amount_cents = o.total_cents and p.provider_payment_id = o.payment_result->>'id'`),
    ).toBe(paid);
    const events = await rows<{ event: string; n: number }>(
      sql`select event, count(*)::int as n from order_events group by event order by event`,
    );
    expect(Object.fromEntries(events.map((e) => [e.event, e.n]))).toEqual({
      placed: ORDERS,
      paid,
      shipped: await one(sql`select count(*) as n from orders where is_shipped`),
      delivered: await one(sql`select count(*) as n from orders where is_delivered`),
      cancelled: await one(sql`select count(*) as n from orders where is_cancelled`),
    });
    // an unpaid order older than a day was expired, as the running store would have: none left to sweep
    expect(
      await one(sql`select count(*) as n from orders where not is_paid and not is_cancelled
        and created_at < now() - interval '1 day'`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) as n from orders where is_cancelled and (is_paid or cancelled_at is null)`),
    ).toBe(0);
    expect(await one(sql`select count(*) as n from tracking_numbers`)).toBe(
      await one(sql`select count(*) as n from orders where is_shipped`),
    );
  });

  it('finds seeded words through the full-text search vector', async () => {
    const [sample] = await rows<{ name: string }>(sql`select name from products order by name limit 1`);
    const word = sample!.name.split(' ').find((w) => /^[A-Za-z]{4,}$/.test(w)) ?? 'Waterproof';
    expect(
      await one(sql`select count(*) as n from products where search_vector @@ plainto_tsquery('english', ${word})`),
    ).toBeGreaterThan(0);
    expect(
      await one(
        sql`select count(*) as n from products where search_vector @@ plainto_tsquery('english', 'headphones')`,
      ),
    ).toBeGreaterThan(0);
  });

  it('moves the change marks, and the sales overview counts the seeded orders', async () => {
    const after = await marks();
    expect(after).toHaveLength(8);
    after.forEach((m, i) => {
      expect(m.sales).not.toBe(marksBefore[i]?.sales);
      expect(m.stock).not.toBe(marksBefore[i]?.stock);
      expect(m.orders).not.toBe(marksBefore[i]?.orders);
    });
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = { from: day(Date.now() - 200 * 86_400_000), to: day(Date.now() + 86_400_000) };
    const { totals } = await adminStatsRepository.byDay(database.db, range);
    expect(totals.orders).toBe(ORDERS);
    expect(totals.paidOrders).toBe(await one(sql`select count(*) as n from orders where is_paid`));
    expect(totals.grossCents).toBe(await one(sql`select sum(total_cents) as n from orders where is_paid`));
  });
});
