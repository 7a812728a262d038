import type { AdminProductSort, ProductStatus } from '@store/shared';
import { and, asc, desc, eq, gte, inArray, lte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { categories, productVariants, products } from '#server/db/schema/index.ts';
import { containsLower as contains, escapeLike, idPrefixRange } from '#server/lib/sql.ts';

/** What the admin list is narrowed to (text already cleaned); drafts included. */
export interface AdminProductFilter {
  idPrefix?: string;
  name?: string;
  brand?: string;
  categoryName?: string;
  categoryId?: string;
  skuPrefix?: string;
  status?: ProductStatus;
  minPriceCents?: number;
  maxPriceCents?: number;
}

export interface AdminProductPage {
  filter: AdminProductFilter;
  sortBy: AdminProductSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/**
 * What a product can sell: its own pool when it has no variants or a variant draws on it, plus every
 * variant's own stock. One aggregate over the product's variants (their product index answers it).
 */
const variantTotals = sql`(select
    coalesce(sum(v.count_in_stock), 0)::int as own,
    count(*)::int as n,
    coalesce(bool_or(v.count_in_stock is null), false) as draws_pool,
    min(v.count_in_stock) as min_own
  from ${productVariants} v where v.product_id = ${products.id})`;
const stockOf = sql<number>`((case when vt.n = 0 or vt.draws_pool then ${products.countInStock} else 0 end) + vt.own)`;

/** The variants' totals per product, grouped once for the stock sort (a hash join, not a subquery per product). */
const grouped = sql`(select product_id, sum(count_in_stock)::int as own, bool_or(count_in_stock is null) as draws_pool
  from ${productVariants} group by product_id)`;
const stockSortKey = sql`((case when vg.product_id is null or vg.draws_pool then ${products.countInStock} else 0 end) + coalesce(vg.own, 0))`;

function whereOf(f: AdminProductFilter): SQL | undefined {
  return and(
    f.idPrefix !== undefined ? idPrefixRange(products.id, f.idPrefix) : undefined,
    f.name !== undefined ? contains(sql`lower(${products.name})`, f.name) : undefined,
    f.brand !== undefined ? contains(sql`lower(${products.brand})`, f.brand) : undefined,
    f.categoryName !== undefined ? contains(sql`lower(${categories.name})`, f.categoryName) : undefined,
    f.categoryId !== undefined ? eq(products.categoryId, f.categoryId) : undefined,
    f.status !== undefined ? eq(products.status, f.status) : undefined,
    f.minPriceCents !== undefined ? gte(products.priceCents, f.minPriceCents) : undefined,
    f.maxPriceCents !== undefined ? lte(products.priceCents, f.maxPriceCents) : undefined,
    // the partial SKU index (lower(sku) text_pattern_ops where sku <> '') answers the prefix
    f.skuPrefix !== undefined
      ? sql`exists (select 1 from ${productVariants} v where v.product_id = ${products.id} and v.sku <> '' and lower(v.sku) like ${`${escapeLike(f.skuPrefix.toLowerCase())}%`})`
      : undefined,
  );
}

// The created and status indexes are DESC (NULLS LAST): a sort names the same placement (or its exact
// reverse) so PostgreSQL walks the index instead of sorting the table.
const down = (c: SQL | AnyColumn) => sql`${c} desc nulls last`;
const up = (c: SQL | AnyColumn) => sql`${c} asc nulls first`;

/** Each sort walks an index: name (lower(name), id), price (price_cents, id), brand (lower(brand)), status (status, created_at, id). */
function orderOf(sortBy: AdminProductSort, order: 'asc' | 'desc'): SQL[] {
  const dir = order === 'asc' ? asc : desc;
  switch (sortBy) {
    case 'name':
      return [dir(sql`lower(${products.name})`), dir(products.id)];
    case 'price':
      return [dir(products.priceCents), dir(products.id)];
    case 'brand':
      return [dir(sql`lower(${products.brand})`), dir(products.id)];
    case 'status':
      // ascending: active first, newest first within each (the index forwards); descending: its reverse
      return order === 'asc'
        ? [asc(products.status), down(products.createdAt), down(products.id)]
        : [desc(products.status), up(products.createdAt), up(products.id)];
    case 'stock':
      // a sum over variants has no index: every product's is computed, the variants grouped once (page())
      return [dir(stockSortKey), dir(products.id)];
    default:
      return order === 'asc'
        ? [up(products.createdAt), up(products.id)]
        : [down(products.createdAt), down(products.id)];
  }
}

export interface AdminListRow {
  id: string;
  slug: string;
  name: string;
  image: string;
  priceCents: number;
  brand: string;
  categoryId: string | null;
  categoryName: string | null;
  status: ProductStatus;
  countInStock: number;
  stock: number;
  minOwn: number | null;
  drawsPool: boolean;
  skus: string[];
  purchaseLink: string;
  createdAt: Date;
  updatedAt: Date;
}

export const productsAdminListRepository = {
  /**
   * A page of the admin list: the ids are picked on the sort's index first (only the page's rows get
   * their variant totals), except for the stock sort, which needs every product's total.
   */
  async page(db: Db, p: AdminProductPage): Promise<AdminListRow[]> {
    const orderBy = orderOf(p.sortBy, p.order);
    // the page's rows come in the same order (the stock sort by the same sum, computed per row there)
    const rowOrder =
      p.sortBy === 'stock'
        ? [(p.order === 'asc' ? asc : desc)(stockOf), (p.order === 'asc' ? asc : desc)(products.id)]
        : orderBy;
    const ids = db.select({ id: products.id }).from(products).$dynamic();
    if (p.filter.categoryName !== undefined) ids.leftJoin(categories, eq(categories.id, products.categoryId));
    if (p.sortBy === 'stock') ids.leftJoin(sql`${grouped} vg`, sql`vg.product_id = ${products.id}`);
    const pageIds = ids
      .where(whereOf(p.filter))
      .orderBy(...orderBy)
      .limit(p.limit)
      .offset(p.offset);
    const rows = await db
      .select({
        id: products.id,
        slug: products.slug,
        name: products.name,
        image: products.image,
        priceCents: products.priceCents,
        brand: products.brand,
        categoryId: products.categoryId,
        categoryName: categories.name,
        status: products.status,
        countInStock: products.countInStock,
        stock: sql<number>`${stockOf}::int`,
        minOwn: sql<number | null>`vt.min_own`,
        drawsPool: sql<boolean>`(vt.n = 0 or vt.draws_pool)`,
        skus: sql<
          string[]
        >`coalesce((select array_agg(v.sku order by v.position) from ${productVariants} v where v.product_id = ${products.id} and v.sku <> ''), '{}')`,
        purchaseLink: products.purchaseLink,
        createdAt: products.createdAt,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(sql`lateral ${variantTotals} vt`, sql`true`)
      .where(inArray(products.id, pageIds))
      .orderBy(...rowOrder);
    return rows as AdminListRow[];
  },

  async count(db: Db, filter: AdminProductFilter): Promise<number> {
    const q = db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .$dynamic();
    if (filter.categoryName !== undefined) q.leftJoin(categories, eq(categories.id, products.categoryId));
    const [row] = await q.where(whereOf(filter));
    return row?.n ?? 0;
  },
};
