import {
  LIMITS,
  PAGE_SIZE,
  TOP_PRODUCTS,
  cleanText,
  isObjectId,
  type Category,
  fromCents,
  type Product,
  type ProductFacets,
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
import { readFacetColumns, readKeywordParts } from './catalog-builds.ts';
import { FEW_MATCHES, FacetTable, TOP_MATCHES, type FacetIndex, type FacetSort } from './facet-index.ts';
import { KeywordIndex, type KeywordSearch } from './search-index.ts';
import { suggestedKeyword } from './suggestion.ts';

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

/**
 * The list's filters as the query names them, text cleaned, prices in cents. A category is named by its
 * slug (or id) and brings its children's products too; other text is looked for in the categories' names.
 */
async function filterOf(db: Db, q: ProductListQuery): Promise<ProductFilter> {
  const f: ProductFilter = {};
  if (q.id) f.idPrefix = q.id;
  if (q.name?.trim()) f.name = cleanText(q.name);
  const brands = (Array.isArray(q.brand) ? q.brand : q.brand === undefined ? [] : [q.brand])
    .map((b) => cleanText(b))
    .filter(Boolean);
  if (brands.length > 0) f.brands = [...new Set(brands)];
  if (q.category?.trim()) {
    const c = cleanText(q.category);
    const family = await repo.categoryWithFamily(db, c);
    if (family) f.categoryIds = [family.id, ...family.childIds];
    else if (isObjectId(c)) f.categoryIds = [c];
    else f.categoryName = c;
  }
  if (q.minPrice !== undefined) f.minPriceCents = Math.round(q.minPrice * 100);
  if (q.maxPrice !== undefined) f.maxPriceCents = Math.round(q.maxPrice * 100);
  if (q.inStock) f.inStock = true;
  if (q.minRating !== undefined) f.minRating = q.minRating;
  if (q.sku?.trim()) f.skuPrefix = cleanText(q.sku, 64);
  return f;
}

/**
 * Brand and category counts and the price range, each over the products matching every filter but its
 * own; a parent category counts its children's products too (its filter brings them in).
 */
async function facetsOf(
  db: Db,
  filter: ProductFilter,
  match: KeywordMatch | undefined,
  memo?: ListMemo,
): Promise<ProductFacets> {
  const { brands: _b, ...noBrand } = filter;
  const { categoryIds: _c, categoryName: _n, ...noCategory } = filter;
  const { minPriceCents: _l, maxPriceCents: _h, ...noPrice } = filter;
  const [brands, direct, price] = await Promise.all([
    lists.brandFacet(db, noBrand, match),
    lists.categoryFacet(db, noCategory, match),
    lists.priceFacet(db, noPrice, match),
  ]);
  return facetsFrom(
    db,
    brands,
    new Map(direct.flatMap((d) => (d.categoryId ? [[d.categoryId, d.count]] : []))),
    price,
    memo,
  );
}

/** The facets' answer: categories named, children's counts added to their parents; prices in dollars. */
async function facetsFrom(
  db: Db,
  brands: { name: string; count: number }[],
  direct: Map<string, number>,
  price: { min: number | null; max: number | null },
  memo?: ListMemo,
): Promise<ProductFacets> {
  // the categories change only with the catalogue: remembered until its next write
  const all = await (memo ? memo.remember('categories', () => lists.allCategories(db)) : lists.allCategories(db));
  const counts = new Map<string, number>();
  const byId = new Map(all.map((c) => [c.id, c]));
  for (const [categoryId, count] of direct) {
    counts.set(categoryId, (counts.get(categoryId) ?? 0) + count);
    const parentId = byId.get(categoryId)?.parentId;
    if (parentId) counts.set(parentId, (counts.get(parentId) ?? 0) + count);
  }
  const categories = [...counts]
    .flatMap(([id, count]) => {
      const c = byId.get(id);
      return c ? [{ slug: c.slug, name: c.name, count }] : [];
    })
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return {
    brands,
    categories,
    price: {
      min: price.min === null ? null : fromCents(price.min),
      max: price.max === null ? null : fromCents(price.max),
    },
  };
}

/**
 * Whether each word of a search (`lamp:*`) matches some product on its own. `found[k]` true says the
 * keyword index saw word k in an active product; SQL answers for the other words (drafts, category
 * names, a word the index did not read), so the answer is the one SQL alone gives, without a full-text
 * lookup per word for the common case of two known words that never meet.
 */
function everyWordMatches(db: Db, words: string[], found: readonly boolean[] | undefined): Promise<boolean> {
  const unknown = words.filter((_, k) => found?.[k] !== true);
  return unknown.length === 0 ? Promise.resolve(true) : lists.everyWordMatches(db, unknown);
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
  search?: KeywordSearch,
  withDrafts = false,
  facetIndex?: FacetIndex,
): Promise<ProductListResponse> {
  const pageSize = q.pageSize ?? PAGE_SIZE;
  const page = q.pageNumber;
  const narrowed = await filterOf(db, q);
  const filtered = Object.keys(narrowed).length > 0;
  // shoppers see active products only; an admin's list has the drafts too
  const filter: ProductFilter = withDrafts ? narrowed : { ...narrowed, activeOnly: true };
  // the longest name changes only with the catalogue: remembered until its next write
  const longest = () => (memo ? memo.remember('max-name-length', () => maxNameLength(db)) : maxNameLength(db));
  const keyword = q.keyword ? cleanText(q.keyword).slice(0, await longest()) : '';
  const sortBy0 = q.sortBy === 'newest' ? 'createdAt' : q.sortBy;

  // a value that depends on stock (the in-stock filter) is dropped when orders change stock, too
  const filterKey = `${filter.inStock ? 'stock:' : ''}${withDrafts ? 'admin' : 'shop'}:${JSON.stringify([q.id, q.name, narrowed.brands, q.category, q.minPrice, q.maxPrice, q.inStock, q.minRating, q.sku, keyword])}`;
  const newestFirst =
    !withDrafts && !filtered && !keyword && (!sortBy0 || sortBy0 === 'createdAt') && q.order !== 'asc';
  const remember = <T>(key: string, compute: () => Promise<T>) => (memo ? memo.remember(key, compute) : compute());
  // a shopper's filters without a keyword: the facet index counts them (facet-index.ts), when it is built
  const table =
    !withDrafts && !keyword && narrowed.idPrefix === undefined && narrowed.name === undefined
      ? narrowed.categoryName === undefined && narrowed.skuPrefix === undefined
        ? facetIndex?.current(narrowed.inStock === true)
        : undefined
      : undefined;
  const counted = table?.counts(narrowed);
  const run = async (match: KeywordMatch | undefined, sortBy: ProductListQuery['sortBy'], kind: string) => {
    const offset = (page - 1) * pageSize;
    // a deep page of the newest-first list starts at the anchor before it, not at the first product
    const at = newestFirst ? memo?.anchorFor(offset, () => lists.anchors(db, memo.every)) : undefined;
    // the facet table counted the filter: a page past its matches (none at all, often) asks nothing more
    if (!match && counted && offset >= counted.total) return { rows: [], total: counted.total };
    // and it sorts the matches itself: few of them as it listed them, more (up to TOP_MATCHES) in one pass
    // when the page is near the start; the page is then read by its ids. When it cannot sort, few matches
    // are read among their ids and sorted by the database
    const few = !match && table && counted?.matches;
    const sort = facetSortOf(sortBy, q.order);
    const pageIds = few
      ? table.pageOf(few, sort, offset, pageSize)
      : !match && table && filtered && counted!.total <= TOP_MATCHES
        ? table.topOf(narrowed, sort, offset, pageSize)
        : undefined;
    if (pageIds) {
      const byId = new Map((await lists.summariesByIds(db, pageIds)).map((r) => [r.id, r]));
      return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), total: counted!.total };
    }
    const among = few ? table.idsOf(few) : undefined;
    const rows = await lists.page(db, {
      filter,
      match,
      sortBy,
      order: q.order,
      limit: pageSize,
      offset: at ? at.skip : offset,
      from: at?.anchor,
      // a filter the facet table counted few matches of: found by their ids (or the filters' indexes), then sorted
      few: !match && counted !== undefined && counted.total <= FEW_MATCHES,
      among,
    });
    // a page that is not full ends the list: its total needs no count (most searches end on page 1).
    // Typo suggestions are the best page of them, never counted.
    if ((rows.length > 0 ? rows.length < pageSize : page === 1) || kind === 'similar')
      return { rows, total: (page - 1) * pageSize + rows.length };
    if (counted && !match) return { rows, total: counted.total };
    return { rows, total: await remember(`${filterKey}:${kind}`, () => lists.count(db, filter, match)) };
  };

  let result: { rows: SummaryRow[]; total: number };
  let used: KeywordMatch | undefined;
  let suggestion: string | undefined;
  // the facets do not depend on the page or the sort: remembered per filter set, read beside the page
  const facetsFor = (m: KeywordMatch | undefined) =>
    remember(`${filterKey}:facets:${m && 'similarTo' in m ? 'similar' : 'text'}`, () => facetsOf(db, filter, m, memo));
  let facetsAhead: Promise<ProductFacets> | undefined;
  const ahead = (m: KeywordMatch | undefined) => {
    facetsAhead = facetsFor(m);
    facetsAhead.catch(() => {}); // awaited below; a failure surfaces there
  };
  const tsQuery = keyword ? toPrefixTsQuery(keyword) : null;
  if (keyword && tsQuery) {
    const byRelevance = !sortBy0 || sortBy0 === 'relevance';
    const sortBy = byRelevance ? 'relevance' : sortBy0;
    // a product matches on its own words, or on its category's or parent category's name: the
    // categories are matched first (a small table)
    const categoryIds = await (memo
      ? memo.remember(`categories-matching:${tsQuery}`, () => lists.categoriesMatching(db, tsQuery))
      : lists.categoriesMatching(db, tsQuery));
    // a plain keyword search by relevance on a large catalogue: the keyword index ranks and counts
    // (it holds active products only)
    const index = byRelevance && !filtered && !withDrafts && search?.mayAnswer() ? search : undefined;
    used = { tsQuery, categoryIds };
    const prefixes = index ? await index.lexemes(tsQuery, (t) => lists.printedTsQuery(db, t)) : null;
    const found = prefixes ? await index!.search(prefixes, categoryIds, (page - 1) * pageSize, pageSize) : undefined;
    if (found) {
      // the index counted the facets over the same matches: no SQL pass over them
      const f = found.facets;
      facetsAhead = facetsFrom(db, f.brands, new Map(f.categories), f.price, memo);
      facetsAhead.catch(() => {});
      const byId = new Map((await lists.summariesByIds(db, found.ids)).map((r) => [r.id, r]));
      result = { rows: found.ids.flatMap((id) => byId.get(id) ?? []), total: found.total };
    } else {
      ahead(used);
      result = await run({ tsQuery, categoryIds }, sortBy, 'text');
    }
    // several words that each match something, only never together, are no typo: nothing to suggest
    // (a cheap check on the full-text index; the trigram fallback reads every similar name)
    const words = tsQuery.split(' & ');
    // the index's words are the query's, one for one, unless a stop word was left out
    const indexFound = prefixes?.length === words.length ? found?.eachFound : undefined;
    // a query of stop words only ('with', 'over') has no word to search for and is no typo either:
    // PostgreSQL leaves every word of it out, and names similar to it are a third of a large catalogue
    // (2.7-8 s to rank at 1,000,000 products)
    const stopWordsOnly = async () =>
      prefixes ? prefixes.length === 0 : (await lists.printedTsQuery(db, tsQuery)).trim() === '';
    const noTypo =
      result.total === 0 &&
      page === 1 &&
      ((words.length > 1 && (await everyWordMatches(db, words, indexFound))) || (await stopWordsOnly()));
    // typo fallback: products whose name is similar to the keyword, as suggestions
    if (result.total === 0 && page === 1 && !noTypo) {
      used = { similarTo: keyword };
      result = await run(used, sortBy, 'similar');
      suggestion = suggestedKeyword(
        keyword,
        result.rows.map((r) => r.name),
      );
    }
  } else if (keyword) {
    // punctuation only: nothing can match
    result = { rows: [], total: 0 };
  } else if (counted) {
    const c = counted;
    facetsAhead = facetsFrom(db, c.brands, c.categories, c.price, memo);
    facetsAhead.catch(() => {});
    result = await run(undefined, sortBy0, 'all');
  } else {
    ahead(undefined);
    result = await run(undefined, sortBy0, 'all');
  }

  const facets =
    keyword && !used
      ? { brands: [], categories: [], price: { min: null, max: null } }
      : used && 'similarTo' in used
        ? await facetsFor(used)
        : await facetsAhead!;
  return {
    products: await withVariants(db, result.rows),
    page,
    pages: Math.max(1, Math.ceil(result.total / pageSize)),
    total: result.total,
    facets,
    ...(suggestion && result.total > 0 ? { suggestion } : {}),
  };
}

/**
 * Starts building the deep-page anchors of the newest-first list in the background (once the server
 * listens), so the first shopper who pages deep is not the one who waits for them.
 */
export function prepareAnchors(db: Db, memo: ListMemo): void {
  memo.anchorFor(memo.every, () => lists.anchors(db, memo.every));
}

/**
 * The keyword index of the catalogue (search-index.ts), built on this thread, read in chunks of `chunk`
 * products so no query or parse holds the database or the event loop for long; null below `minProducts`
 * products. A large shop on PostgreSQL builds it in a worker thread instead (background-builds.ts).
 */
export async function loadKeywordIndex(db: Db, minProducts: number, chunk = 250): Promise<KeywordIndex | null> {
  const parts = await readKeywordParts(db, minProducts, chunk);
  return parts && KeywordIndex.of(parts);
}

export async function topProducts(db: Db): Promise<ProductSummary[]> {
  return withVariants(db, await repo.top(db, TOP_PRODUCTS));
}

async function detail(db: Db, found: Awaited<ReturnType<typeof repo.findById>>): Promise<Product> {
  if (!found) throw new NotFoundError('Product not found');
  return toProduct(found, await repo.detailParts(db, found.product.id));
}

/**
 * By id, or by slug (current or former) so old links keep working. A draft is found only for an admin
 * (`withDrafts`); for everyone else it does not exist.
 */
export async function getProduct(db: Db, idOrSlug: string, withDrafts = false): Promise<Product> {
  if (isObjectId(idOrSlug)) {
    const found = await repo.findById(db, idOrSlug, withDrafts);
    if (found) return detail(db, found);
  }
  return getProductBySlug(db, idOrSlug, withDrafts);
}

export async function getProductBySlug(db: Db, slug: string, withDrafts = false): Promise<Product> {
  const s = slug.toLowerCase();
  if (!/^[a-z0-9-]{1,100}$/.test(s)) throw new NotFoundError('Product not found');
  const found = await repo.findBySlug(db, s, withDrafts);
  if (found) return detail(db, found);
  const movedTo = await repo.findIdByOldSlug(db, s);
  return detail(db, movedTo ? await repo.findById(db, movedTo, withDrafts) : undefined);
}

/** A category page's category: by slug (or id), with its parent for the breadcrumb. */
export async function getCategory(db: Db, slugOrId: string) {
  if (!/^[a-zA-Z0-9-]{1,100}$/.test(slugOrId)) throw new NotFoundError('Category not found');
  const c = await repo.categoryWithFamily(db, slugOrId);
  if (!c) throw new NotFoundError('Category not found');
  return c;
}

/** Every category's slug (the sitemap's category pages). */
export async function categorySlugs(db: Db): Promise<string[]> {
  return (await repo.categorySlugs(db)).map((r) => r.slug);
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

/** A sort of the shop's list without a keyword as the facet table names it (the database's order: orderOf). */
function facetSortOf(sortBy: ProductListQuery['sortBy'], order: 'asc' | 'desc' | undefined): FacetSort {
  switch (sortBy) {
    case 'name':
    case 'price':
      return { by: sortBy, descending: order === 'desc' };
    case 'rating':
      return { by: 'rating', descending: order !== 'asc' };
    default:
      return { by: 'createdAt', descending: order !== 'asc' };
  }
}

/** Whether each of these products (the active ones) can be bought now: the facet table's stock patches. */
export async function inStockOf(db: Db, ids: string[]): Promise<{ id: string; inStock: boolean }[]> {
  return ids.length === 0 ? [] : lists.inStockOf(db, ids);
}

/**
 * The facet table (facet-index.ts), built on this thread 2,500 products at a time (catalog-builds.ts). A
 * large shop on PostgreSQL builds it in a worker thread instead (background-builds.ts).
 */
export async function loadFacetTable(db: Db, chunk = 2500, fewMatches = FEW_MATCHES): Promise<FacetTable> {
  return FacetTable.of(await readFacetColumns(db, chunk, fewMatches));
}
