import type { ProductListQuery } from '@store/shared';
import { and, asc, desc, eq, gte, inArray, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#server/db/client.ts';
import { categories, productVariants, products } from '#server/db/schema/index.ts';
import { PreparedShapes } from '#server/lib/prepared-shapes.ts';
import { anyOf, containsLower as contains, escapeLike, idPrefixRange } from '#server/lib/sql.ts';
import { selectSummaries } from './catalog.repository.ts';
import type { FacetRow } from './facet-index.ts';
import type { Anchor } from './list-memo.ts';

/** What a product list is narrowed to: each field that is set adds a condition (text already cleaned). */
export interface ProductFilter {
  /** A 24-hex id or its prefix. */
  idPrefix?: string;
  /** Case-insensitive "contains" on the name, the brand and the category's name. */
  name?: string;
  /** Exact brands, whatever the case (lower-cased here): any of them. */
  brands?: string[];
  categoryName?: string;
  /** Products in any of these categories (a category and its children). */
  categoryIds?: string[];
  minPriceCents?: number;
  maxPriceCents?: number;
  /** Only products a shopper can buy now. */
  inStock?: boolean;
  /** Rating at least this. */
  minRating?: number;
  /** Shopper reads: active products only (drafts are the admins'). */
  activeOnly?: boolean;
  /** Products with a variant whose SKU starts with this (any case). */
  skuPrefix?: string;
}

/**
 * How products match a keyword: by their full-text vector (a prefix tsquery, `wire:* & head:*`) or by
 * being in one of `categoryIds`; or, for typos, by trigram word similarity of their name.
 */
export type KeywordMatch = { tsQuery: string; categoryIds: string[] } | { similarTo: string };

export interface ProductPage {
  filter: ProductFilter;
  match?: KeywordMatch;
  /** `relevance` orders a keyword match best first; without a match it is the default, newest first. */
  sortBy?: ProductListQuery['sortBy'];
  /** Unset: ascending by name and price, descending by rating and date. */
  order?: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** Starts the newest-first list at this anchor (a keyset: the index is entered there, not walked to it). */
  from?: Anchor;
  /**
   * The filter is known to match few products (the facet table counted them): find them by the filters'
   * indexes and sort them, rather than walk the sort's index past everything that does not match.
   */
  few?: boolean;
  /** The matching products are among these (the facet table's matches): looked up by id. */
  among?: string[];
}

/**
 * Relevance of a keyword search: per word, `ts_rank_cd` of the word alone, which for one word is the sum
 * of its occurrences' weights (0.1 description … 1.0 name), times 10 as an integer; the words add up.
 * The keyword index (search-index.ts) scores exactly so, and the two paths must order alike: a
 * shopper's page 1 may come from one and page 2 from the other.
 */
function relevance(tsQuery: string): SQL {
  return sql.join(
    tsQuery.split(' & ').map((w) => sql`round(ts_rank_cd(${products.searchVector}, to_tsquery('english', ${w})) * 10)`),
    sql` + `,
  );
}

function matching(m: KeywordMatch): SQL {
  // the trigram index answers `<%` (word similarity above the threshold)
  if ('similarTo' in m) return sql`${m.similarTo.toLowerCase()} <% lower(${products.name})`;
  // a product matches on its own words or on its category's: an OR of two indexed conditions (GIN full
  // text, category btree), not a subquery, which made PostgreSQL scan every product
  const own = sql`${products.searchVector} @@ to_tsquery('english', ${m.tsQuery})`;
  return m.categoryIds.length > 0 ? or(own, inArray(products.categoryId, m.categoryIds))! : own;
}

/** Every condition of the filter and the keyword (the facets leave their own field out of `f`). */
export function whereOf(f: ProductFilter, match: KeywordMatch | undefined): SQL | undefined {
  return and(
    f.activeOnly ? eq(products.status, 'active') : undefined,
    f.idPrefix !== undefined ? idPrefixRange(products.id, f.idPrefix) : undefined,
    f.name !== undefined ? contains(sql`lower(${products.name})`, f.name) : undefined,
    f.brands !== undefined
      ? inArray(
          sql`lower(${products.brand})`,
          f.brands.map((b) => b.toLowerCase()),
        )
      : undefined,
    f.categoryName !== undefined ? contains(sql`lower(${categories.name})`, f.categoryName) : undefined,
    f.categoryIds !== undefined ? inArray(products.categoryId, f.categoryIds) : undefined,
    f.minPriceCents !== undefined ? gte(products.priceCents, f.minPriceCents) : undefined,
    f.maxPriceCents !== undefined ? lte(products.priceCents, f.maxPriceCents) : undefined,
    // the flag the database keeps on each product (its variants' stock or its own)
    f.inStock ? eq(products.inStock, true) : undefined,
    f.minRating !== undefined ? gte(products.rating, f.minRating) : undefined,
    // the partial SKU index (lower(sku) text_pattern_ops where sku <> '') answers the prefix
    f.skuPrefix !== undefined
      ? sql`exists (select 1 from ${productVariants} v where v.product_id = ${products.id} and v.sku <> '' and lower(v.sku) like ${`${escapeLike(f.skuPrefix.toLowerCase())}%`})`
      : undefined,
    match && matching(match),
  );
}

// The created and rating indexes are DESC (NULLS LAST): a sort must name the same NULLS placement
// (forwards, or reversed for ascending) or PostgreSQL sorts the whole table instead of walking them.
const down = (c: SQL | AnyColumn) => sql`${c} desc nulls last`;
const up = (c: SQL | AnyColumn) => sql`${c} asc nulls first`;

function orderOf({ sortBy, order, match, few }: Pick<ProductPage, 'sortBy' | 'order' | 'match' | 'few'>): SQL[] {
  const direction = order === 'asc' ? asc : order === 'desc' ? desc : undefined;
  const onDescIndex = order === 'asc' ? up : down;
  // the same order by an expression no index has: PostgreSQL then cannot choose to walk a sort index
  if (few) {
    const dir = (c: SQL, ascending: boolean) => (ascending ? up(c) : down(c));
    switch (sortBy) {
      case 'name':
        return [dir(sql`lower(${products.name}) || ''`, order !== 'desc'), asc(products.id)];
      case 'price':
        return [dir(sql`${products.priceCents} + 0`, order !== 'desc'), asc(products.id)];
      case 'rating':
        return [dir(sql`${products.rating} + 0`, order === 'asc'), down(products.numReviews), asc(products.id)];
      case 'relevance':
      case undefined:
      case 'createdAt':
        if (!match) return [dir(sql`${products.createdAt} + interval '0'`, order === 'asc'), onDescIndex(products.id)];
    }
  }
  if (sortBy === 'relevance' && match) {
    const best =
      'similarTo' in match
        ? sql`word_similarity(${match.similarTo.toLowerCase()}, lower(${products.name}))`
        : relevance(match.tsQuery);
    return [desc(best), asc(products.id)];
  }
  switch (sortBy) {
    case 'name':
      return [(direction ?? asc)(sql`lower(${products.name})`), asc(products.id)];
    case 'price':
      return [(direction ?? asc)(products.priceCents), asc(products.id)];
    case 'rating':
      return [onDescIndex(products.rating), down(products.numReviews), asc(products.id)];
    default:
      return [onDescIndex(products.createdAt), onDescIndex(products.id)];
  }
}

/** Reads of rows by a list of ids: one statement, built once (lib/prepared-shapes.ts). */
const byIds = new PreparedShapes();

export const productListRepository = {
  /**
   * A page of the list as a deferred join: the inner query walks only the ids (an index-only scan of
   * the sort's index, past OFFSET rows cheaply), the outer one reads the page's rows. On 100,000
   * products the default sort's page 2,000 takes ~11 ms instead of ~150 ms (docs/performance.md).
   */
  async page(db: Db, p: ProductPage) {
    const orderBy = orderOf(p);
    const from =
      p.from && sql`(${products.createdAt}, ${products.id}) <= (${p.from.createdAt}::timestamptz, ${p.from.id})`;
    const ids = db.select({ id: products.id }).from(products).$dynamic();
    // without the join PostgreSQL walks the sort's index alone (index-only): page 2,500 of 100,000 in
    // ~15 ms instead of a scan and sort of the table (~120 ms)
    if (p.filter.categoryName !== undefined) ids.leftJoin(categories, eq(categories.id, products.categoryId));
    const page = ids
      .where(and(whereOf(p.filter, p.match), from, p.among ? anyOf(products.id, p.among) : undefined))
      .orderBy(...orderBy)
      .limit(p.limit)
      .offset(p.offset);
    return selectSummaries(db)
      .where(inArray(products.id, page))
      .orderBy(...orderBy);
  },

  async count(db: Db, filter: ProductFilter, match?: KeywordMatch): Promise<number> {
    const q = db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .$dynamic();
    if (filter.categoryName !== undefined) q.leftJoin(categories, eq(categories.id, products.categoryId));
    const [row] = await q.where(whereOf(filter, match));
    return row?.n ?? 0;
  },

  /** The page's rows of a ranked search, by id (the caller puts them in rank order). */
  async summariesByIds(db: Db, ids: string[]) {
    if (ids.length === 0) return [];
    return byIds.run(db, 'summaries', (bind) => selectSummaries(db).where(anyOf(products.id, ids, bind)));
  },

  /** Brands of the matching products with their counts (brands differing only in case are one), most first. */
  async brandFacet(db: Db, filter: ProductFilter, match?: KeywordMatch) {
    const q = db
      .select({ name: sql<string>`min(${products.brand})`, count: sql<number>`count(*)::int` })
      .from(products)
      .$dynamic();
    if (filter.categoryName !== undefined) q.leftJoin(categories, eq(categories.id, products.categoryId));
    return q
      .where(and(whereOf(filter, match), sql`${products.brand} <> ''`))
      .groupBy(sql`lower(${products.brand})`)
      .orderBy(sql`count(*) desc`, sql`lower(${products.brand})`)
      .limit(100);
  },

  /** How many matching products each category holds itself (children not added in). */
  async categoryFacet(db: Db, filter: ProductFilter, match?: KeywordMatch) {
    const q = db
      .select({ categoryId: products.categoryId, count: sql<number>`count(*)::int` })
      .from(products)
      .$dynamic();
    if (filter.categoryName !== undefined) q.leftJoin(categories, eq(categories.id, products.categoryId));
    return q.where(and(whereOf(filter, match), sql`${products.categoryId} is not null`)).groupBy(products.categoryId);
  },

  /**
   * The lowest and highest price (cents) of the matching products. PostgreSQL answers a bare min()/max()
   * by walking the price index until the first row that matches; for a keyword that matches few products
   * or none (a typo) that walk reads every product (14 s at 1,000,000). With a keyword the matches are read
   * from its index instead (FILTER keeps the planner from that rewrite), as the other facets read them.
   */
  async priceFacet(db: Db, filter: ProductFilter, match?: KeywordMatch) {
    const fence = match ? sql` filter (where true)` : sql``;
    const q = db
      .select({
        min: sql<number | null>`min(${products.priceCents})${fence}`,
        max: sql<number | null>`max(${products.priceCents})${fence}`,
      })
      .from(products)
      .$dynamic();
    if (filter.categoryName !== undefined) q.leftJoin(categories, eq(categories.id, products.categoryId));
    const [row] = await q.where(whereOf(filter, match));
    return { min: row?.min ?? null, max: row?.max ?? null };
  },

  /** The in-stock flag of each of these products that is active. */
  async inStockOf(db: Db, ids: string[]) {
    return db
      .select({ id: products.id, inStock: products.inStock })
      .from(products)
      .where(and(eq(products.status, 'active'), anyOf(products.id, ids)));
  },

  /**
   * Up to `limit` active products after id `after` (in id order), as the facet table reads them. Plain
   * rows without the query builder's mapping: a build reads every active product (1,000,000 rows at the
   * largest shop measured), and mapping each row cost a fifth of the build's time.
   */
  async facetRowsAfter(db: Db, after: string, limit: number) {
    const result = await db.execute<Required<FacetRow>>(sql`
      select ${products.id} as "id", ${products.brand} as "brand", ${products.categoryId} as "categoryId",
        ${products.priceCents} as "priceCents", ${products.rating}::float8 as "rating",
        ${products.numReviews} as "numReviews", ${products.inStock} as "inStock"
      from ${products}
      where ${products.status} = 'active' and ${products.id} > ${after}
      order by ${products.id}
      limit ${limit}`);
    return result.rows;
  },

  /**
   * Every active product's rank by lower-case name and by date added (equal values share one), in id
   * order, 8 bytes a product (two big-endian 32-bit ranks), with how many products there are and the
   * first and last id, to check the ranks belong to the rows the facet table read. The database ranks
   * the names, so the order is its collation's: the same as its sort by name. About 3 s of the database
   * at 1,000,000 products, once per build of the facet table.
   */
  async sortRanks(db: Db): Promise<{ n: number; first: string | null; last: string | null; ranks: Buffer }> {
    const result = await db.execute<{ n: number; first: string | null; last: string | null; ranks: unknown }>(sql`
      select count(*)::int as n, min(id) as first, max(id) as last,
        string_agg(int4send(name_rank::int) || int4send(created_rank::int), ''::bytea order by id) as ranks
      from (
        select id, dense_rank() over (order by lower(${products.name})) as name_rank,
          dense_rank() over (order by ${products.createdAt}) as created_rank
        from ${products}
        where ${products.status} = 'active'
      ) ranked`);
    const row = result.rows[0];
    const raw = row?.ranks;
    // node-postgres gives a bytea as a Buffer, PGlite as a Uint8Array
    const ranks = raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) : Buffer.alloc(0);
    return { n: row?.n ?? 0, first: row?.first ?? null, last: row?.last ?? null, ranks };
  },

  /** Every category (a small table): the facets add children's counts to their parents. */
  async allCategories(db: Db) {
    return db
      .select({ id: categories.id, slug: categories.slug, name: categories.name, parentId: categories.parentId })
      .from(categories);
  },

  /** The sort key of every `every`-th product of the newest-first list (ListMemo's anchors). */
  async anchors(db: Db, every: number): Promise<Anchor[]> {
    const result = await db.execute<{ created_at: string; id: string }>(sql`
      select created_at::text as created_at, id from (
        select created_at, id, row_number() over (order by created_at desc nulls last, id desc nulls last) - 1 as rn
        from ${products}
        where ${products.status} = 'active'
      ) ranked
      where rn % ${every} = 0
      order by rn`);
    return result.rows.map((r) => ({ createdAt: r.created_at, id: r.id }));
  },

  /** A full-text query as PostgreSQL parses and stems it, printed (`'carri':* & 'home':*`). */
  async printedTsQuery(db: Db, tsQuery: string): Promise<string> {
    const result = await db.execute<{ q: string }>(sql`select to_tsquery('english', ${tsQuery})::text as q`);
    return result.rows[0]?.q ?? '';
  },

  /** Categories whose name, or whose parent's name, matches a full-text query (a product search). */
  async categoriesMatching(db: Db, tsQuery: string): Promise<string[]> {
    const parent = alias(categories, 'parent');
    const rows = await db
      .select({ id: categories.id })
      .from(categories)
      .leftJoin(parent, eq(parent.id, categories.parentId))
      .where(
        sql`to_tsvector('english', ${categories.name} || ' ' || coalesce(${parent.name}, '')) @@ to_tsquery('english', ${tsQuery})`,
      );
    return rows.map((r) => r.id);
  },

  /**
   * Whether each prefix query (`word:*`) matches some product or category on its own. The full-text index
   * must answer it: PostgreSQL guesses that a word matches thousands of products, so to find one it would
   * read the table from the start, and a word no product has would read every row (2.5 s at 1,000,000
   * products). Sequential scans are off for this one statement's transaction, and each word is its own
   * parameter, known when the statement is planned.
   */
  async everyWordMatches(db: Db, prefixQueries: string[]): Promise<boolean> {
    if (prefixQueries.length === 0) return false;
    const each = prefixQueries.map(
      (w) => sql`(exists(select 1 from ${products} where ${products.searchVector} @@ to_tsquery('english', ${w}))
        or exists(select 1 from ${categories} c where to_tsvector('english', c.name) @@ to_tsquery('english', ${w})))`,
    );
    return db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = await tx.execute<{ every: boolean | null }>(sql`select ${sql.join(each, sql` and `)} as every`);
      return result.rows[0]?.every === true;
    });
  },
};

export type SummaryRow = Awaited<ReturnType<typeof productListRepository.page>>[number];
