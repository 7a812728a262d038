import { and, asc, eq, inArray, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import {
  categories,
  orderItems,
  productImages,
  productSlugs,
  productVariants,
  products,
} from '#server/db/schema/index.ts';

type Conn = Db | Tx;
export type ProductInsert = typeof products.$inferInsert;
type ProductRowAdmin = typeof products.$inferSelect;
export interface VariantValues {
  id?: string;
  name: string;
  src: string;
  priceCents: number | null;
  /** Own stock, or null (draws on the product's); undefined keeps what an existing variant has (null for a new one). */
  countInStock?: number | null;
  /** '' for none; undefined keeps what an existing variant has ('' for a new one). */
  sku?: string;
}

/** Of categories sharing a name, the one a name picks: roots first, then by position. */
const categoryPreference = [sql`${categories.parentId} is not null`, asc(categories.position), asc(categories.id)];

export const productsAdminRepository = {
  async find(db: Conn, id: string): Promise<ProductRowAdmin | undefined> {
    const [row] = await db.select().from(products).where(eq(products.id, id));
    return row;
  },

  /** Slugs equal to `base` or `base-…`, current or former, of products other than `exceptId`. */
  async slugsTaken(db: Conn, base: string, exceptId: string | null): Promise<Set<string>> {
    // base holds only [a-z0-9-]: nothing to escape for LIKE
    const like = `${base}-%`;
    const current = await db
      .select({ slug: products.slug })
      .from(products)
      .where(
        and(
          or(eq(products.slug, base), sql`${products.slug} like ${like}`),
          exceptId ? ne(products.id, exceptId) : undefined,
        ),
      );
    const former = await db
      .select({ slug: productSlugs.slug })
      .from(productSlugs)
      .where(
        and(
          or(eq(productSlugs.slug, base), sql`${productSlugs.slug} like ${like}`),
          exceptId ? ne(productSlugs.productId, exceptId) : undefined,
        ),
      );
    return new Set([...current, ...former].map((r) => r.slug));
  },

  async insert(tx: Conn, values: ProductInsert): Promise<ProductRowAdmin> {
    const [row] = await tx.insert(products).values(values).returning();
    return row!;
  },

  async update(tx: Conn, id: string, values: Partial<ProductInsert>): Promise<void> {
    await tx
      .update(products)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(products.id, id));
  },

  /** The old slug keeps pointing at the product; a slug it takes back stops being "former". */
  async moveSlug(tx: Tx, productId: string, from: string, to: string): Promise<void> {
    await tx.delete(productSlugs).where(and(eq(productSlugs.slug, to), eq(productSlugs.productId, productId)));
    await tx
      .insert(productSlugs)
      .values({ slug: from, productId })
      .onConflictDoUpdate({ target: productSlugs.slug, set: { productId } });
  },

  async replaceImages(tx: Tx, productId: string, srcs: string[]): Promise<void> {
    await tx.delete(productImages).where(eq(productImages.productId, productId));
    if (srcs.length) await tx.insert(productImages).values(srcs.map((src, position) => ({ productId, src, position })));
  },

  /**
   * Makes the product's variants exactly `list`, in its order: a given id of this product is updated in
   * place (order items keep pointing at it), anything else is inserted, and variants left out are deleted
   * (their order items keep their snapshot; the FK sets variant_id null).
   */
  async syncVariants(tx: Tx, productId: string, list: VariantValues[]): Promise<void> {
    const existing = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, productId));
    const free = new Set(existing.map((r) => r.id));
    const kept: string[] = [];
    // SKUs may move between this product's variants: the old ones step aside first (SKUs are unique)
    const moving = list.filter((v) => v.sku !== undefined && v.id && free.has(v.id)).map((v) => v.id!);
    if (moving.length)
      await tx
        .update(productVariants)
        .set({ sku: '' })
        .where(and(eq(productVariants.productId, productId), inArray(productVariants.id, moving)));
    for (const [position, v] of list.entries()) {
      const values = {
        name: v.name,
        src: v.src,
        priceCents: v.priceCents,
        position,
        ...(v.countInStock !== undefined ? { countInStock: v.countInStock } : {}),
        ...(v.sku !== undefined ? { sku: v.sku } : {}),
      };
      if (v.id && free.delete(v.id)) {
        kept.push(v.id);
        await tx.update(productVariants).set(values).where(eq(productVariants.id, v.id));
      } else {
        const [row] = await tx
          .insert(productVariants)
          .values({ productId, ...values })
          .returning({ id: productVariants.id });
        kept.push(row!.id);
      }
    }
    await tx
      .delete(productVariants)
      .where(
        and(eq(productVariants.productId, productId), kept.length ? notInArray(productVariants.id, kept) : undefined),
      );
  },

  /** Of these SKUs (lower-case), the ones variants of other products have. */
  async skusTaken(db: Conn, productId: string, lowerSkus: string[]): Promise<string[]> {
    if (lowerSkus.length === 0) return [];
    const rows = await db
      .select({ sku: productVariants.sku })
      .from(productVariants)
      .where(
        and(
          inArray(sql`lower(${productVariants.sku})`, lowerSkus),
          sql`${productVariants.sku} <> ''`,
          ne(productVariants.productId, productId),
        ),
      );
    return rows.map((r) => r.sku);
  },

  async categoryById(db: Conn, id: string): Promise<string | undefined> {
    const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
    return row?.id;
  },

  /** A name can belong to several categories (a child under two parents): roots first, then by position. */
  async categoryByName(db: Conn, name: string): Promise<string | undefined> {
    const [row] = await db
      .select({ id: categories.id })
      .from(categories)
      .where(sql`lower(${categories.name}) = ${name.toLowerCase()}`)
      .orderBy(...categoryPreference)
      .limit(1);
    return row?.id;
  },

  /** The category each of these names (lower-case) picks as categoryByName would; unknown names are left out. */
  async categoriesByName(db: Conn, lowerNames: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (lowerNames.length === 0) return found;
    const rows = await db
      .select({ id: categories.id, key: sql<string>`lower(${categories.name})` })
      .from(categories)
      .where(inArray(sql`lower(${categories.name})`, lowerNames))
      .orderBy(...categoryPreference);
    for (const r of rows) if (!found.has(r.key)) found.set(r.key, r.id);
    return found;
  },

  /**
   * Appends `srcs` to the product's gallery in their order (after its last image), makes the first its
   * main image when it has none and `folder` its gallery folder when unset. The product row is locked
   * first, so two uploads at once append one after the other. False when the product is gone.
   */
  async attachImages(tx: Tx, productId: string, folder: string, srcs: string[]): Promise<boolean> {
    const [locked] = await tx
      .select({ id: products.id })
      .from(products)
      .where(eq(products.id, productId))
      .for('update');
    if (!locked || srcs.length === 0) return Boolean(locked);
    const [last] = await tx
      .select({ n: sql<number | null>`max(${productImages.position})` })
      .from(productImages)
      .where(eq(productImages.productId, productId));
    const start = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
    await tx.insert(productImages).values(srcs.map((src, i) => ({ productId, src, position: start + i })));
    await tx
      .update(products)
      .set({
        image: sql`case when ${products.image} = '' then ${srcs[0]!} else ${products.image} end`,
        imageFolderName: sql`case when ${products.imageFolderName} = '' then ${folder} else ${products.imageFolderName} end`,
        updatedAt: new Date(),
      })
      .where(eq(products.id, productId));
    return true;
  },

  /** The product with its category's name, whatever its status (the admin's view). */
  async findWithCategory(db: Conn, id: string) {
    const [row] = await db
      .select({ product: products, categoryName: categories.name, categorySlug: categories.slug })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(eq(products.id, id));
    return row;
  },

  /** Locks the products of `ids` that exist (a bulk action's rows), answering their id, name, price. */
  async lockForBulk(tx: Tx, ids: string[]) {
    return tx
      .select({ id: products.id, name: products.name, priceCents: products.priceCents })
      .from(products)
      .where(inArray(products.id, ids))
      .orderBy(asc(products.id))
      .for('update');
  },

  /** Sets the status of these products; a product becoming active for the first time gets its publish time. */
  async setStatus(tx: Tx, ids: string[], status: 'draft' | 'active'): Promise<void> {
    await tx
      .update(products)
      .set({
        status,
        updatedAt: new Date(),
        ...(status === 'active' ? { publishedAt: sql`coalesce(${products.publishedAt}, now())` } : {}),
      })
      .where(inArray(products.id, ids));
  },

  async setCategory(tx: Tx, ids: string[], categoryId: string | null): Promise<void> {
    await tx.update(products).set({ categoryId, updatedAt: new Date() }).where(inArray(products.id, ids));
  },

  async removeMany(tx: Tx, ids: string[]): Promise<number> {
    const rows = await tx.delete(products).where(inArray(products.id, ids)).returning({ id: products.id });
    return rows.length;
  },

  /**
   * Deletes up to `limit` drafts never published and untouched since `cutoff`; rows another process
   * is sweeping (or an admin is saving) are skipped, not waited for. Answers the deleted ids, and the
   * image srcs (main image, gallery, variants) of those drafts that nothing left references: no other
   * product, gallery or variant, and no order's line (an image may be shared).
   */
  async removeStaleDrafts(tx: Tx, cutoff: Date, limit: number): Promise<{ ids: string[]; unusedImages: string[] }> {
    const due = await tx
      .select({ id: products.id, image: products.image })
      .from(products)
      .where(and(eq(products.status, 'draft'), isNull(products.publishedAt), lt(products.updatedAt, cutoff)))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return { ids: [], unusedImages: [] };
    const ids = due.map((r) => r.id);
    const [gallery, variants] = await Promise.all([
      tx.select({ src: productImages.src }).from(productImages).where(inArray(productImages.productId, ids)),
      tx.select({ src: productVariants.src }).from(productVariants).where(inArray(productVariants.productId, ids)),
    ]);
    await tx.delete(products).where(inArray(products.id, ids));
    const srcs = [
      ...new Set([...due.map((r) => r.image), ...gallery.map((r) => r.src), ...variants.map((r) => r.src)]),
    ].filter((src) => src !== '');
    if (srcs.length === 0) return { ids, unusedImages: [] };
    // read after the delete: only references from what remains count
    const used = await Promise.all([
      tx.selectDistinct({ src: products.image }).from(products).where(inArray(products.image, srcs)),
      tx.selectDistinct({ src: productImages.src }).from(productImages).where(inArray(productImages.src, srcs)),
      tx.selectDistinct({ src: productVariants.src }).from(productVariants).where(inArray(productVariants.src, srcs)),
      tx.selectDistinct({ src: orderItems.image }).from(orderItems).where(inArray(orderItems.image, srcs)),
    ]);
    const kept = new Set(used.flat().map((r) => r.src));
    return { ids, unusedImages: srcs.filter((src) => !kept.has(src)) };
  },

  async remove(db: Conn, id: string): Promise<boolean> {
    const rows = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
    return rows.length === 1;
  },
};
