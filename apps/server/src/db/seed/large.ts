/**
 * Synthetic catalogues for load and search testing (seed CLI): many products built from word lists,
 * sharing a few generated images, with variants and reviews, and orders for them. On PostgreSQL the rows
 * stream in through COPY (tables that start empty get their secondary indexes built after the load); on
 * the embedded database they go in by INSERTs of ~1000 rows.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { htmlToText, slugify } from '@store/shared';
import { storeImage } from '#server/lib/images.ts';
import type { Db } from '../client.ts';
import * as schema from '../schema/index.ts';
import { categories, productImages, productVariants, products, reviews } from '../schema/index.ts';
import {
  bulkConnection,
  canSkipTriggers,
  copySink,
  CopyWriter,
  createIndexes,
  dropIndexes,
  type IndexDefinition,
  type RowSink,
  secondaryIndexes,
} from './copy.ts';
import { COLOR_HEX, REVIEW_COMMENTS, SHIPPING_METHODS } from './demo-data.ts';
import { ICONS, type IconName } from './demo-icons.ts';
import { renderShot } from './demo-images.ts';
import { ensureDemoCategories } from './demo.ts';
import { copyOrders, ensureSyntheticShoppers, insertOrders, seedOrders, type Shopper } from './large-orders.ts';
import { BRANDS, COLOR_NAMES, MATERIALS, MODELS, SENTENCES, VOCABULARY, type Vocabulary } from './large-words.ts';
import { chunks, createRng, idSource, mapLimit, progress, type Rng } from './random.ts';

export interface LargeSeedOptions {
  products: number;
  orders: number;
  reset: boolean;
  uploadsDir: string;
  /** PRNG seed: the same seed gives the same names, prices and reviews. */
  seed?: number;
  progress?: (line: string) => void;
  /**
   * PostgreSQL's URL (the database `db` is on): the rows then go in through COPY on connections of this
   * seed's own, free of the pool's statement timeout. Without it, batched INSERTs through `db`.
   */
  databaseUrl?: string;
  /** COPY path: VACUUM ANALYZE the loaded tables at the end (default), or only ANALYZE them. */
  vacuum?: boolean;
}

export const BATCH = 1000;
const STOCK_FOLDER = 'seed-stock';
const STOCK_COLORS = ['Black', 'Blue'] as const;
const DAY_MS = 86_400_000;

/** Empties the catalogue and the orders (and everything hanging off them). */
export async function resetProductsAndOrders(db: Db): Promise<void> {
  await db.execute(sql`TRUNCATE TABLE products, orders CASCADE`);
}

const GIN_INDEXES = ['products_search_idx', 'products_name_trgm_idx', 'products_brand_trgm_idx'];

/**
 * The full-text and trigram indexes are built with fastupdate off (PGlite runs no autovacuum), which makes
 * every insert update them in place. For a bulk load: let inserts queue in the pending list, merge it
 * once at the end, and switch back. (SET fastupdate takes a lock that does not block reads or writes.)
 */
async function withBulkGinInserts<T>(
  exec: (query: string) => Promise<unknown>,
  say: (line: string) => void,
  load: () => Promise<T>,
): Promise<T> {
  const setFastupdate = async (on: boolean) => {
    for (const name of GIN_INDEXES) {
      // spelt as the migrations spell it, so the index's definition reads the same afterwards
      await exec(`ALTER INDEX IF EXISTS ${name} SET (fastupdate = '${on}')`);
    }
  };
  await setFastupdate(true);
  try {
    return await load();
  } finally {
    const merging = Date.now();
    for (const name of GIN_INDEXES) {
      await exec(`SELECT gin_clean_pending_list(c.oid) FROM pg_class c WHERE c.relname = '${name}'`);
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
  const [s1, s2] = rng.few(SENTENCES, 2).map(fill);
  const items = rng
    .few(v.extras, 3)
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
  nextId: () => string;
  now: number;
}

/** The rows of a batch of products, for every table a product fills. */
export interface CatalogueRows {
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
  return { leaves, images, shoppers, uniqueSlug, nextId: idSource(), now: Date.now() };
}

function addProduct(ctx: Context, rng: Rng, rows: CatalogueRows): void {
  const { id: categoryId, v, brands } = rng.pick(ctx.leaves);
  const [noun, icon] = rng.pick(v.nouns);
  const brand = rng.pick(brands);
  const model = rng.chance(0.6) ? ` ${rng.pick(MODELS)}${rng.chance(0.5) ? ` ${rng.int(2, 9)}` : ''}` : '';
  let name = `${rng.chance(0.4) ? `${brand} ` : ''}${rng.pick(v.adjectives)} ${noun}${model}`;
  if (rng.chance(0.35)) name += ` with ${rng.pick(v.extras)}`;
  const id = ctx.nextId();
  const slug = ctx.uniqueSlug(slugify(name));
  const description = describe(rng, name, brand, v);
  const createdAt = new Date(ctx.now - rng.next() * 365 * DAY_MS);
  const priceCents = price(rng);
  const main = ctx.images.get(`${icon}/${rng.pick(STOCK_COLORS)}`) ?? '';
  const ratings = rng.chance(0.3)
    ? rng.few(ctx.shoppers, rng.int(1, 4)).map((s) => ({ s, r: rng.int(rng.int(1, 4), 5) }))
    : [];
  const stock = rng.chance(0.08) ? 0 : rng.int(1, 200);
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
    publishedAt: createdAt,
    purchaseLink: `https://example.com/wholesale/${slugify(brand)}/${slug}`,
    image: main,
    imageFolderName: slug.length <= 60 ? slug : `${slug.slice(0, 50).replace(/-+$/, '')}-${id.slice(-8)}`,
    descriptionText: htmlToText(description),
    countInStock: stock,
    // its variants draw on its stock: it can be bought when it has some (the database's rule, kept by
    // triggers that a bulk load turns off)
    inStock: stock > 0,
    shippingMethod: rng.pick(SHIPPING_METHODS),
    numReviews: ratings.length,
    rating: ratings.length ? Math.round((ratings.reduce((a, x) => a + x.r, 0) / ratings.length) * 100) / 100 : 0,
  });
  rows.images.push({ id: ctx.nextId(), productId: id, src: main, position: 0 });
  for (const color of STOCK_COLORS) {
    const src = ctx.images.get(`${icon}/${color}`);
    if (src && src !== main && rng.chance(0.5)) rows.images.push({ id: ctx.nextId(), productId: id, src, position: 1 });
  }
  rng.few(COLOR_NAMES, rng.chance(0.5) ? 0 : rng.int(1, 3)).forEach((color, position) => {
    const src = ctx.images.get(`${icon}/${color}`) ?? main;
    const own = rng.chance(0.2) ? priceCents + rng.int(5, 30) * 100 : null;
    rows.variants.push({ id: ctx.nextId(), productId: id, name: color, src, priceCents: own, position });
  });
  for (const { s, r } of ratings) {
    rows.reviews.push({
      id: ctx.nextId(),
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

/** Products by batched INSERTs, one transaction a batch (any database, PGlite included). */
function insertCatalogue(db: Db): RowSink<CatalogueRows> {
  return {
    async write(rows) {
      await db.transaction(async (tx) => {
        for (const batch of chunks(rows.products, BATCH)) await tx.insert(products).values(batch);
        for (const batch of chunks(rows.images, BATCH)) await tx.insert(productImages).values(batch);
        for (const batch of chunks(rows.variants, BATCH)) await tx.insert(productVariants).values(batch);
        for (const batch of chunks(rows.reviews, BATCH)) await tx.insert(reviews).values(batch);
      });
    },
    finish: async () => {},
    abort: async () => {},
  };
}

const PRODUCT_KEYS = [
  'id',
  'slug',
  'name',
  'purchaseLink',
  'priceCents',
  'image',
  'imageFolderName',
  'description',
  'descriptionText',
  'brand',
  'categoryId',
  'countInStock',
  'inStock',
  'rating',
  'numReviews',
  'shippingMethod',
  'publishedAt',
  'createdAt',
  'updatedAt',
] as const;
const IMAGE_KEYS = ['id', 'productId', 'src', 'position'] as const;
const VARIANT_KEYS = ['id', 'productId', 'name', 'src', 'priceCents', 'position'] as const;
const REVIEW_KEYS = [
  'id',
  'productId',
  'userId',
  'name',
  'rating',
  'comment',
  'verifiedPurchase',
  'createdAt',
] as const;

/**
 * Products by COPY, one stream a table, and two for products themselves, which take turns by batch:
 * PostgreSQL computes each row's search_vector (a generated column), the costliest part of the load, and
 * two sessions do that on two cores.
 */
function copyCatalogue(databaseUrl: string, replica: boolean): Promise<RowSink<CatalogueRows>> {
  let batch = 0;
  return copySink(
    [
      CopyWriter.open(databaseUrl, products, PRODUCT_KEYS, replica),
      CopyWriter.open(databaseUrl, products, PRODUCT_KEYS, replica),
      CopyWriter.open(databaseUrl, productImages, IMAGE_KEYS, replica),
      CopyWriter.open(databaseUrl, productVariants, VARIANT_KEYS, replica),
      CopyWriter.open(databaseUrl, reviews, REVIEW_KEYS, replica),
    ],
    ([p1, p2, i, v, r], rows: CatalogueRows) => [
      (batch++ % 2 ? p2 : p1).pushAll(rows.products),
      i.pushAll(rows.images),
      v.pushAll(rows.variants),
      r.pushAll(rows.reviews),
    ],
  );
}

async function seedProducts(
  ctx: Context,
  rng: Rng,
  count: number,
  sink: RowSink<CatalogueRows>,
  say: (line: string) => void,
) {
  const tick = progress('products', count, say);
  let stored = 0;
  for (let done = 0; done < count; done += BATCH) {
    const rows: CatalogueRows = { products: [], images: [], variants: [], reviews: [] };
    for (let i = 0; i < Math.min(BATCH, count - done); i++) addProduct(ctx, rng, rows);
    await sink.write(rows);
    stored += rows.products.length + rows.images.length + rows.variants.length + rows.reviews.length;
    tick(done + rows.products.length, stored);
  }
}

/** Writes every batch `fill` makes into `sink`, then waits for all of it to be stored. */
async function loadInto<R, T>(sink: RowSink<R>, fill: (sink: RowSink<R>) => Promise<T>): Promise<T> {
  try {
    const result = await fill(sink);
    await sink.finish();
    return result;
  } catch (err) {
    await sink.abort();
    throw err;
  }
}

const CATALOGUE_TABLES = ['products', 'product_images', 'product_variants', 'reviews'];
const ORDER_TABLES = ['orders', 'order_items', 'tracking_numbers', 'payments', 'order_events'];

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * What must be redone once after a bulk load, which wrote its rows with triggers off (COPY with
 * session_replication_role = replica): here is the place for every rebuild of data the triggers keep.
 * On PostgreSQL it runs on a connection without statement timeout and with triggers off (so its own
 * writes fire none either); on the embedded database after INSERTs that did fire them. It must therefore
 * be idempotent, and compute its results from the rows alone.
 */
export async function afterBulkLoad(db: Db): Promise<void> {
  // the sales overview and the admin's order totals keep figures while these marks stay put: new orders
  // and products move them
  await db.execute(
    sql`UPDATE change_marks SET sales = gen_random_uuid(), stock = gen_random_uuid(), orders = gen_random_uuid()`,
  );
  // whether each product can be bought (its variants' stock or its own), which triggers keep on every
  // other write: set right wherever the load left it otherwise
  await db.execute(sql`
    UPDATE products p SET in_stock = f.in_stock
    FROM (
      SELECT q.id, bool_or(coalesce(v.count_in_stock, q.count_in_stock) > 0) AS in_stock
      FROM products q LEFT JOIN product_variants v ON v.product_id = q.id
      GROUP BY q.id
    ) f
    WHERE f.id = p.id AND p.in_stock IS DISTINCT FROM f.in_stock`);
}

/**
 * When the tables of a group are empty (their first table is), sets their secondary indexes aside (to be
 * built once the rows are in, much faster than row by row); answers their definitions.
 */
async function setIndexesAside(
  admin: pg.Client,
  tables: readonly string[],
  say: (line: string) => void,
): Promise<IndexDefinition[]> {
  const empty = await admin.query(`SELECT NOT EXISTS (SELECT 1 FROM "${tables[0]}") AS empty`);
  if (!empty.rows[0]?.empty) return [];
  const indexes = await secondaryIndexes(admin, tables);
  await dropIndexes(admin, indexes);
  say(`${tables.join(', ')}: empty, ${indexes.length} secondary indexes set aside until the load is done`);
  return indexes;
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
  const url = opts.databaseUrl;
  const admin = url ? await bulkConnection(url, false) : undefined;
  // every index set aside, until all are built again (a failure builds the missing ones in `finally`)
  const aside: IndexDefinition[] = [];
  const building: Promise<void>[] = [];
  let orders = 0;
  try {
    const replica = admin ? await canSkipTriggers(admin) : false;
    if (admin && !replica) say('this role may not switch triggers off (session_replication_role): they fire per row');
    const exec = admin ? (q: string) => admin.query(q) : (q: string) => db.execute(sql.raw(q));
    if (opts.products > 0) {
      const started = Date.now();
      const indexes = admin ? await setIndexesAside(admin, CATALOGUE_TABLES, say) : [];
      aside.push(...indexes);
      const sink = url ? await copyCatalogue(url, replica) : insertCatalogue(db);
      const load = () => loadInto(sink, (s) => seedProducts(ctx, rng, opts.products, s, say));
      await (indexes.length ? load() : withBulkGinInserts(exec, say, load));
      say(`products loaded in ${seconds(started)}`);
      // the catalogue's indexes are built while the orders load (a core each, or what is left of them)
      if (url && indexes.length) building.push(buildIndexes(url, indexes, 'catalogue', say));
    }
    if (opts.orders > 0) {
      const started = Date.now();
      const indexes = admin ? await setIndexesAside(admin, ORDER_TABLES, say) : [];
      aside.push(...indexes);
      const sink = url ? await copyOrders(url, replica) : insertOrders(db);
      orders = await loadInto(sink, (s) => seedOrders(db, opts.orders, rng, ctx.shoppers, s, say));
      say(`orders loaded in ${seconds(started)}`);
      if (url && indexes.length) building.push(buildIndexes(url, indexes, 'order', say));
    }
    await Promise.all(building);
    aside.length = 0;
    if (url) {
      const client = await bulkConnection(url, replica);
      try {
        await afterBulkLoad(drizzlePg({ client, schema }) as unknown as Db);
      } finally {
        await client.end();
      }
    } else {
      await afterBulkLoad(db);
    }
    if (url) {
      const started = Date.now();
      const tables = [...(opts.products ? CATALOGUE_TABLES : []), ...(opts.orders ? ORDER_TABLES : [])];
      const command = opts.vacuum === false ? 'ANALYZE' : 'VACUUM (ANALYZE)';
      await mapLimit(tables, 2, async (table) => {
        const client = await bulkConnection(url, false);
        try {
          const at = Date.now();
          await client.query(`${command} "${table}"`);
          say(`${command} ${table}: ${seconds(at)}`);
        } finally {
          await client.end();
        }
      });
      say(`${command} of ${tables.length} tables: ${seconds(started)}`);
    }
  } finally {
    // whatever failed, no index stays away: the builds under way finish, then the missing ones are made
    await Promise.allSettled(building);
    if (url && aside.length) {
      say(`building the indexes set aside that are missing`);
      await createIndexes(url, aside, 1, say).catch((err: unknown) => {
        say(`could not build them (${String(err)}); their definitions:`);
        for (const index of aside) say(`${index.definition};`);
      });
    }
    await admin?.end().catch(() => {});
  }
  return { products: opts.products, orders };
}

async function buildIndexes(url: string, indexes: IndexDefinition[], what: string, say: (line: string) => void) {
  const started = Date.now();
  await createIndexes(url, indexes, 1, say);
  say(`${what} indexes built in ${seconds(started)}`);
}
