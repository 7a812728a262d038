/**
 * Synthetic catalogues for load and search testing (seed CLI): many products built from word lists,
 * sharing a few generated images, with variants and reviews, inserted ~1000 rows at a time.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { htmlToText, slugify } from '@store/shared';
import { storeImage } from '#server/lib/images.ts';
import { newId } from '#server/lib/ids.ts';
import type { Db } from '../client.ts';
import { categories, productImages, productVariants, products, reviews } from '../schema/index.ts';
import { COLOR_HEX, REVIEW_COMMENTS, SHIPPING_METHODS } from './demo-data.ts';
import { ICONS, type IconName } from './demo-icons.ts';
import { renderShot } from './demo-images.ts';
import { ensureDemoCategories } from './demo.ts';
import { ensureSyntheticShoppers, seedOrders, type Shopper } from './large-orders.ts';
import { BRANDS, COLOR_NAMES, MATERIALS, MODELS, SENTENCES, VOCABULARY, type Vocabulary } from './large-words.ts';
import { chunks, createRng, mapLimit, type Rng } from './random.ts';

export interface LargeSeedOptions {
  products: number;
  orders: number;
  reset: boolean;
  uploadsDir: string;
  /** PRNG seed: the same seed gives the same names, prices and reviews. */
  seed?: number;
  progress?: (line: string) => void;
}

export const BATCH = 1000;
const STOCK_FOLDER = 'seed-stock';
const STOCK_COLORS = ['Black', 'Blue'] as const;
const DAY_MS = 86_400_000;

/** Empties the catalogue and the orders (and everything hanging off them). */
export async function resetProductsAndOrders(db: Db): Promise<void> {
  await db.execute(sql`TRUNCATE TABLE products, orders CASCADE`);
}

const GIN_INDEXES = ['products_search_idx', 'products_name_trgm_idx'];

/**
 * The full-text and trigram indexes are built with fastupdate off (PGlite runs no autovacuum), which makes
 * every insert update them in place. For a bulk load: let inserts queue in the pending list, merge it
 * once at the end, and switch back. (SET fastupdate takes a lock that does not block reads or writes.)
 */
async function withBulkGinInserts<T>(db: Db, say: (line: string) => void, load: () => Promise<T>): Promise<T> {
  const setFastupdate = async (on: boolean) => {
    for (const name of GIN_INDEXES) {
      await db.execute(sql.raw(`ALTER INDEX IF EXISTS ${name} SET (fastupdate = ${on ? 'on' : 'off'})`));
    }
  };
  await setFastupdate(true);
  try {
    return await load();
  } finally {
    const merging = Date.now();
    for (const name of GIN_INDEXES) {
      await db.execute(sql.raw(`SELECT gin_clean_pending_list(c.oid) FROM pg_class c WHERE c.relname = '${name}'`));
    }
    await setFastupdate(false);
    say(`search indexes merged (${((Date.now() - merging) / 1000).toFixed(1)} s)`);
  }
}

/** One image per drawing and stock colour, made once and shared by every synthetic product. */
async function stockImages(uploadsDir: string, icons: IconName[]): Promise<Map<string, string>> {
  const jobs = icons.flatMap((icon) =>
    STOCK_COLORS.map((color) => ({ icon, color, base: `${icon}-${color.toLowerCase()}` })),
  );
  const srcs = new Map<string, string>();
  await mapLimit(jobs, 4, async ({ icon, color, base }, i) => {
    const src = `/uploads/${STOCK_FOLDER}/${base}.webp`;
    if (!existsSync(path.join(uploadsDir, STOCK_FOLDER, `${base}.webp`))) {
      const shot = {
        name: '',
        brand: '',
        icon,
        color: COLOR_HEX[color] ?? '#333',
        hue: (i * 47) % 360,
        view: 1 as const,
      };
      await storeImage(uploadsDir, STOCK_FOLDER, base, await renderShot(shot));
    }
    srcs.set(`${icon}/${color}`, src);
  });
  return srcs;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function describe(rng: Rng, name: string, brand: string, v: Vocabulary): string {
  const fill = (s: string) =>
    s
      .replace('{material}', rng.pick(MATERIALS))
      .replace('{adj}', rng.pick(v.adjectives).toLowerCase())
      .replace('{extra}', rng.pick(v.extras).toLowerCase())
      .replace('{brand}', brand);
  const [s1, s2] = rng.sample(SENTENCES, 2).map(fill);
  const items = rng
    .sample(v.extras, 3)
    .map((e) => `<li><strong>${esc(e)}</strong> included</li>`)
    .join('');
  return `<p><strong>${esc(name)}</strong> by ${esc(brand)}. ${esc(s1 ?? '')} ${esc(s2 ?? '')}</p><ul>${items}</ul>`;
}

function price(rng: Rng): number {
  const dollars = Math.round(Math.exp(Math.log(10) + rng.next() * (Math.log(1300) - Math.log(10))));
  return dollars * 100 - rng.pick([1, 1, 5, 100]);
}

interface Context {
  leaves: { id: string; v: Vocabulary; brands: string[] }[];
  images: Map<string, string>;
  shoppers: Shopper[];
  uniqueSlug: (base: string) => string;
  now: number;
}

interface Rows {
  products: (typeof products.$inferInsert)[];
  images: (typeof productImages.$inferInsert)[];
  variants: (typeof productVariants.$inferInsert)[];
  reviews: (typeof reviews.$inferInsert)[];
}

async function prepare(db: Db, opts: LargeSeedOptions, rng: Rng, say: (line: string) => void): Promise<Context> {
  const list = () =>
    db.select({ id: categories.id, slug: categories.slug, parentId: categories.parentId }).from(categories);
  let cats = await list();
  if (!cats.length) {
    await ensureDemoCategories(db);
    cats = await list();
    say(`created the demo category tree (${cats.length} categories)`);
  }
  const parents = new Set(cats.map((c) => c.parentId));
  const vocabularies = Object.values(VOCABULARY);
  // products go to leaf categories; each kind of product gets its own handful of brands
  const leaves = cats
    .filter((c) => !parents.has(c.id))
    .map((c) => {
      const v = VOCABULARY[c.slug] ?? rng.pick(vocabularies);
      const first = vocabularies.indexOf(v) * 5;
      return {
        id: c.id,
        v,
        brands: Array.from({ length: 6 }, (_, k) => BRANDS[(first + k) % BRANDS.length] as string),
      };
    });
  const icons = [...new Set(vocabularies.flatMap((v) => v.nouns.map(([, icon]) => icon)))].filter((i) => i in ICONS);
  const images = await stockImages(opts.uploadsDir, icons);
  const shoppers = await ensureSyntheticShoppers(db, 200);

  const counters = new Map<string, number>();
  const taken = new Set((await db.select({ slug: products.slug }).from(products)).map((r) => r.slug));
  const uniqueSlug = (base: string) => {
    let n = counters.get(base) ?? 1;
    let slug = n === 1 ? base : `${base}-${n}`;
    while (taken.has(slug)) slug = `${base}-${++n}`;
    counters.set(base, n + 1);
    taken.add(slug);
    return slug;
  };
  return { leaves, images, shoppers, uniqueSlug, now: Date.now() };
}

function addProduct(ctx: Context, rng: Rng, rows: Rows): void {
  const { id: categoryId, v, brands } = rng.pick(ctx.leaves);
  const [noun, icon] = rng.pick(v.nouns);
  const brand = rng.pick(brands);
  const model = rng.chance(0.6) ? ` ${rng.pick(MODELS)}${rng.chance(0.5) ? ` ${rng.int(2, 9)}` : ''}` : '';
  let name = `${rng.chance(0.4) ? `${brand} ` : ''}${rng.pick(v.adjectives)} ${noun}${model}`;
  if (rng.chance(0.35)) name += ` with ${rng.pick(v.extras)}`;
  const id = newId();
  const slug = ctx.uniqueSlug(slugify(name));
  const description = describe(rng, name, brand, v);
  const createdAt = new Date(ctx.now - rng.next() * 365 * DAY_MS);
  const priceCents = price(rng);
  const main = ctx.images.get(`${icon}/${rng.pick(STOCK_COLORS)}`) ?? '';
  const ratings = rng.chance(0.3)
    ? rng.sample(ctx.shoppers, rng.int(1, 4)).map((s) => ({ s, r: rng.int(rng.int(1, 4), 5) }))
    : [];
  rows.products.push({
    id,
    slug,
    name,
    priceCents,
    brand,
    categoryId,
    createdAt,
    description,
    updatedAt: createdAt,
    purchaseLink: `https://example.com/wholesale/${slugify(brand)}/${slug}`,
    image: main,
    imageFolderName: slug.length <= 60 ? slug : `${slug.slice(0, 50).replace(/-+$/, '')}-${id.slice(-8)}`,
    descriptionText: htmlToText(description),
    countInStock: rng.chance(0.08) ? 0 : rng.int(1, 200),
    shippingMethod: rng.pick(SHIPPING_METHODS),
    numReviews: ratings.length,
    rating: ratings.length ? Math.round((ratings.reduce((a, x) => a + x.r, 0) / ratings.length) * 100) / 100 : 0,
  });
  rows.images.push({ productId: id, src: main, position: 0 });
  for (const color of STOCK_COLORS) {
    const src = ctx.images.get(`${icon}/${color}`);
    if (src && src !== main && rng.chance(0.5)) rows.images.push({ productId: id, src, position: 1 });
  }
  rng.sample(COLOR_NAMES, rng.chance(0.5) ? 0 : rng.int(1, 3)).forEach((color, position) => {
    const src = ctx.images.get(`${icon}/${color}`) ?? main;
    const own = rng.chance(0.2) ? priceCents + rng.int(5, 30) * 100 : null;
    rows.variants.push({ productId: id, name: color, src, priceCents: own, position });
  });
  for (const { s, r } of ratings) {
    rows.reviews.push({
      productId: id,
      userId: s.id,
      name: `${s.firstName} ${s.lastName.slice(0, 1)}.`,
      rating: r,
      comment: rng.pick(REVIEW_COMMENTS[r] ?? ['Good.']),
      verifiedPurchase: rng.chance(0.5),
      createdAt: new Date(ctx.now - rng.next() * (ctx.now - createdAt.getTime())),
    });
  }
}

export async function seedLarge(db: Db, opts: LargeSeedOptions): Promise<{ products: number; orders: number }> {
  const say = opts.progress ?? (() => {});
  const rng = createRng(opts.seed ?? 42);
  if (opts.reset) {
    await resetProductsAndOrders(db);
    say('reset: products and orders emptied');
  }
  if (!opts.products && !opts.orders) return { products: 0, orders: 0 };
  const ctx = await prepare(db, opts, rng, say);
  const started = Date.now();
  if (opts.products > 0) {
    await withBulkGinInserts(db, say, async () => {
      for (let done = 0; done < opts.products; done += BATCH) {
        const rows: Rows = { products: [], images: [], variants: [], reviews: [] };
        for (let i = 0; i < Math.min(BATCH, opts.products - done); i++) addProduct(ctx, rng, rows);
        await db.transaction(async (tx) => {
          await tx.insert(products).values(rows.products);
          for (const batch of chunks(rows.images, BATCH)) await tx.insert(productImages).values(batch);
          for (const batch of chunks(rows.variants, BATCH)) await tx.insert(productVariants).values(batch);
          for (const batch of chunks(rows.reviews, BATCH)) await tx.insert(reviews).values(batch);
        });
        const made = done + rows.products.length;
        if (made % 10_000 === 0 || made === opts.products) {
          const s = (Date.now() - started) / 1000;
          say(`products: ${made}/${opts.products} (${s.toFixed(1)} s, ${Math.round(made / s)}/s)`);
        }
      }
    });
  }
  const orders = opts.orders > 0 ? await seedOrders(db, opts.orders, rng, ctx.shoppers, say) : 0;
  return { products: opts.products, orders };
}
