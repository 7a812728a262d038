import { and, asc, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  categories,
  productImages,
  productSlugs,
  productVariants,
  products,
  reviews,
} from '#server/db/schema/index.ts';
import { PreparedShapes } from '#server/lib/prepared-shapes.ts';
import { anyOf } from '#server/lib/sql.ts';

export type VariantRow = typeof productVariants.$inferSelect;

/** Columns a list needs (no description, no search vector). */
const summaryColumns = {
  id: products.id,
  slug: products.slug,
  name: products.name,
  image: products.image,
  priceCents: products.priceCents,
  brand: products.brand,
  categoryId: products.categoryId,
  categoryName: categories.name,
  countInStock: products.countInStock,
  rating: products.rating,
  numReviews: products.numReviews,
  purchaseLink: products.purchaseLink,
  status: products.status,
};

/** What shoppers see: active products (a draft is the admins' until it is published). */
export const active = eq(products.status, 'active');

/** Products as lists show them, with their category's name (the top products, product-list.repository.ts). */
export function selectSummaries(db: Db) {
  return db.select(summaryColumns).from(products).leftJoin(categories, eq(categories.id, products.categoryId));
}

// written out: drizzle leaves the outer column unqualified inside a one-table select
const hasChildren = sql<boolean>`exists(select 1 from categories c2 where c2.parent_id = categories.id)`;

/** Reads of rows by a list of ids: one statement, built once (lib/prepared-shapes.ts). */
const byIds = new PreparedShapes();

export const catalogRepository = {
  /** How many active products there are, and a chunk of their search vectors in id order after `after`. */
  async productCount(db: Db): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(active);
    return row?.n ?? 0;
  },
  async searchVectorsAfter(db: Db, after: string, limit: number) {
    return db
      .select({
        id: products.id,
        categoryId: products.categoryId,
        brand: products.brand,
        priceCents: products.priceCents,
        vector: sql<string>`${products.searchVector}::text`,
      })
      .from(products)
      .where(and(sql`${products.id} > ${after}`, active))
      .orderBy(asc(products.id))
      .limit(limit);
  },

  async variantsFor(db: Db, productIds: string[]) {
    if (productIds.length === 0) return [];
    return byIds.run(db, 'variants', (bind) =>
      db
        .select()
        .from(productVariants)
        .where(anyOf(productVariants.productId, productIds, bind))
        .orderBy(asc(productVariants.productId), asc(productVariants.position)),
    );
  },

  /** `withDrafts`: an admin's read; a shopper's sees active products only. */
  async findById(db: Db, id: string, withDrafts = false) {
    const [row] = await db
      .select({ product: products, categoryName: categories.name, categorySlug: categories.slug })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(and(eq(products.id, id), withDrafts ? undefined : active));
    return row;
  },

  async findBySlug(db: Db, slug: string, withDrafts = false) {
    const [row] = await db
      .select({ product: products, categoryName: categories.name, categorySlug: categories.slug })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(and(eq(products.slug, slug), withDrafts ? undefined : active));
    return row;
  },

  async findIdByOldSlug(db: Db, slug: string): Promise<string | undefined> {
    const [row] = await db.select({ id: productSlugs.productId }).from(productSlugs).where(eq(productSlugs.slug, slug));
    return row?.id;
  },

  async detailParts(db: Db, productId: string) {
    const [images, variants, reviewRows] = await Promise.all([
      db
        .select()
        .from(productImages)
        .where(eq(productImages.productId, productId))
        .orderBy(asc(productImages.position)),
      db
        .select()
        .from(productVariants)
        .where(eq(productVariants.productId, productId))
        .orderBy(asc(productVariants.position)),
      db.select().from(reviews).where(eq(reviews.productId, productId)).orderBy(desc(reviews.createdAt)).limit(200),
    ]);
    return { images, variants, reviews: reviewRows };
  },

  async top(db: Db, limit: number) {
    return selectSummaries(db)
      .where(and(gte(products.numReviews, 1), active))
      .orderBy(desc(products.rating), desc(products.numReviews), asc(products.id))
      .limit(limit);
  },

  async maxNameLength(db: Db): Promise<number | null> {
    const [row] = await db
      .select({ n: sql<number | null>`max(char_length(${products.name}))` })
      .from(products)
      .where(active);
    return row?.n ?? null;
  },

  async rootCategories(db: Db) {
    return db
      .select({
        id: categories.id,
        name: categories.name,
        slug: categories.slug,
        parentId: categories.parentId,
        hasChildren,
      })
      .from(categories)
      .where(isNull(categories.parentId))
      .orderBy(asc(categories.position), asc(categories.name));
  },

  async childCategories(db: Db, parentId: string) {
    return db
      .select({
        id: categories.id,
        name: categories.name,
        slug: categories.slug,
        parentId: categories.parentId,
        hasChildren,
      })
      .from(categories)
      .where(eq(categories.parentId, parentId))
      .orderBy(asc(categories.position), asc(categories.name));
  },

  /** A category by slug or id, with its parent (the breadcrumb) and its children's ids (the filter). */
  async categoryWithFamily(db: Db, slugOrId: string) {
    const [c] = await db
      .select({ id: categories.id, name: categories.name, slug: categories.slug, parentId: categories.parentId })
      .from(categories)
      .where(or(eq(categories.slug, slugOrId.toLowerCase()), eq(categories.id, slugOrId)));
    if (!c) return undefined;
    const [parent, children] = await Promise.all([
      c.parentId
        ? db
            .select({ id: categories.id, name: categories.name, slug: categories.slug })
            .from(categories)
            .where(eq(categories.id, c.parentId))
            .then((r) => r[0])
        : undefined,
      db.select({ id: categories.id }).from(categories).where(eq(categories.parentId, c.id)),
    ]);
    return { ...c, parent, childIds: children.map((r) => r.id) };
  },

  /** Every category's slug (the sitemap). */
  async categorySlugs(db: Db) {
    return db
      .select({ slug: categories.slug })
      .from(categories)
      .orderBy(asc(categories.position), asc(categories.name))
      .limit(5000);
  },

  async categoryExists(db: Db, id: string): Promise<boolean> {
    const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
    return Boolean(row);
  },

  async sitemapEntries(db: Db) {
    return db
      .select({ slug: products.slug, updatedAt: products.updatedAt })
      .from(products)
      .where(active)
      .orderBy(desc(products.updatedAt))
      .limit(50000);
  },
};
