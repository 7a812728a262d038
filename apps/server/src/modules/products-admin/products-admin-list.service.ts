import {
  LOW_STOCK_DEFAULT,
  PAGE_SIZE,
  cleanText,
  fromCents,
  isObjectId,
  type AdminProductListQuery,
  type AdminProductListResponse,
  type AdminProductRow,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { Memo } from '#server/lib/memo.ts';
import { RANGE_BOUNDS, RangeCounts, type RangeBounds } from '#server/lib/range-counts.ts';
import {
  fewMatches,
  productsAdminListRepository as repo,
  type AdminListRow,
  type AdminProductFilter,
} from './products-admin-list.repository.ts';

function filterOf(q: AdminProductListQuery): AdminProductFilter {
  const f: AdminProductFilter = {};
  if (q.id?.trim()) f.idPrefix = q.id;
  if (q.name?.trim()) f.name = cleanText(q.name);
  if (q.brand?.trim()) f.brand = cleanText(q.brand);
  if (q.category?.trim()) {
    // an id names the category; any other text is looked for in the categories' names (categoryIds)
    const c = cleanText(q.category);
    if (isObjectId(c)) f.categoryId = c;
  }
  if (q.sku?.trim()) f.skuPrefix = cleanText(q.sku, 64);
  if (q.status) f.status = q.status;
  if (q.minPrice !== undefined) f.minPriceCents = Math.round(q.minPrice * 100);
  if (q.maxPrice !== undefined) f.maxPriceCents = Math.round(q.maxPrice * 100);
  return f;
}

function toRow(r: AdminListRow): AdminProductRow {
  // low: the pool shoppers draw on (when something draws on it) or any variant's own stock is at the mark
  const low =
    (r.drawsPool && r.countInStock <= LOW_STOCK_DEFAULT) || (r.minOwn !== null && r.minOwn <= LOW_STOCK_DEFAULT);
  return {
    _id: r.id,
    slug: r.slug,
    name: r.name,
    image: r.image,
    price: fromCents(r.priceCents),
    brand: r.brand,
    category: r.categoryName ?? '',
    categoryId: r.categoryId,
    status: r.status,
    countInStock: r.countInStock,
    stock: r.stock,
    lowStock: low,
    skus: r.skus,
    purchaseLink: r.purchaseLink,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** More distinct brands than this and a brand text is matched by the trigram index instead. */
export const MAX_RESOLVED_BRANDS = 5000;

/**
 * The admin list's totals per filter set (a count is linear in the matches), the prices of the products
 * a filter set with a price range matches (`prices`: each range is then two binary searches), the
 * catalogue's distinct brands and the planner's estimate of its size, kept until a catalogue write drops
 * them (`drop()`, wired to the catalogue cache, so every process drops them through the cache bus). What
 * was read while a write came in is not kept (generation counter; the prices and lists are read into
 * what a write replaces).
 */
export class AdminListTotals {
  private generation = 0;
  private readonly totals = new Map<string, { total: number; tableRows: number }>();
  // each read once per catalogue change (a Memo of one key: shared while read, a failure not kept)
  private brandList = new Memo<string[] | null>(1);
  private rows = new Memo<number>(1);
  /** The prices kept per filter set for ranges (RANGE_BOUNDS unless told). */
  readonly prices: RangeCounts;

  constructor(
    private readonly max = 2000,
    ranges: RangeBounds = RANGE_BOUNDS,
  ) {
    this.prices = new RangeCounts(ranges);
  }

  drop(): void {
    this.generation++;
    this.totals.clear();
    this.brandList = new Memo(1);
    this.rows = new Memo(1);
    this.prices.forget();
  }

  /** The distinct brands (lowercased), or null when there are too many; read once per catalogue change. */
  brands(read: () => Promise<string[] | null>): Promise<string[] | null> {
    // drop() forgets the list, so a list read before a write is never handed out after it
    return this.brandList.get('', read);
  }

  /** The planner's estimate of the catalogue's size (which page plan fits), read once per catalogue change. */
  tableRows(read: () => Promise<number>): Promise<number> {
    return this.rows.get('', read);
  }

  async total(
    key: string,
    count: () => Promise<{ total: number; tableRows: number }>,
  ): Promise<{ total: number; tableRows: number }> {
    const hit = this.totals.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const n = await count();
    if (generation === this.generation) {
      if (this.totals.size >= this.max) this.totals.delete(this.totals.keys().next().value!);
      this.totals.set(key, n);
    }
    return n;
  }
}

/**
 * The filter's total from what `totals` keeps: a price range is counted from the prices of the products
 * its other filters match (read once per catalogue write), anything else counted once per filter set.
 */
async function countedWith(
  db: Db,
  totals: AdminListTotals,
  filter: AdminProductFilter,
): Promise<{ total: number; tableRows: number }> {
  const { minPriceCents: min, maxPriceCents: max, ...whole } = filter;
  const counted = () => totals.total(JSON.stringify(filter), () => repo.count(db, filter));
  if (min === undefined && max === undefined) return counted();
  const [ranged, tableRows] = await Promise.all([
    totals.prices.count(JSON.stringify(whole), min, max, (limit) => repo.pricesOf(db, whole, limit)),
    totals.tableRows(() => repo.tableRows(db)),
  ]);
  return ranged !== undefined ? { total: ranged, tableRows } : counted();
}

/** GET /api/admin/products: drafts and active products, filtered, sorted (newest first by default), paged. */
export async function listAdminProducts(
  db: Db,
  q: AdminProductListQuery,
  totals?: AdminListTotals,
): Promise<AdminProductListResponse> {
  const pageSize = q.pageSize ?? PAGE_SIZE;
  const page = q.pageNumber;
  const filter = filterOf(q);
  const categoryText = q.category?.trim() ? cleanText(q.category) : '';
  if (categoryText && filter.categoryId === undefined)
    filter.categoryIds = await repo.categoriesNamed(db, categoryText);
  if (filter.brand !== undefined) {
    // a brand text names the few brands containing it: the brand-and-price index then counts and pages them,
    // where a "contains" match on a million rows would read every product of the price range
    const read = () => repo.distinctBrands(db, MAX_RESOLVED_BRANDS);
    const all = await (totals ? totals.brands(read) : read());
    if (all) {
      const text = filter.brand.toLowerCase();
      filter.brands = all.filter((b) => b.includes(text));
      delete filter.brand;
    }
  }
  const sortBy = q.sortBy ?? 'createdAt';
  const order = q.order ?? (sortBy === 'createdAt' ? 'desc' : 'asc');
  const offset = (page - 1) * pageSize;
  // counted first: a list with no match (or a page past its end) reads no rows, and a page of few
  // matches is read from them, sorted, instead of walking a sort index past every other product
  const count = () => repo.count(db, filter);
  const { total, tableRows } = totals ? await countedWith(db, totals, filter) : await count();
  const rows =
    total === 0 || offset >= total
      ? []
      : await repo.page(db, {
          filter,
          sortBy,
          order,
          limit: pageSize,
          offset,
          // the products whose brand (name) contains a text lie together in the brand (name) order: a walk
          // of that index passes every product before them, however many match
          few:
            (sortBy === 'brand' && (filter.brand !== undefined || filter.brands !== undefined)) ||
            (sortBy === 'name' && filter.name !== undefined) ||
            fewMatches(total, offset, pageSize, tableRows),
        });
  return { products: rows.map(toRow), page, pages: Math.max(1, Math.ceil(total / pageSize)), total };
}
