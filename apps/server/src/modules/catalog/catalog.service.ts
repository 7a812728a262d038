import {
  LIMITS,
  PAGE_SIZE,
  TOP_PRODUCTS,
  cleanText,
  isObjectId,
  type Category,
  type Product,
  type ProductListQuery,
  type ProductListResponse,
  type ProductSummary,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import { catalogRepository as repo } from './catalog.repository.ts';
import { toCategory, toProduct, toSummaries } from './catalog.view.ts';
import type { ListMemo } from './list-memo.ts';
import {
  productListRepository as lists,
  type KeywordMatch,
  type ProductFilter,
  type SummaryRow,
} from './product-list.repository.ts';
import { KeywordIndexBuilder, MAX_INDEXED, type KeywordIndex, type SearchIndex } from './search-index.ts';

async function withVariants(db: Db, rows: SummaryRow[]): Promise<ProductSummary[]> {
  return toSummaries(
    rows,
    await repo.variantsFor(
      db,
      rows.map((r) => r.id),
    ),
  );
}

/** Public view: the supplier's purchase link is for admins only. */
export function withoutSupplier<T extends { purchaseLink: string }>(p: T): T {
  return { ...p, purchaseLink: '' };
}

/** The search box's text limit: the longest product name, clamped to 32..256 (128 on an empty catalogue). */
export async function maxNameLength(db: Db): Promise<number> {
  const longest = await repo.maxNameLength(db);
  if (longest === null) return LIMITS.searchDefault;
  return Math.min(LIMITS.searchMax, Math.max(LIMITS.searchMin, longest));
}

/** Words of the keyword as a prefix tsquery ("wire head" → "wire:* & head:*"); only letters and digits reach it. */
function toPrefixTsQuery(keyword: string): string | null {
  const words =
    keyword
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  if (words.length === 0) return null;
  return words.map((w) => `${w}:*`).join(' & ');
}

/** The list's filters as the query names them, text cleaned, prices in cents. */
function filterOf(q: ProductListQuery): ProductFilter {
  const f: ProductFilter = {};
  if (q.id) f.idPrefix = q.id;
  if (q.name?.trim()) f.name = cleanText(q.name);
  if (q.brand?.trim()) f.brand = cleanText(q.brand);
  if (q.category?.trim()) {
    // an id names the category; any other text is looked for in the categories' names
    const c = cleanText(q.category);
    if (isObjectId(c)) f.categoryId = c;
    else f.categoryName = c;
  }
  if (q.minPrice !== undefined) f.minPriceCents = Math.round(q.minPrice * 100);
  if (q.maxPrice !== undefined) f.maxPriceCents = Math.round(q.maxPrice * 100);
  if (q.sku?.trim()) f.skuPrefix = cleanText(q.sku, 64);
  return f;
}

/**
 * A page of products: filters, keyword search (full text, then trigram similarity for typos), sorts.
 * With a `memo` (the routes' ListMemo), totals are remembered per filter set and deep pages of the
 * unfiltered newest-first list are read by keyset from remembered anchors. With a `search` index
 * built (a large catalogue), a plain keyword search by relevance is ranked and counted by it.
 */
export async function listProducts(
  db: Db,
  q: ProductListQuery,
  memo?: ListMemo,
  search?: SearchIndex,
): Promise<ProductListResponse> {
  const pageSize = q.pageSize ?? PAGE_SIZE;
  const page = q.pageNumber;
  const filter = filterOf(q);
  const filtered = Object.keys(filter).length > 0;
  const keyword = q.keyword ? cleanText(q.keyword).slice(0, await maxNameLength(db)) : '';

  const filterKey = JSON.stringify([q.id, q.name, q.brand, q.category, q.minPrice, q.maxPrice, q.sku, keyword]);
  const newestFirst = !filtered && !keyword && (!q.sortBy || q.sortBy === 'createdAt') && q.order !== 'asc';
  const run = async (match: KeywordMatch | undefined, sortBy: ProductListQuery['sortBy'], kind: string) => {
    const offset = (page - 1) * pageSize;
    // a deep page of the newest-first list starts at the anchor before it, not at the first product
    const at = newestFirst ? memo?.anchorFor(offset, () => lists.anchors(db, memo.every)) : undefined;
    const rows = await lists.page(db, {
      filter,
      match,
      sortBy,
      order: q.order,
      limit: pageSize,
      offset: at ? at.skip : offset,
      from: at?.anchor,
    });
    // a page that is not full ends the list: its total needs no count (most searches end on page 1).
    // Typo suggestions are the best page of them, never counted.
    if ((rows.length > 0 ? rows.length < pageSize : page === 1) || kind === 'similar')
      return { rows, total: (page - 1) * pageSize + rows.length };
    const count = () => lists.count(db, filter, match);
    return { rows, total: await (memo ? memo.total(`${kind}:${filterKey}`, count) : count()) };
  };

  let result: { rows: SummaryRow[]; total: number };
  const tsQuery = keyword ? toPrefixTsQuery(keyword) : null;
  if (keyword && tsQuery) {
    const byRelevance = !q.sortBy || q.sortBy === 'relevance';
    const sortBy = byRelevance ? 'relevance' : q.sortBy;
    // a product matches on its own words, or on its category's or parent category's name: the
    // categories are matched first (a small table)
    const categoryIds = await lists.categoriesMatching(db, tsQuery);
    // a plain keyword search by relevance on a large catalogue: the in-process index ranks and counts
    const index = byRelevance && !filtered ? search?.current() : undefined;
    const prefixes = index ? await search!.lexemes(tsQuery, (t) => lists.printedTsQuery(db, t)) : null;
    if (index && prefixes) {
      const found = index.query(prefixes, categoryIds, (page - 1) * pageSize, pageSize);
      const byId = new Map((await lists.summariesByIds(db, found.ids)).map((r) => [r.id, r]));
      result = { rows: found.ids.flatMap((id) => byId.get(id) ?? []), total: found.total };
    } else result = await run({ tsQuery, categoryIds }, sortBy, 'text');
    // several words that each match something, only never together, are no typo: nothing to suggest
    // (a cheap check on the full-text index; the trigram fallback reads every similar name)
    const words = tsQuery.split(' & ');
    const noTypo = result.total === 0 && page === 1 && words.length > 1 && (await lists.everyWordMatches(db, words));
    // typo fallback: products whose name is similar to the keyword, as suggestions
    if (result.total === 0 && page === 1 && !noTypo) result = await run({ similarTo: keyword }, sortBy, 'similar');
  } else if (keyword) {
    // punctuation only: nothing can match
    result = { rows: [], total: 0 };
  } else {
    result = await run(undefined, q.sortBy, 'all');
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
  return toProduct(found, await repo.detailParts(db, found.product.id));
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

export async function rootCategories(db: Db): Promise<Category[]> {
  return (await repo.rootCategories(db)).map(toCategory);
}

export async function childCategories(db: Db, parentId: string): Promise<Category[]> {
  if (!(await repo.categoryExists(db, parentId))) throw new NotFoundError('Category not found');
  return (await repo.childCategories(db, parentId)).map(toCategory);
}

/** Every product page, most recently changed first (at most 50,000: one sitemap file). */
export async function sitemapEntries(db: Db): Promise<{ slug: string; updatedAt: Date }[]> {
  return repo.sitemapEntries(db);
}
