import {
  LIMITS,
  PAGE_SIZE,
  TOP_PRODUCTS,
  cleanText,
  fromCents,
  isObjectId,
  type Category,
  type ColorVariant,
  type Product,
  type ProductListQuery,
  type ProductListResponse,
  type ProductSummary,
} from '@store/shared';
import { and, asc, desc, eq, gte, inArray, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { categories, products } from '../../db/schema/index.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { containsLower as contains } from '../../lib/sql.ts';
import { catalogRepository as repo, type VariantRow } from './catalog.repository.ts';
import type { ListMemo } from './list-memo.ts';
import { KeywordIndexBuilder, MAX_INDEXED, type KeywordIndex, type SearchIndex } from './search-index.ts';

type SummaryRow = Awaited<ReturnType<typeof repo.list>>[number];

export function toVariant(v: VariantRow): ColorVariant {
  return { _id: v.id, name: v.name, src: v.src, price: v.priceCents === null ? null : fromCents(v.priceCents) };
}

function toSummary(row: SummaryRow, variants: ColorVariant[]): ProductSummary {
  return {
    _id: row.id,
    slug: row.slug,
    name: row.name,
    image: row.image,
    price: fromCents(row.priceCents),
    brand: row.brand,
    category: row.categoryName ?? '',
    categoryId: row.categoryId,
    countInStock: row.countInStock,
    rating: Number(row.rating),
    numReviews: row.numReviews,
    purchaseLink: row.purchaseLink,
    colorsVariants: variants,
  };
}

async function withVariants(db: Db, rows: SummaryRow[]): Promise<ProductSummary[]> {
  const variants = await repo.variantsFor(
    db,
    rows.map((r) => r.id),
  );
  const byProduct = new Map<string, ColorVariant[]>();
  for (const v of variants) {
    const list = byProduct.get(v.productId) ?? [];
    list.push(toVariant(v));
    byProduct.set(v.productId, list);
  }
  return rows.map((r) => toSummary(r, byProduct.get(r.id) ?? []));
}

/** Public view: the supplier's purchase link is for admins only. */
export function withoutSupplier<T extends { purchaseLink: string }>(p: T): T {
  return { ...p, purchaseLink: '' };
}

/** Search text limit of spec §5: the longest product name, clamped to 32..256 (128 on an empty catalogue). */
export async function maxNameLength(db: Db): Promise<number> {
  const longest = await repo.maxNameLength(db);
  if (longest === null) return LIMITS.searchDefault;
  return Math.min(LIMITS.searchMax, Math.max(LIMITS.searchMin, longest));
}

/** Words of the keyword as a prefix tsquery ("wire head" → "wire:* & head:*"); only letters and digits reach it. */
export function toPrefixTsQuery(keyword: string): string | null {
  const words =
    keyword
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  if (words.length === 0) return null;
  return words.map((w) => `${w}:*`).join(' & ');
}

/**
 * Relevance of a keyword search: per word, `ts_rank_cd` of the word alone, which for one word is the sum
 * of its occurrences' weights (0.1 description … 1.0 name), times 10 as an integer; the words add up.
 * The keyword index (search-index.ts) scores exactly so, and the two paths must order alike: a
 * shopper's page 1 may come from one and page 2 from the other.
 */
function relevance(tsq: string): SQL {
  return sql.join(
    tsq.split(' & ').map((w) => sql`round(ts_rank_cd(${products.searchVector}, to_tsquery('english', ${w})) * 10)`),
    sql` + `,
  );
}

function idPrefixRange(prefix: string): SQL | undefined {
  const p = prefix.toLowerCase();
  if (!/^[0-9a-f]{1,24}$/.test(p)) return sql`false`;
  // a range on the primary key instead of LIKE, so the btree answers it
  return and(gte(products.id, p.padEnd(24, '0')), lte(products.id, p.padEnd(24, 'f')));
}

/**
 * A page of products (spec §5): filters, keyword search (full text, then trigram similarity for typos),
 * sorts. With a `memo` (the routes' ListMemo), totals are remembered per filter set and deep pages of
 * the unfiltered newest-first list are read by keyset from remembered anchors.
 */
export async function listProducts(
  db: Db,
  q: ProductListQuery,
  memo?: ListMemo,
  search?: SearchIndex,
): Promise<ProductListResponse> {
  const pageSize = q.pageSize ?? PAGE_SIZE;
  const page = q.pageNumber;
  const filters: (SQL | undefined)[] = [];

  if (q.id) filters.push(idPrefixRange(q.id.trim()));
  if (q.name?.trim()) filters.push(contains(sql`lower(${products.name})`, cleanText(q.name)));
  if (q.brand?.trim()) filters.push(contains(sql`lower(${products.brand})`, cleanText(q.brand)));
  let byCategoryName = false;
  if (q.category?.trim()) {
    const c = cleanText(q.category);
    byCategoryName = !isObjectId(c);
    filters.push(byCategoryName ? contains(sql`lower(${categories.name})`, c) : eq(products.categoryId, c));
  }
  if (q.minPrice !== undefined) filters.push(gte(products.priceCents, Math.round(q.minPrice * 100)));
  if (q.maxPrice !== undefined) filters.push(lte(products.priceCents, Math.round(q.maxPrice * 100)));

  const keyword = q.keyword ? cleanText(q.keyword).slice(0, await maxNameLength(db)) : '';
  const order = q.order === 'asc' ? asc : q.order === 'desc' ? desc : undefined;
  // The created and rating indexes are DESC (NULLS LAST): a sort must name the same NULLS placement
  // (forwards, or reversed for ascending) or PostgreSQL sorts the whole table instead of walking them.
  const down = (c: SQL | AnyColumn) => sql`${c} desc nulls last`;
  const up = (c: SQL | AnyColumn) => sql`${c} asc nulls first`;
  const onDescIndex = order === asc ? up : down;
  const sortOrder = (): SQL[] => {
    switch (q.sortBy) {
      case 'name':
        return [(order ?? asc)(sql`lower(${products.name})`), asc(products.id)];
      case 'price':
        return [(order ?? asc)(products.priceCents), asc(products.id)];
      case 'rating':
        return [onDescIndex(products.rating), down(products.numReviews), asc(products.id)];
      default:
        return [onDescIndex(products.createdAt), onDescIndex(products.id)];
    }
  };

  const filterKey = JSON.stringify([q.id, q.name, q.brand, q.category, q.minPrice, q.maxPrice, keyword]);
  const newestFirst = filters.length === 0 && !keyword && (!q.sortBy || q.sortBy === 'createdAt') && order !== asc;
  const run = async (where: SQL | undefined, orderBy: SQL[], kind: string) => {
    let offset = (page - 1) * pageSize;
    let pageWhere = where;
    const at = newestFirst ? memo?.anchorFor(offset, () => repo.anchors(db, memo.every)) : undefined;
    if (at) {
      // keyset from the anchor: the index is entered at the anchor, not walked from the first product
      pageWhere = and(
        where,
        sql`(${products.createdAt}, ${products.id}) <= (${at.anchor.createdAt}::timestamptz, ${at.anchor.id})`,
      );
      offset = at.skip;
    }
    const rows = await repo.list(db, { where: pageWhere, orderBy, limit: pageSize, offset, byCategoryName });
    // a page that is not full ends the list: its total needs no count (most searches end on page 1)
    if (rows.length > 0 ? rows.length < pageSize : page === 1)
      return { rows, total: (page - 1) * pageSize + rows.length };
    if (kind === 'similar') return { rows, total: (page - 1) * pageSize + rows.length }; // see below
    const count = () => repo.count(db, where, byCategoryName);
    return { rows, total: await (memo ? memo.total(`${kind}:${filterKey}`, count) : count()) };
  };

  let result: { rows: SummaryRow[]; total: number };
  const tsq = keyword ? toPrefixTsQuery(keyword) : null;
  if (keyword && tsq) {
    const query = sql`to_tsquery('english', ${tsq})`;
    const byRelevance = !q.sortBy || q.sortBy === 'relevance';
    // a product matches on its own words, or on its category's or parent category's name. The categories
    // are matched first (a small table), so the products' condition is an OR of two indexed conditions
    // (GIN full text, category btree) and not a subquery, which made PostgreSQL scan every product.
    const inCategories = await repo.categoriesMatching(db, query);
    // a plain keyword search by relevance on a large catalogue: the in-process index ranks and counts
    const index = byRelevance && filters.length === 0 ? search?.current() : undefined;
    const prefixes = index ? await search!.lexemes(tsq, (t) => repo.printedTsQuery(db, t)) : null;
    const fullText = and(
      ...filters,
      inCategories.length > 0
        ? or(sql`${products.searchVector} @@ ${query}`, inArray(products.categoryId, inCategories))
        : sql`${products.searchVector} @@ ${query}`,
    );
    if (index && prefixes) {
      const found = index.query(prefixes, inCategories, (page - 1) * pageSize, pageSize);
      const byId = new Map((await repo.summariesByIds(db, found.ids)).map((r) => [r.id, r]));
      result = { rows: found.ids.flatMap((id) => byId.get(id) ?? []), total: found.total };
    } else result = await run(fullText, byRelevance ? [desc(relevance(tsq)), asc(products.id)] : sortOrder(), 'text');
    // several words that each match something, only never together, are no typo: nothing to suggest
    // (a cheap check on the full-text index; the trigram fallback reads every similar name)
    const words = tsq.split(' & ');
    const noTypo = result.total === 0 && page === 1 && words.length > 1 && (await repo.everyWordMatches(db, words));
    if (result.total === 0 && page === 1 && !noTypo) {
      // typo fallback: trigram word similarity on the name (the GIN trigram index answers `<%`). Its
      // results are suggestions: the best page of them, without counting every similar name.
      const kw = keyword.toLowerCase();
      const fuzzy = and(...filters, sql`${kw} <% lower(${products.name})`);
      result = await run(
        fuzzy,
        byRelevance ? [desc(sql`word_similarity(${kw}, lower(${products.name}))`), asc(products.id)] : sortOrder(),
        'similar',
      );
    }
  } else if (keyword) {
    // punctuation only: nothing can match
    result = { rows: [], total: 0 };
  } else {
    result = await run(and(...filters), sortOrder(), 'all');
  }

  return {
    products: await withVariants(db, result.rows),
    page,
    pages: Math.max(1, Math.ceil(result.total / pageSize)),
    total: result.total,
  };
}

/**
 * The keyword index of the catalogue (search-index.ts), read in chunks of `chunk` products so no query
 * or parse holds the database or the event loop for long; null below `minProducts` products.
 */
export async function loadKeywordIndex(db: Db, minProducts: number, chunk = 1000): Promise<KeywordIndex | null> {
  const n = await repo.productCount(db);
  if (n < minProducts || n > MAX_INDEXED) return null;
  const builder = new KeywordIndexBuilder();
  let after = '';
  for (;;) {
    const rows = await repo.searchVectorsAfter(db, after, chunk);
    builder.add(rows);
    if (rows.length < chunk) break;
    after = rows[rows.length - 1]!.id;
  }
  return builder.finish();
}

export async function topProducts(db: Db): Promise<ProductSummary[]> {
  return withVariants(db, await repo.top(db, TOP_PRODUCTS));
}

async function detail(db: Db, found: Awaited<ReturnType<typeof repo.findById>>): Promise<Product> {
  if (!found) throw new NotFoundError('Product not found');
  const p = found.product;
  const parts = await repo.detailParts(db, p.id);
  return {
    _id: p.id,
    slug: p.slug,
    name: p.name,
    image: p.image,
    price: fromCents(p.priceCents),
    brand: p.brand,
    category: found.categoryName ?? '',
    categoryId: p.categoryId,
    countInStock: p.countInStock,
    rating: Number(p.rating),
    numReviews: p.numReviews,
    purchaseLink: p.purchaseLink,
    colorsVariants: parts.variants.map(toVariant),
    imageFolderName: p.imageFolderName,
    imageB: parts.images.map((i) => ({ _id: i.id, src: i.src })),
    video: p.video,
    description: p.description,
    shippingMethod: p.shippingMethod,
    reviews: parts.reviews.map((r) => ({
      _id: r.id,
      name: r.name,
      rating: r.rating,
      comment: r.comment,
      createdAt: r.createdAt.toISOString(),
      verifiedPurchase: r.verifiedPurchase,
    })),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** By id, or by slug (current or former) so old links keep working. */
export async function getProduct(db: Db, idOrSlug: string): Promise<Product> {
  if (isObjectId(idOrSlug)) {
    const found = await repo.findById(db, idOrSlug);
    if (found) return detail(db, found);
  }
  return getProductBySlug(db, idOrSlug);
}

export async function getProductBySlug(db: Db, slug: string): Promise<Product> {
  const s = slug.toLowerCase();
  if (!/^[a-z0-9-]{1,100}$/.test(s)) throw new NotFoundError('Product not found');
  const found = await repo.findBySlug(db, s);
  if (found) return detail(db, found);
  const movedTo = await repo.findIdByOldSlug(db, s);
  return detail(db, movedTo ? await repo.findById(db, movedTo) : undefined);
}

function toCategory(c: Awaited<ReturnType<typeof repo.rootCategories>>[number]): Category {
  return { _id: c.id, name: c.name, slug: c.slug, parent: c.parentId, hasChildren: Boolean(c.hasChildren) };
}

export async function rootCategories(db: Db): Promise<Category[]> {
  return (await repo.rootCategories(db)).map(toCategory);
}

export async function childCategories(db: Db, parentId: string): Promise<Category[]> {
  if (!(await repo.categoryExists(db, parentId))) throw new NotFoundError('Category not found');
  return (await repo.childCategories(db, parentId)).map(toCategory);
}
