import { asc, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { categories, productImages, productSlugs, productVariants, products, reviews } from '../../db/schema/index.ts';

export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type ImageRow = typeof productImages.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;

/** Columns a list needs (no description, no search vector). */
export const summaryColumns = {
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
};

export interface ListFilter {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  /** Extra select expression used for ranking (full-text or trigram). */
  rank?: SQL;
  /** The condition names the category's name: only then is the category joined while filtering. */
  byCategoryName?: boolean;
}

// written out: drizzle leaves the outer column unqualified inside a one-table select
const hasChildren = sql<boolean>`exists(select 1 from categories c2 where c2.parent_id = categories.id)`;

export const catalogRepository = {
  /**
   * A page of the list as a deferred join: the inner query walks only the ids (an index-only scan of
   * the sort's index, past OFFSET rows cheaply), the outer one reads the page's rows. On 100,000
   * products the default sort's page 2,000 takes ~11 ms instead of ~150 ms (docs/performance.md).
   */
  async list(db: Db, f: ListFilter) {
    const ids = db.select({ id: products.id }).from(products).$dynamic();
    // without the join PostgreSQL walks the sort's index alone (index-only): page 2,500 of 100,000 in
    // ~15 ms instead of a scan and sort of the table (~120 ms)
    if (f.byCategoryName) ids.leftJoin(categories, eq(categories.id, products.categoryId));
    const page = ids
      .where(f.where)
      .orderBy(...f.orderBy)
      .limit(f.limit)
      .offset(f.offset);
    return db
      .select(summaryColumns)
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(inArray(products.id, page))
      .orderBy(...f.orderBy);
  },

  /** The page's rows of a ranked search, by id (the caller puts them in rank order). */
  async summariesByIds(db: Db, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .select(summaryColumns)
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(inArray(products.id, ids));
  },

  /** A full-text query as PostgreSQL parses and stems it, printed (`'carri':* & 'home':*`). */
  async printedTsQuery(db: Db, tsquery: string): Promise<string> {
    const result = await db.execute<{ q: string }>(sql`select to_tsquery('english', ${tsquery})::text as q`);
    return result.rows[0]?.q ?? '';
  },

  /** How many products there are, and a chunk of their search vectors in id order after `after`. */
  async productCount(db: Db): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
    return row?.n ?? 0;
  },
  async searchVectorsAfter(db: Db, after: string, limit: number) {
    return db
      .select({ id: products.id, categoryId: products.categoryId, vector: sql<string>`${products.searchVector}::text` })
      .from(products)
      .where(sql`${products.id} > ${after}`)
      .orderBy(asc(products.id))
      .limit(limit);
  },

  /** The sort key of every `every`-th product of the newest-first list (ListMemo's anchors). */
  async anchors(db: Db, every: number): Promise<{ createdAt: string; id: string }[]> {
    const result = await db.execute<{ created_at: string; id: string }>(sql`
      select created_at::text as created_at, id from (
        select created_at, id, row_number() over (order by created_at desc nulls last, id desc nulls last) - 1 as rn
        from ${products}
      ) ranked
      where rn % ${every} = 0
      order by rn`);
    return result.rows.map((r) => ({ createdAt: r.created_at, id: r.id }));
  },

  async count(db: Db, where: SQL | undefined, byCategoryName = false): Promise<number> {
    const q = db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .$dynamic();
    if (byCategoryName) q.leftJoin(categories, eq(categories.id, products.categoryId));
    const [row] = await q.where(where);
    return row?.n ?? 0;
  },

  async variantsFor(db: Db, productIds: string[]) {
    if (productIds.length === 0) return [];
    return db
      .select()
      .from(productVariants)
      .where(inArray(productVariants.productId, productIds))
      .orderBy(asc(productVariants.productId), asc(productVariants.position));
  },

  async findById(db: Db, id: string) {
    const [row] = await db
      .select({ product: products, categoryName: categories.name })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(eq(products.id, id));
    return row;
  },

  async findBySlug(db: Db, slug: string) {
    const [row] = await db
      .select({ product: products, categoryName: categories.name })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(eq(products.slug, slug));
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
    return db
      .select(summaryColumns)
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(gte(products.numReviews, 1))
      .orderBy(desc(products.rating), desc(products.numReviews), asc(products.id))
      .limit(limit);
  },

  /** Categories whose name, or whose parent's name, matches a full-text query (a product search). */
  async categoriesMatching(db: Db, query: SQL): Promise<string[]> {
    const parent = alias(categories, 'parent');
    const rows = await db
      .select({ id: categories.id })
      .from(categories)
      .leftJoin(parent, eq(parent.id, categories.parentId))
      .where(sql`to_tsvector('english', ${categories.name} || ' ' || coalesce(${parent.name}, '')) @@ ${query}`);
    return rows.map((r) => r.id);
  },

  /** Whether each prefix query (`word:*`) matches some product or category on its own. */
  async everyWordMatches(db: Db, prefixQueries: string[]): Promise<boolean> {
    // a text array literal: the queries are letters and digits with ':*' (toPrefixTsQuery), quoted anyway
    const words = `{${prefixQueries.map((w) => `"${w.replace(/["\\]/g, '')}"`).join(',')}}`;
    const result = await db.execute<{ every: boolean | null }>(sql`
      select bool_and(
        exists(select 1 from ${products} where ${products.searchVector} @@ to_tsquery('english', w))
        or exists(select 1 from ${categories} c where to_tsvector('english', c.name) @@ to_tsquery('english', w))
      ) as every
      from unnest(${words}::text[]) as w`);
    return result.rows[0]?.every === true;
  },

  async maxNameLength(db: Db): Promise<number | null> {
    const [row] = await db.select({ n: sql<number | null>`max(char_length(${products.name}))` }).from(products);
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

  async categoryExists(db: Db, id: string): Promise<boolean> {
    const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
    return Boolean(row);
  },

  async sitemapEntries(db: Db) {
    return db
      .select({ slug: products.slug, updatedAt: products.updatedAt })
      .from(products)
      .orderBy(desc(products.updatedAt))
      .limit(50000);
  },
};
