import type { AdminProductSort, ProductStatus } from '@store/shared';
import { and, asc, desc, eq, gte, inArray, lte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { categories, productVariants, products } from '#server/db/schema/index.ts';
import { direct, PreparedShapes, type Bind } from '#server/lib/prepared-shapes.ts';
import { containsLower as contains, escapeLike, idPrefixBounds, idPrefixRange, integersOf } from '#server/lib/sql.ts';

/** What the admin list is narrowed to (text already cleaned); drafts included. */
export interface AdminProductFilter {
  idPrefix?: string;
  name?: string;
  /** Brands containing this text (the trigram index); `brands` instead when the distinct brands are known. */
  brand?: string;
  /** Products of any of these brands, lowercased as PostgreSQL lowers them (the brand's btree answers it). */
  brands?: string[];
  /** Products in any of these categories (those whose name contains the admin's text: categoriesNamed). */
  categoryIds?: string[];
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
  /** Few products match: they are found by the filters' indexes and sorted (orderUnindexed). */
  few?: boolean;
}

/**
 * What a product can sell: its own pool when it has no variants or a variant draws on it, plus every
 * variant's own stock. One aggregate over the product's variants (their product index answers it).
 */
const variantTotals = sql`(select
    coalesce(sum(v.count_in_stock), 0)::int as own,
    count(*)::int as n,
    coalesce(bool_or(v.count_in_stock is null), false) as draws_pool,
    min(v.count_in_stock) as min_own,
    coalesce(array_agg(v.sku order by v.position) filter (where v.sku <> ''), '{}') as skus
  from ${productVariants} v where v.product_id = ${products.id})`;
const stockOf = sql<number>`((case when vt.n = 0 or vt.draws_pool then ${products.countInStock} else 0 end) + vt.own)`;

/** The variants' totals per product, grouped once for the stock sort (a hash join, not a subquery per product). */
const grouped = sql`(select product_id, sum(count_in_stock)::int as own, bool_or(count_in_stock is null) as draws_pool
  from ${productVariants} group by product_id)`;
const stockSortKey = sql`((case when vg.product_id is null or vg.draws_pool then ${products.countInStock} else 0 end) + coalesce(vg.own, 0))`;

/**
 * The filters as SQL, each value put in by `bind` (a placeholder of the page's prepared shape, or the
 * value itself): what is computed from a value (a LIKE pattern, a prefix's range) is bound whole.
 */
function whereOf(f: AdminProductFilter, bind: Bind = direct): SQL | undefined {
  return and(
    f.idPrefix !== undefined ? idPrefixRange(products.id, f.idPrefix, bind) : undefined,
    f.name !== undefined ? contains(sql`lower(${products.name})`, f.name, bind, 'name') : undefined,
    f.brand !== undefined ? contains(sql`lower(${products.brand})`, f.brand, bind, 'brand') : undefined,
    f.brands !== undefined
      ? f.brands.length > 0
        ? inArray(
            sql`lower(${products.brand})`,
            f.brands.map((b, i) => bind(`brands.${i}`, b)),
          )
        : sql`false`
      : undefined,
    f.categoryIds !== undefined
      ? f.categoryIds.length > 0
        ? inArray(
            products.categoryId,
            f.categoryIds.map((c, i) => bind(`categoryIds.${i}`, c)),
          )
        : sql`false`
      : undefined,
    f.categoryId !== undefined ? eq(products.categoryId, bind('categoryId', f.categoryId)) : undefined,
    f.status !== undefined ? eq(products.status, bind('status', f.status)) : undefined,
    f.minPriceCents !== undefined ? gte(products.priceCents, bind('minPriceCents', f.minPriceCents)) : undefined,
    f.maxPriceCents !== undefined ? lte(products.priceCents, bind('maxPriceCents', f.maxPriceCents)) : undefined,
    // the partial SKU index (lower(sku) text_pattern_ops where sku <> '') answers the prefix
    f.skuPrefix !== undefined
      ? sql`exists (select 1 from ${productVariants} v where v.product_id = ${products.id} and v.sku <> '' and lower(v.sku) like ${bind('skuPrefix', `${escapeLike(f.skuPrefix.toLowerCase())}%`)})`
      : undefined,
  );
}

/** The filter choices no bound value shows: a filter that matches nothing is written as `false`. */
function shapeOf(f: AdminProductFilter): string {
  const empty = [
    f.idPrefix !== undefined && !idPrefixBounds(f.idPrefix) ? 'idPrefix' : '',
    f.brands?.length === 0 ? 'brands' : '',
    f.categoryIds?.length === 0 ? 'categoryIds' : '',
  ];
  return empty.filter(Boolean).join(',');
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

/**
 * The same order as orderOf, said so that no index answers it: a few matching products are then found by
 * the filters' indexes and sorted, instead of a sort index walked past every product that does not match.
 */
function orderUnindexed(sortBy: AdminProductSort, order: 'asc' | 'desc'): SQL[] {
  const dir = order === 'asc' ? asc : desc;
  const id = sql`(${products.id} || '')`;
  const at = sql`(${products.createdAt} + interval '0 s')`;
  switch (sortBy) {
    case 'name':
      return [dir(sql`(lower(${products.name}) || '')`), dir(id)];
    case 'price':
      return [dir(sql`(${products.priceCents} + 0)`), dir(id)];
    case 'brand':
      return [dir(sql`(lower(${products.brand}) || '')`), dir(id)];
    case 'status':
      return order === 'asc'
        ? [asc(sql`(${products.status} || '')`), down(at), desc(id)]
        : [desc(sql`(${products.status} || '')`), up(at), asc(id)];
    case 'stock':
      return orderOf(sortBy, order);
    default:
      return order === 'asc' ? [up(at), asc(id)] : [down(at), desc(id)];
  }
}

/**
 * Whether a page is read faster from the few matching products, sorted, than by walking the sort's index:
 * the walk passes about (offset + limit) × table / matches entries, the other reads every match.
 */
export function fewMatches(matches: number, offset: number, limit: number, tableRows: number): boolean {
  return matches * matches * 8 <= (offset + limit) * Math.max(tableRows, matches);
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

/** The planner's estimate of the catalogue's rows (which page plan fits: fewMatches). */
const tableRowsEstimate = sql<number>`(select greatest(reltuples, 0)::float8 from pg_class where oid = 'products'::regclass)`;

/** The page's statement, built once per shape (the sort, the filters present, how many brands listed). */
const pageShapes = new PreparedShapes();

export const productsAdminListRepository = {
  /**
   * A page of the admin list: the ids are picked on the sort's index first (only the page's rows get
   * their variant totals), except for the stock sort, which needs every product's total.
   */
  async page(db: Db, p: AdminProductPage): Promise<AdminListRow[]> {
    const shape = `${p.sortBy} ${p.order} ${p.few ? 'few' : ''} ${shapeOf(p.filter)}`;
    return (await pageShapes.run(db, shape, (bind) => this.pageStatement(db, p, bind))) as AdminListRow[];
  },

  /** The statement `page` runs (its plan is checked by the tests), each value put in by `bind`. */
  pageStatement(db: Db, p: AdminProductPage, bind: Bind = direct) {
    const orderBy = orderOf(p.sortBy, p.order);
    // the page's rows come in the same order (the stock sort by the same sum, computed per row there)
    const rowOrder =
      p.sortBy === 'stock'
        ? [(p.order === 'asc' ? asc : desc)(stockOf), (p.order === 'asc' ? asc : desc)(products.id)]
        : orderBy;
    const ids = db.select({ id: products.id }).from(products).$dynamic();
    if (p.sortBy === 'stock') ids.leftJoin(sql`${grouped} vg`, sql`vg.product_id = ${products.id}`);
    const pageIds = ids
      .where(whereOf(p.filter, bind))
      .orderBy(...(p.few ? orderUnindexed(p.sortBy, p.order) : orderBy))
      .limit(bind('limit', p.limit))
      .offset(bind('offset', p.offset));
    return db
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
        skus: sql<string[]>`vt.skus`,
        purchaseLink: products.purchaseLink,
        createdAt: products.createdAt,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(sql`lateral ${variantTotals} vt`, sql`true`)
      .where(inArray(products.id, pageIds))
      .orderBy(...rowOrder);
  },

  /**
   * How many products the filter matches, with the planner's estimate of the table's rows (read in the
   * same statement).
   */
  async count(db: Db, filter: AdminProductFilter): Promise<{ total: number; tableRows: number }> {
    const [row] = await db
      .select({
        n: sql<number>`count(*)::int`,
        rows: tableRowsEstimate,
      })
      .from(products)
      .where(whereOf(filter));
    return { total: row?.n ?? 0, tableRows: Number(row?.rows ?? 0) };
  },

  /** The planner's estimate of the catalogue's rows. */
  async tableRows(db: Db): Promise<number> {
    const result = await db.execute<{ rows: unknown }>(sql`select ${tableRowsEstimate} as rows`);
    return Number(result.rows[0]?.rows ?? 0);
  },

  /** The prices (cents) of at most `limit` of the products the filter matches, in no order. */
  async pricesOf(db: Db, filter: AdminProductFilter, limit: number): Promise<Int32Array> {
    return integersOf(db, products.priceCents, products, whereOf(filter), limit);
  },

  /**
   * Every distinct brand, lowercased, read off the brand index one value at a time (a skip scan: one index
   * probe per brand, however many products), or null when there are more than `max`.
   */
  async distinctBrands(db: Db, max: number): Promise<string[] | null> {
    const rows = await db.execute<{ v: string }>(sql`with recursive b(v) as (
        (select lower(${products.brand}) from ${products} order by 1 limit 1)
        union all
        select (select lower(p.brand) from ${products} p where lower(p.brand) > b.v order by 1 limit 1)
        from b where b.v is not null
      ) select v from b where v is not null limit ${max + 1}`);
    const list = rows.rows.map((r) => r.v);
    return list.length > max ? null : list;
  },

  /** The categories whose name contains this text, any case (a small table). */
  async categoriesNamed(db: Db, text: string): Promise<string[]> {
    const rows = await db
      .select({ id: categories.id })
      .from(categories)
      .where(contains(sql`lower(${categories.name})`, text));
    return rows.map((r) => r.id);
  },
};
