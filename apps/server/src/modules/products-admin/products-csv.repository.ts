import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { categories, productSlugs, productVariants, products } from '#server/db/schema/index.ts';
import { chunksOf } from '#server/lib/csv.ts';

type Conn = Db | Tx;

/** What a products CSV shows of a product, and what an import writes (never rating, reviews or gallery). */
const csvColumns = {
  id: products.id,
  slug: products.slug,
  name: products.name,
  brand: products.brand,
  categoryId: products.categoryId,
  categoryName: categories.name,
  priceCents: products.priceCents,
  countInStock: products.countInStock,
  purchaseLink: products.purchaseLink,
  shippingMethod: products.shippingMethod,
  image: products.image,
  video: products.video,
  description: products.description,
  descriptionText: products.descriptionText,
  status: products.status,
};
/** Products with their category's name, as a CSV shows them. */
function selectCsv(db: Conn) {
  return db.select(csvColumns).from(products).leftJoin(categories, eq(categories.id, products.categoryId));
}
export type CsvProductRow = Awaited<ReturnType<typeof selectCsv>>[number];
export type VariantRow = typeof productVariants.$inferSelect;
/** A product row as an import writes it, whole (its id known beforehand: new ones get theirs from the app). */
export type ProductWrite = Omit<CsvProductRow, 'categoryName'>;
export type VariantWrite = Required<Omit<typeof productVariants.$inferInsert, 'countInStock' | 'priceCents'>> & {
  priceCents: number | null;
  countInStock: number | null;
};

/**
 * Batches travel as one JSON parameter read back with jsonb_to_recordset: a few thousand rows cost one
 * bound value instead of one per cell (several times faster than a multi-row VALUES list).
 */
const PRODUCT_RECORD = sql.raw(
  `id char(24), slug text, name text, brand text, "categoryId" char(24), "priceCents" int, "countInStock" int,
   "purchaseLink" text, "shippingMethod" text, image text, video text, description text, "descriptionText" text,
   status text`,
);
const VARIANT_RECORD = sql.raw(
  `id char(24), "productId" char(24), name text, src text, "priceCents" int, position int, "countInStock" int, sku text`,
);

/** A list as one parameter, for `in (…)`: thousands of keys cost one bound value. */
const textList = (values: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
const idList = (ids: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::char(24))`;

const VARIANTS_PER_STATEMENT = 2000;

export const productsCsvRepository = {
  /** Up to `limit` products after the id `after`, in id order, with their category's name. */
  async pageAfter(db: Conn, after: string, limit: number): Promise<CsvProductRow[]> {
    return selectCsv(db).where(gt(products.id, after)).orderBy(asc(products.id)).limit(limit);
  },

  async bySlugs(db: Conn, slugs: string[]): Promise<CsvProductRow[]> {
    if (slugs.length === 0) return [];
    return selectCsv(db).where(inArray(products.slug, textList(slugs)));
  },

  /** The variants of these products, each product's in their order. */
  async variantsOf(db: Conn, productIds: string[]): Promise<VariantRow[]> {
    if (productIds.length === 0) return [];
    return db
      .select()
      .from(productVariants)
      .where(inArray(productVariants.productId, idList(productIds)))
      .orderBy(asc(productVariants.productId), asc(productVariants.position));
  },

  /** Of these slugs, the ones a product had before a rename (old links still lead to that product). */
  async formerSlugs(db: Conn, slugs: string[]): Promise<Set<string>> {
    if (slugs.length === 0) return new Set();
    const rows = await db
      .select({ slug: productSlugs.slug })
      .from(productSlugs)
      .where(inArray(productSlugs.slug, textList(slugs)));
    return new Set(rows.map((r) => r.slug));
  },

  /** The variants that hold any of these SKUs (lower-case), whatever their case. */
  async skuHolders(db: Conn, lowerSkus: string[]): Promise<{ sku: string; productId: string }[]> {
    if (lowerSkus.length === 0) return [];
    return db
      .select({ sku: productVariants.sku, productId: productVariants.productId })
      .from(productVariants)
      .where(and(inArray(sql`lower(${productVariants.sku})`, textList(lowerSkus)), sql`${productVariants.sku} <> ''`));
  },

  /** The variants of these products lose their SKUs for the moment, so SKUs may move between them. */
  async clearSkus(tx: Tx, productIds: string[]): Promise<void> {
    if (productIds.length === 0) return;
    await tx.execute(sql`
      update ${productVariants} set sku = '' where sku <> '' and product_id in ${idList(productIds)}`);
  },

  /**
   * One statement for a batch: a new slug inserts its product, a known one updates it (ON CONFLICT on the
   * slug index). Answers the id and slug of each row written.
   */
  async upsertProducts(tx: Tx, rows: ProductWrite[]): Promise<{ id: string; slug: string }[]> {
    if (rows.length === 0) return [];
    const written = await tx.execute<{ id: string; slug: string }>(sql`
      insert into ${products} (id, slug, name, brand, category_id, price_cents, count_in_stock, purchase_link,
        shipping_method, image, video, description, description_text, status, published_at)
      select id, slug, name, brand, "categoryId", "priceCents", "countInStock", "purchaseLink", "shippingMethod",
        image, video, description, "descriptionText", status, case when status = 'active' then now() end
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${PRODUCT_RECORD})
      on conflict (slug) do update set name = excluded.name, brand = excluded.brand,
        category_id = excluded.category_id, price_cents = excluded.price_cents,
        count_in_stock = excluded.count_in_stock, purchase_link = excluded.purchase_link,
        shipping_method = excluded.shipping_method, image = excluded.image, video = excluded.video,
        description = excluded.description, description_text = excluded.description_text,
        status = excluded.status, published_at = coalesce(${products.publishedAt}, excluded.published_at),
        updated_at = now()
      returning id, slug`);
    return written.rows;
  },

  /** Deletes the variants of these products but the ones kept (order items keep their snapshot). */
  async deleteVariantsExcept(tx: Tx, productIds: string[], keptIds: string[]): Promise<void> {
    if (productIds.length === 0) return;
    await tx.execute(sql`
      delete from ${productVariants}
      where product_id in ${idList(productIds)} and id not in ${idList(keptIds)}`);
  },

  /** Variants by id: a kept one is updated in place (order items keep pointing at it), a new one inserted. */
  async upsertVariants(tx: Tx, rows: VariantWrite[]): Promise<void> {
    for (const part of chunksOf(rows, VARIANTS_PER_STATEMENT))
      await tx.execute(sql`
        insert into ${productVariants} (id, product_id, name, src, price_cents, position, count_in_stock, sku)
        select id, "productId", name, src, "priceCents", position, "countInStock", sku
        from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as r(${VARIANT_RECORD})
        on conflict (id) do update set name = excluded.name, src = excluded.src, price_cents = excluded.price_cents,
          position = excluded.position, count_in_stock = excluded.count_in_stock, sku = excluded.sku`);
  },
};
