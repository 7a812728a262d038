/**
 * The demo catalogue loaded into an empty database on first start (SEED_DEMO): a category tree,
 * products with generated images, colour variants, shoppers and their reviews.
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { storeImage } from '#server/lib/images.ts';
import { newId } from '#server/lib/ids.ts';
import type { Db, Tx } from '../client.ts';
import { categories, productImages, productVariants, products, reviews, users } from '../schema/index.ts';
import { buildDemoCatalogue, DEMO_CATEGORIES, DEMO_SHOPPERS, type DemoProduct } from './demo-data.ts';
import { renderShot } from './demo-images.ts';
import { chunks, mapLimit } from './random.ts';

export { buildDemoCatalogue, DEMO_CATEGORIES, DEMO_SHOPPERS } from './demo-data.ts';

const DAY_MS = 86_400_000;
/** Images rendered at once: each also encodes three WebP widths in parallel inside sharp. */
const IMAGE_CONCURRENCY = 4;
/** Advisory lock key held while the catalogue is inserted. */
const SEED_LOCK = 7_342_001;

type Conn = Db | Tx;

/** Inserts the demo category tree where its slugs are missing; answers every category id by slug. */
export async function ensureDemoCategories(db: Conn): Promise<Map<string, string>> {
  await db
    .insert(categories)
    .values(DEMO_CATEGORIES.map((c, position) => ({ name: c.name, slug: c.slug, position })))
    .onConflictDoNothing();
  const roots = await db
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(
      inArray(
        categories.slug,
        DEMO_CATEGORIES.map((c) => c.slug),
      ),
    );
  const rootIds = new Map(roots.map((r) => [r.slug, r.id]));
  const children = DEMO_CATEGORIES.flatMap((root) =>
    root.children.map((c, position) => ({
      name: c.name,
      slug: c.slug,
      position,
      parentId: rootIds.get(root.slug) ?? null,
    })),
  );
  await db.insert(categories).values(children).onConflictDoNothing();
  const all = await db
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(inArray(categories.slug, [...rootIds.keys(), ...children.map((c) => c.slug)]));
  return new Map(all.map((c) => [c.slug, c.id]));
}

/** Inserts the demo shoppers (active, never signing in) where missing; answers their ids in DEMO_SHOPPERS order. */
export async function ensureDemoShoppers(db: Conn): Promise<{ id: string; name: string }[]> {
  await db
    .insert(users)
    .values(DEMO_SHOPPERS.map((s) => ({ ...s, isActive: true, isAdmin: false, passwordHash: null })))
    .onConflictDoNothing();
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      and(
        inArray(
          users.email,
          DEMO_SHOPPERS.map((s) => s.email),
        ),
        eq(users.isGuest, false),
      ),
    );
  const byEmail = new Map(rows.map((r) => [r.email, r]));
  return DEMO_SHOPPERS.map((s) => {
    const row = byEmail.get(s.email);
    if (!row) throw new Error(`demo shopper ${s.email} could not be created`);
    return { id: row.id, name: `${row.firstName} ${row.lastName.slice(0, 1)}.` };
  });
}

/** Renders and stores every image of the catalogue; answers the srcs of each product, shot by shot. */
async function generateImages(list: DemoProduct[], uploadsDir: string): Promise<string[][]> {
  const jobs = list.flatMap((p, pi) => p.shots.map((shot, si) => ({ p, pi, shot, si })));
  const srcs = list.map((p) => new Array<string>(p.shots.length).fill(''));
  await mapLimit(jobs, IMAGE_CONCURRENCY, async ({ p, pi, shot, si }) => {
    const color = p.colors[shot.color];
    const feature = p.features[0];
    const full = feature ? `${feature.key}: ${feature.detail}` : '';
    const png = await renderShot({
      name: p.name,
      brand: p.brand,
      icon: p.icon,
      color: color?.hex ?? p.plainHex,
      hue: p.hue,
      view: shot.view,
      caption: full.length <= 30 ? full : feature?.key,
    });
    (srcs[pi] as string[])[si] = await storeImage(uploadsDir, p.imageFolderName, shot.base, png);
  });
  return srcs;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

interface Rows {
  products: (typeof products.$inferInsert)[];
  images: (typeof productImages.$inferInsert)[];
  variants: (typeof productVariants.$inferInsert)[];
  reviews: (typeof reviews.$inferInsert)[];
}

function catalogueRows(
  list: DemoProduct[],
  srcs: string[][],
  categoryIds: Map<string, string>,
  shoppers: { id: string; name: string }[],
  now: number,
): Rows {
  const rows: Rows = { products: [], images: [], variants: [], reviews: [] };
  list.forEach((p, pi) => {
    const id = newId();
    const gallery = srcs[pi] ?? [];
    const createdAt = new Date(now - p.ageDays * DAY_MS);
    const ratingSum = p.reviews.reduce((s, r) => s + r.rating, 0);
    rows.products.push({
      id,
      slug: p.slug,
      name: p.name,
      purchaseLink: p.purchaseLink,
      priceCents: p.priceCents,
      image: gallery[0] ?? '',
      imageFolderName: p.imageFolderName,
      video: p.video ? `https://www.youtube-nocookie.com/embed/${p.video}` : '',
      description: p.description,
      descriptionText: p.descriptionText,
      brand: p.brand,
      categoryId: categoryIds.get(p.categorySlug) ?? null,
      countInStock: p.countInStock,
      rating: p.reviews.length ? round2(ratingSum / p.reviews.length) : 0,
      numReviews: p.reviews.length,
      shippingMethod: p.shippingMethod,
      createdAt,
      updatedAt: createdAt,
    });
    gallery.forEach((src, position) => rows.images.push({ productId: id, src, position }));
    p.colors.forEach((c, position) => {
      // each colour's image is its main shot in that colour (also part of the gallery)
      const shot = p.shots.findIndex((s) => s.view === 0 && s.color === position);
      const src = gallery[shot] ?? gallery[0] ?? '';
      rows.variants.push({ productId: id, name: c.name, src, priceCents: c.priceCents, position });
    });
    for (const r of p.reviews) {
      const shopper = shoppers[r.shopper];
      if (!shopper) continue;
      rows.reviews.push({
        productId: id,
        userId: shopper.id,
        name: shopper.name,
        rating: r.rating,
        comment: r.comment,
        verifiedPurchase: r.verified,
        createdAt: new Date(now - r.ageDays * DAY_MS),
      });
    }
  });
  return rows;
}

/** Loads the demo catalogue when the products table is empty; does nothing otherwise. */
export async function seedDemoIfEmpty(db: Db, uploadsDir: string, log: FastifyBaseLogger): Promise<void> {
  const [any] = await db.select({ id: products.id }).from(products).limit(1);
  if (any) return;
  log.info('loading the demo catalogue (first start only): generating product images, about 20 s');
  const started = Date.now();
  const { products: list } = buildDemoCatalogue();
  // Files first, rows after in one transaction: a crash leaves the table empty and the next start retries.
  const srcs = await generateImages(list, uploadsDir);
  const imageMs = Date.now() - started;

  const counts = await db.transaction(async (tx) => {
    // several servers may share one PostgreSQL: one loads the catalogue, the others find it there
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [again] = await tx.select({ id: products.id }).from(products).limit(1);
    if (again) return undefined;
    const categoryIds = await ensureDemoCategories(tx);
    const shoppers = await ensureDemoShoppers(tx);
    const rows = catalogueRows(list, srcs, categoryIds, shoppers, Date.now());
    for (const batch of chunks(rows.products, 500)) await tx.insert(products).values(batch);
    for (const batch of chunks(rows.images, 1000)) await tx.insert(productImages).values(batch);
    for (const batch of chunks(rows.variants, 1000)) await tx.insert(productVariants).values(batch);
    for (const batch of chunks(rows.reviews, 1000)) await tx.insert(reviews).values(batch);
    return { products: rows.products.length, categories: categoryIds.size, images: rows.images.length };
  });
  if (!counts) return;
  log.info({ ...counts, ms: Date.now() - started, imageMs }, 'demo catalogue loaded');
}
