import { existsSync, mkdtempSync, openSync, readSync, closeSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { htmlToText } from '@store/shared';
import { FOLDER_RE } from '#server/lib/images.ts';
import { openDatabase, type Database } from '../client.ts';
import { categories, productImages, productVariants, products, reviews, users } from '../schema/index.ts';
import { buildDemoCatalogue, DEMO_CATEGORIES, seedDemoIfEmpty } from './demo.ts';

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
