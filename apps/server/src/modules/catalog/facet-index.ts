/**
 * The shop's products as the filters see them (brand, category, price, rating, whether something can be
 * bought), in process, so the facets and the total of a filter set are one pass over arrays (~1 ms at
 * 100,000 products) instead of `GROUP BY`s over every matching row (100–800 ms there).
 *
 * Correctness comes first, as with the keyword index: built from the database, dropped on every catalogue
 * change and on every stock change (the in-stock flag), a build that a change overtook is thrown away, and
 * until a build is in the list takes the SQL path, which gives the same answer.
 */

import { isObjectId } from '@store/shared';
import { sharedColumn } from './shared-columns.ts';

/** One active product as the loader reads it (rows in ascending id order when ids are given). */
export interface FacetRow {
  /** Lets changes of stock be patched into the table by product id. */
  id?: string;
  brand: string;
  categoryId: string | null;
  priceCents: number;
  /** 0.00 to 5.00, two decimals (the column's scale). */
  rating: number;
  numReviews: number;
  inStock: boolean;
}

/**
 * Each row's place in the orders the database sorts by collation or time, ranked by the database itself
 * (equal values share a rank), in row order: by name (lower case) and by date added.
 */
export interface SortRanks {
  name: Uint32Array;
  created: Uint32Array;
}

/** A shopper's sort of a filtered list without a keyword. */
export interface FacetSort {
  by: 'name' | 'price' | 'rating' | 'createdAt';
  descending: boolean;
}

/** What the index can narrow by (a shopper's filters without a keyword). */
export interface FacetFilter {
  brands?: string[];
  categoryIds?: string[];
  minPriceCents?: number;
  maxPriceCents?: number;
  inStock?: boolean;
  minRating?: number;
}

export interface FacetCounts {
  total: number;
  /** Brands (differing only in case: one, named by the smallest spelling), most products first, at most 100. */
  brands: { name: string; count: number }[];
  /** Products each category holds itself, by category id (the caller adds children to parents). */
  categories: Map<string, number>;
  /** Lowest and highest price in cents, null when nothing matches. */
  price: { min: number | null; max: number | null };
  /** The matching products' rows (for idsOf) when there are at most FEW_MATCHES of them. */
  matches?: Uint32Array;
}

/**
 * At most this many matches are "few": a page of them is read by their ids (idsOf) and sorted, instead of
 * walking a sort index past the products that do not match.
 */
export const FEW_MATCHES = 2000;

/** A page of more matches than that is sorted by the table when it ends within this many (topOf). */
export const TOP_PAGE = 240;

/**
 * Up to this many matches the table's pass (topOf) finds a page sooner than PostgreSQL, which walks the
 * sort's index past the products that do not match, reading each one's row: at 1,000,000 products, 2,000
 * to 20,000 matches took 14–39 ms (p50–p95) that way and 16–22 ms in the pass. More matches lie close
 * together in the index, and PostgreSQL finds a page among them in less time than the pass takes.
 */
export const TOP_MATCHES = 20_000;

/** Codes for distinct values, given in the order first seen; code 0 is reserved for `first`. */
class Dictionary<T> {
  readonly values: T[];
  private readonly index: Map<T, number>;

  constructor(first: T) {
    this.values = [first];
    this.index = new Map([[first, 0]]);
  }

  code(v: T, copy: (v: T) => T = (x) => x): number {
    let code = this.index.get(v);
    if (code === undefined) {
      code = this.values.length;
      const kept = copy(v);
      this.values.push(kept);
      this.index.set(kept, code);
    }
    return code;
  }
}

/**
 * The brand facet from counts per spelling: spellings differing only in case are one brand, named by its
 * smallest spelling; no brand ('') is left out; most products first (then by name), at most 100.
 */
export function rankBrands(spellings: readonly string[], perSpelling: Uint32Array): { name: string; count: number }[] {
  const byBrand = new Map<string, { name: string; count: number }>();
  perSpelling.forEach((count, code) => {
    const name = spellings[code]!;
    const key = name.toLowerCase();
    if (count === 0 || key === '') return;
    const b = byBrand.get(key);
    if (b) {
      b.count += count;
      if (name < b.name) b.name = name;
    } else byBrand.set(key, { name, count });
  });
  return [...byBrand]
    .sort(([ka, a], [kb, b]) => b.count - a.count || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .slice(0, 100)
    .map(([, b]) => b);
}

/** Codes of a dictionary, in the narrowest array that holds them (a shop has tens of brands, not millions). */
export type Codes = Uint8Array | Uint16Array | Uint32Array;

/** The first `n` codes, copied into the narrowest array for codes below `size`. */
export function narrowCodes(codes: Uint32Array, n: number, size: number): Codes {
  const part = codes.subarray(0, n);
  return size <= 0x100 ? Uint8Array.from(part) : size <= 0x10000 ? Uint16Array.from(part) : part.slice();
}

/** A copy of `s` that shares no memory with the row it was read in. */
const own = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** Growable typed columns, filled a chunk of rows at a time (a large shop is read in chunks). */
export class FacetTableBuilder {
  private n = 0;
  /**
   * The ids, packed as they come (12 bytes each) while every one is 24-hex, as strings otherwise; null once
   * a row came without one. Packed per chunk, so the end of a build at 1,000,000 products neither holds a
   * million strings nor spends ~0.4 s packing them in one go.
   */
  private ids: { packed: Buffer } | { strings: string[] } | null = { packed: Buffer.alloc(1024 * 12) };
  private brand = new Uint32Array(1024);
  private category = new Uint32Array(1024);
  private price = new Int32Array(1024);
  private rating = new Uint16Array(1024);
  private numReviews = new Uint32Array(1024);
  private inStock = new Uint8Array(1024);
  private readonly spellings = new Dictionary<string>('');
  private readonly categories = new Dictionary<string | null>(null);

  add(rows: FacetRow[]): void {
    if (this.n + rows.length > this.brand.length) {
      const size = Math.max(this.brand.length * 2, this.n + rows.length);
      const grow = <A extends Uint32Array | Int32Array | Uint16Array | Uint8Array>(a: A, make: (n: number) => A) => {
        const b = make(size);
        b.set(a);
        return b;
      };
      this.brand = grow(this.brand, (k) => new Uint32Array(k));
      this.category = grow(this.category, (k) => new Uint32Array(k));
      this.price = grow(this.price, (k) => new Int32Array(k));
      this.rating = grow(this.rating, (k) => new Uint16Array(k));
      this.numReviews = grow(this.numReviews, (k) => new Uint32Array(k));
      this.inStock = grow(this.inStock, (k) => new Uint8Array(k));
      if (this.ids && 'packed' in this.ids) {
        const packed = Buffer.alloc(size * 12);
        this.ids.packed.copy(packed, 0, 0, this.n * 12);
        this.ids = { packed };
      }
    }
    for (const r of rows) {
      const i = this.n++;
      this.addId(i, r.id);
      this.brand[i] = this.spellings.code(r.brand, own);
      this.category[i] = this.categories.code(r.categoryId, (c) => (c === null ? null : own(c)));
      this.price[i] = r.priceCents;
      this.rating[i] = Math.round(r.rating * 100);
      this.numReviews[i] = r.numReviews;
      this.inStock[i] = r.inStock ? 1 : 0;
    }
  }

  private addId(i: number, id: string | undefined): void {
    const ids = this.ids;
    if (!ids) return;
    if (id === undefined) {
      this.ids = null;
      return;
    }
    if ('packed' in ids) {
      if (isObjectId(id)) {
        ids.packed.write(id, i * 12, 12, 'hex');
        return;
      }
      // an id the store did not make (tests): every id as a string from here on
      this.ids = { strings: Array.from({ length: i }, (_, k) => ids.packed.toString('hex', k * 12, k * 12 + 12)) };
    }
    (this.ids as { strings: string[] }).strings.push(own(id));
  }

  /**
   * The table's columns as plain arrays (they may be sent to another thread); `ranks` (row order, one per
   * row, else left out) let the table sort a filtered page itself.
   */
  columns(ranks?: SortRanks, fewMatches = FEW_MATCHES): Columns {
    const n = this.n;
    const ids = this.ids;
    const ranked = ranks && ranks.name.length === n && ranks.created.length === n ? ranks : null;
    return {
      // packed ids copied to their size: the growing buffer may be twice as large
      ids: ids ? ('packed' in ids ? { packed: new Uint8Array(ids.packed.subarray(0, n * 12)) } : ids) : null,
      brand: narrowCodes(this.brand, n, this.spellings.values.length),
      spellings: this.spellings.values,
      category: narrowCodes(this.category, n, this.categories.values.length),
      categoryIds: this.categories.values,
      price: this.price.slice(0, n),
      rating: this.rating.slice(0, n),
      numReviews: this.numReviews.slice(0, n),
      inStock: this.inStock.slice(0, n),
      ranks: ranked,
      fewMatches,
    };
  }

  finish(ranks?: SortRanks, fewMatches = FEW_MATCHES): FacetTable {
    return FacetTable.of(this.columns(ranks, fewMatches));
  }

  /** A table of the given rows at once (tests, small shops). */
  static of(rows: FacetRow[], ranks?: SortRanks, fewMatches?: number): FacetTable {
    const b = new FacetTableBuilder();
    b.add(rows);
    return b.finish(ranks, fewMatches);
  }
}

/** Ids in ascending order, 12 bytes each when all are 24-hex (every id the store makes), else strings. */
type Ids = { packed: Uint8Array } | { strings: string[] };
/** The same, the packed bytes read as a Buffer (its compare and hex). */
type TableIds = { packed: Buffer } | { strings: string[] };

/** A Buffer over the same bytes (a Uint8Array that came from another thread is no Buffer). */
export const asBuffer = (a: Uint8Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** A facet table as plain arrays: what a build makes, in whichever thread it ran. */
export interface Columns {
  ids: Ids | null;
  brand: Codes;
  spellings: string[];
  category: Codes;
  categoryIds: (string | null)[];
  price: Int32Array;
  /** In hundredths. */
  rating: Uint16Array;
  numReviews: Uint32Array;
  inStock: Uint8Array;
  ranks: SortRanks | null;
  /** Counts list their matches up to this many (FEW_MATCHES; fewer in tests, to reach topOf). */
  fewMatches: number;
}

/** Counts a facet table remembers (the latest, by filter set). */
const COUNTS_KEPT = 1000;
/**
 * (Category, brand spelling) pairs beyond which the table keeps no pair lists: a count sums a window per
 * pair, so a shop of 500 categories and 130 brand spellings still counts in a few thousand searches.
 */
const MAX_PAIRS = 65_536;

export class FacetTable {
  /** Each product's brand spelling, by code; and the code of that spelling's lower case (the brand's key). */
  private readonly brand: Codes;
  private readonly spellings: string[];
  private readonly keyOfSpelling: Uint32Array;
  private readonly keys: string[];
  private readonly category: Codes;
  /** Category ids by code; code 0 is no category. */
  private readonly categoryIds: (string | null)[];
  private readonly price: Int32Array;
  /** Hundredths: the column's two decimals exactly (a hundredth divided by 100 is the number the row read). */
  private readonly rating: Uint16Array;
  private readonly numReviews: Uint32Array;
  private readonly inStock: Uint8Array;
  private readonly ranks: SortRanks | null;
  private readonly fewMatches: number;
  private readonly ids: TableIds | null;
  /** Every change of stock up to this one (FacetIndex's count) is in the in-stock flags. */
  stockSeenThrough = 0;
  /**
   * Counts already made, per filter set: a count reads every row (about 20 ms at 1,000,000 products), and
   * the same filters come back (every deep page of the whole list counts no filter at all). The columns
   * never change but for the in-stock flags, whose patch drops the counts that read them.
   */
  private readonly counted = new Map<string, FacetCounts>();
  /** Each brand spelling's and each category's rows, in price order (built at the first filter that can use them). */
  private lists: { bySpelling: RowLists; byCategory: RowLists; byPair: RowLists | null } | undefined;
  /** The pair lists' in-stock rows only (built when a count reads stock; dropped when a flag flips). */
  private stockedPairs: RowLists | undefined;

  /**
   * The table of these columns. The keyword index holds the same ids, prices and codes: a column equal to
   * the one it keeps is shared (shared-columns.ts).
   */
  static of(c: Columns): FacetTable {
    const ids = c.ids && 'packed' in c.ids ? { packed: sharedColumn('ids', asBuffer(c.ids.packed)) } : c.ids;
    return new FacetTable({
      ...c,
      ids,
      brand: sharedColumn('brand', c.brand),
      category: sharedColumn('category', c.category),
      price: sharedColumn('price', c.price),
    });
  }

  private constructor(c: Omit<Columns, 'ids'> & { ids: TableIds | null }) {
    this.ids = c.ids;
    this.brand = c.brand;
    this.spellings = c.spellings;
    const keys = new Dictionary<string>('');
    this.keyOfSpelling = Uint32Array.from(c.spellings, (b) => keys.code(b.toLowerCase()));
    this.keys = keys.values;
    this.category = c.category;
    this.categoryIds = c.categoryIds;
    this.price = c.price;
    this.rating = c.rating;
    this.numReviews = c.numReviews;
    this.inStock = c.inStock;
    this.ranks = c.ranks;
    this.fewMatches = c.fewMatches;
  }

  /** The row of a product by id (binary search), or -1. */
  private ordOf(id: string): number {
    const ids = this.ids;
    if (!ids) return -1;
    let lo = 0;
    let hi = this.brand.length - 1;
    const key = 'packed' in ids ? Buffer.from(id, 'hex') : null;
    if (key && (key.length !== 12 || !isObjectId(id))) return -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c =
        'packed' in ids
          ? ids.packed.compare(key!, 0, 12, mid * 12, mid * 12 + 12)
          : ids.strings[mid]! < id
            ? -1
            : ids.strings[mid]! > id
              ? 1
              : 0;
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The ids of these rows (counts' `matches`), or undefined when the table holds no ids. */
  idsOf(rows: Uint32Array): string[] | undefined {
    const ids = this.ids;
    if (!ids) return undefined;
    return Array.from(rows, (r) =>
      'packed' in ids ? ids.packed.toString('hex', r * 12, r * 12 + 12) : ids.strings[r]!,
    );
  }

  /** Whether it can sort a filtered page itself (pageOf, topOf): it has the ids and the ranks. */
  get sortable(): boolean {
    return this.ranks !== null && this.ids !== null;
  }

  /** Whether stock changes can be patched in by id (the table knows its products' ids). */
  get patchable(): boolean {
    return this.ids !== null;
  }

  /** Sets the in-stock flag of the listed products the table holds (others are not active: not in it). */
  setInStock(rows: { id: string; inStock: boolean }[]): void {
    for (const key of [...this.counted.keys()]) if (key.startsWith('stock:')) this.counted.delete(key);
    for (const r of rows) {
      const ord = this.ordOf(r.id);
      const flag = r.inStock ? 1 : 0;
      if (ord >= 0 && this.inStock[ord] !== flag) {
        this.inStock[ord] = flag;
        this.stockedPairs = undefined;
      }
    }
  }

  /**
   * The ids of a page of these rows (counts' `matches`) in a shopper's sort, as the database orders the
   * list: by the sort's value, then by id (ascending, or descending with the newest first), a rating's
   * ties by most reviews first; or undefined when the table cannot sort (no ids, no ranks).
   */
  pageOf(rows: Uint32Array, sort: FacetSort, offset: number, limit: number): string[] | undefined {
    const compare = this.comparator(sort);
    if (!compare) return undefined;
    return this.idsOf(
      rows
        .slice()
        .sort(compare)
        .subarray(offset, offset + limit),
    );
  }

  /**
   * The ids of a page near the start (offset + limit ≤ TOP_PAGE) of the products matching `f`, sorted as
   * pageOf sorts, when they are too many to be listed: one pass over the rows, keeping the best so far.
   * Undefined when the table cannot sort or the page is deeper.
   */
  topOf(f: FacetFilter, sort: FacetSort, offset: number, limit: number): string[] | undefined {
    const compare = this.comparator(sort);
    const k = offset + limit;
    if (!compare || k > TOP_PAGE) return undefined;
    const m = this.matcher(f);
    const { spellingOk, categoryOk, lo, hi, minRating, readsStock, readsRating } = m;
    const { brand, category, price, rating, inStock } = this;
    // the best rows so far, best first; a row enters when it beats the last of them (the order the rows
    // are read in does not matter: the comparison is a total order)
    const best: number[] = [];
    const pairs = this.pairLists(m);
    const side = pairs ? undefined : this.narrowest(m);
    // by price, the page comes from the cheapest (or dearest) k rows of each pair's range: the lists are
    // in price order, and then in row order as the sort breaks ties
    const ends = sort.by === 'price' ? { k, last: sort.descending } : undefined;
    const rows = pairs
      ? pairs.inRange(this.pairCodes(m), lo, hi, price, ends)
      : side
        ? side.lists.inRange(side.codes, lo, hi, price)
        : null;
    const n = rows ? rows.length : brand.length;
    for (let j = 0; j < n; j++) {
      const i = rows ? rows[j]! : j;
      if (readsStock && inStock[i] === 0) continue;
      if (readsRating && rating[i]! / 100 < minRating) continue;
      if (spellingOk[brand[i]!] !== 1 || categoryOk[category[i]!] !== 1) continue;
      const p = price[i]!;
      if (p < lo || p > hi) continue;
      if (best.length === k && compare(i, best[k - 1]!) >= 0) continue;
      let at = best.length;
      let from = 0;
      while (from < at) {
        const mid = (from + at) >>> 1;
        if (compare(best[mid]!, i) < 0) from = mid + 1;
        else at = mid;
      }
      best.splice(from, 0, i);
      if (best.length > k) best.pop();
    }
    return this.idsOf(Uint32Array.from(best.slice(offset)));
  }

  /** The database's order of a sort over rows (they are in id order: a row's number breaks ties as its id). */
  private comparator(sort: FacetSort): ((a: number, b: number) => number) | undefined {
    const ranks = this.ranks;
    if (!ranks || !this.ids) return undefined;
    const s = sort.descending ? -1 : 1;
    const { price, rating, numReviews } = this;
    switch (sort.by) {
      case 'price':
        return (a, b) => s * (price[a]! - price[b]!) || a - b;
      case 'name':
        return (a, b) => s * (ranks.name[a]! - ranks.name[b]!) || a - b;
      case 'rating':
        // most reviews first among equal ratings, either way
        return (a, b) => s * (rating[a]! - rating[b]!) || numReviews[b]! - numReviews[a]! || a - b;
      case 'createdAt':
        // newest first breaks ties by the higher id
        return (a, b) => s * (ranks.created[a]! - ranks.created[b]! || a - b);
    }
  }

  /** Bytes held by its columns (the operator's figures). */
  get bytesHeld(): number {
    const perRow = 4 + 2 + 4 + 1 + (this.ids ? 12 : 0) + (this.ranks ? 8 : 0);
    const lists = this.lists
      ? this.lists.bySpelling.rows.byteLength +
        this.lists.byCategory.rows.byteLength +
        (this.lists.byPair?.rows.byteLength ?? 0) +
        (this.stockedPairs?.rows.byteLength ?? 0)
      : 0;
    return this.brand.byteLength + this.category.byteLength + this.brand.length * perRow + lists;
  }

  get size(): number {
    return this.brand.length;
  }

  /** The total of `f`, and each facet over the products matching every filter but its own (remembered). */
  counts(f: FacetFilter): FacetCounts {
    const key = `${f.inStock ? 'stock:' : ''}${JSON.stringify([f.brands, f.categoryIds, f.minPriceCents, f.maxPriceCents, f.minRating])}`;
    const hit = this.counted.get(key);
    if (hit) return hit;
    const counts = this.count(f);
    if (this.counted.size >= COUNTS_KEPT) this.counted.delete(this.counted.keys().next().value!);
    this.counted.set(key, counts);
    return counts;
  }

  /** A filter as the row loops read it: one flag per brand spelling and per category, looked up once. */
  private matcher(f: FacetFilter) {
    const wantedKeys = f.brands ? new Set(f.brands.map((b) => b.toLowerCase())) : undefined;
    const brandOkByKey = this.keys.map((k) => !wantedKeys || wantedKeys.has(k));
    const wantedCategories = f.categoryIds ? new Set(f.categoryIds) : undefined;
    const categoryOkByCode = this.categoryIds.map((c) => !wantedCategories || (c !== null && wantedCategories.has(c)));
    return {
      spellingOk: Uint8Array.from(this.keyOfSpelling, (key) => (brandOkByKey[key] ? 1 : 0)),
      categoryOk: Uint8Array.from(categoryOkByCode, (ok) => (ok ? 1 : 0)),
      // the brand spellings and categories the filter names (their row lists), when it names them
      spellingCodes: wantedKeys ? codesWhere(Array.from(this.keyOfSpelling, (key) => brandOkByKey[key]!)) : undefined,
      categoryCodes: wantedCategories ? codesWhere(categoryOkByCode) : undefined,
      lo: f.minPriceCents ?? -Infinity,
      hi: f.maxPriceCents ?? Infinity,
      minRating: f.minRating ?? -Infinity,
      readsStock: f.inStock === true,
      readsRating: f.minRating !== undefined,
    };
  }

  private count(f: FacetFilter): FacetCounts {
    const m = this.matcher(f);
    // without a rating, every count is a sum of (category, brand spelling) lists' sizes in the price range
    const pairs = this.pairLists(m);
    if (pairs) return this.countPairs(m, pairs);
    // a filter naming a few brands or categories reads their rows only
    const side = this.narrowest(m);
    if (side) return this.countListed(m, side);
    const { spellingOk, categoryOk, lo, hi, minRating, readsStock, readsRating } = m;
    const { brand, category, price, rating, inStock } = this;
    let total = 0;
    const few = this.fewMatches;
    const matches = new Uint32Array(few);
    const perSpelling = new Uint32Array(this.spellings.length);
    const perCategory = new Uint32Array(this.categoryIds.length);
    let min = Infinity;
    let max = -Infinity;
    const n = brand.length;
    for (let i = 0; i < n; i++) {
      if (readsStock && inStock[i] === 0) continue;
      if (readsRating && rating[i]! / 100 < minRating) continue;
      const spelling = brand[i]!;
      const code = category[i]!;
      const p = price[i]!;
      const bOk = spellingOk[spelling] === 1;
      const cOk = categoryOk[code] === 1;
      const pOk = p >= lo && p <= hi;
      if (cOk && pOk) perSpelling[spelling]!++;
      if (bOk) {
        if (pOk && code !== 0) perCategory[code]!++;
        if (cOk) {
          if (p < min) min = p;
          if (p > max) max = p;
          if (pOk) {
            if (total < few) matches[total] = i;
            total++;
          }
        }
      }
    }
    return this.answer(
      { total, perSpelling, perCategory, min, max },
      total <= few ? matches.slice(0, total) : undefined,
    );
  }

  /**
   * What a count gathered, as its answer: the brands ranked, each category's own count by id, the price
   * range, and the matches (in row order, as the pass over every row lists them) when they are few.
   */
  private answer(
    c: { total: number; perSpelling: Uint32Array; perCategory: Uint32Array; min: number; max: number },
    matches: Uint32Array | undefined,
  ): FacetCounts {
    const categories = new Map<string, number>();
    c.perCategory.forEach((count, code) => {
      if (count > 0) categories.set(this.categoryIds[code]!, count);
    });
    return {
      total: c.total,
      brands: rankBrands(this.spellings, c.perSpelling),
      categories,
      price: c.min === Infinity ? { min: null, max: null } : { min: c.min, max: c.max },
      ...(matches ? { matches } : {}),
    };
  }

  /**
   * `count` for a filter naming a few brands or categories, from the row lists (each code's rows in price
   * order): what the pass over every row counts, reading far fewer rows. Each facet reads the rows of the
   * other filter's codes within the price range (or, when the other filter names nothing and no stock or
   * rating is asked, takes each code's count in the range by binary search); the matches are among the
   * named side with fewer rows. At 1,000,000 products a root category and a brand are ~16% of the rows.
   */
  private countListed(
    m: ReturnType<FacetTable['matcher']>,
    side: NonNullable<ReturnType<FacetTable['narrowest']>>,
  ): FacetCounts {
    const { spellingOk, categoryOk, lo, hi, minRating, readsStock, readsRating } = m;
    const { brand, category, price, rating, inStock } = this;
    const { bySpelling, byCategory } = this.rowLists();
    const flags = readsStock || readsRating;
    const passes = (i: number) => !(readsStock && inStock[i] === 0) && !(readsRating && rating[i]! / 100 < minRating);
    // the rows of `codes` within the price range, each counted by `into` (or all of `lists`' codes)
    const tally = (lists: RowLists, codes: readonly number[] | undefined, counts: Uint32Array, key: Codes | null) => {
      for (const c of codes ?? lists.codes()) {
        const [a, b] = lists.window(c, lo, hi, price);
        if (!key && !flags) {
          counts[c]! += b - a;
          continue;
        }
        for (let j = a; j < b; j++) {
          const i = lists.rows[j]!;
          if (!flags || passes(i)) counts[key ? key[i]! : c]!++;
        }
      }
    };
    // the brand facet: rows of the named categories (or of every row) in the price range, by spelling
    const perSpelling = new Uint32Array(this.spellings.length);
    if (m.categoryCodes) tally(byCategory, m.categoryCodes, perSpelling, brand);
    else tally(bySpelling, undefined, perSpelling, null);
    // the category facet: rows of the named brands (or of every row) in the price range, by category
    const perCategory = new Uint32Array(this.categoryIds.length);
    if (m.spellingCodes) tally(bySpelling, m.spellingCodes, perCategory, category);
    else tally(byCategory, undefined, perCategory, null);
    perCategory[0] = 0; // products without a category are in no category's count
    // the matches, and the price facet over the rows matching every filter but the price
    const few = this.fewMatches;
    const matches = new Uint32Array(few);
    let total = 0;
    let min = Infinity;
    let max = -Infinity;
    const ok = (i: number) => spellingOk[brand[i]!] === 1 && categoryOk[category[i]!] === 1 && passes(i);
    for (const c of side.codes) {
      const { start, rows } = side.lists;
      const from = start[c]!;
      const to = start[c + 1]!;
      // in price order: the lowest matching row is the first, the highest the last
      for (let j = from; j < to; j++)
        if (ok(rows[j]!)) {
          min = Math.min(min, price[rows[j]!]!);
          break;
        }
      for (let j = to - 1; j >= from; j--)
        if (ok(rows[j]!)) {
          max = Math.max(max, price[rows[j]!]!);
          break;
        }
      const [a, b] = side.lists.window(c, lo, hi, price);
      for (let j = a; j < b; j++) {
        const i = rows[j]!;
        if (!ok(i)) continue;
        if (total < few) matches[total] = i;
        total++;
      }
    }
    return this.answer(
      { total, perSpelling, perCategory, min, max },
      total <= few ? matches.slice(0, total).sort() : undefined,
    );
  }

  /**
   * The rows of each (category, brand spelling) pair in price order, and with `m` reading stock, those in
   * stock only; undefined when `m` reads the rating (a list cannot answer it) or the pairs are too many.
   */
  private pairLists(m: ReturnType<FacetTable['matcher']>): RowLists | undefined {
    if (m.readsRating) return undefined;
    const all = this.rowLists().byPair;
    if (!all || !m.readsStock) return all ?? undefined;
    this.stockedPairs ??= all.keeping(this.inStock);
    return this.stockedPairs;
  }

  /** The pairs `m` matches (its named categories, or all, times its named spellings, or all). */
  private pairCodes(m: ReturnType<FacetTable['matcher']>): number[] {
    const spellings = this.spellings.length;
    const codes: number[] = [];
    for (const c of m.categoryCodes ?? this.categoryIds.keys())
      for (const s of m.spellingCodes ?? this.spellings.keys()) codes.push(c * spellings + s);
    return codes;
  }

  /**
   * `count` from the pair lists (`m` reads no rating): each facet, the total and the price bounds are sums
   * and ends of the pairs' windows in the price range, two binary searches a pair, whatever the number of
   * rows; only the matches, when few, are read one by one.
   */
  private countPairs(m: ReturnType<FacetTable['matcher']>, pairs: RowLists): FacetCounts {
    const { lo, hi } = m;
    const { price } = this;
    const spellings = this.spellings.length;
    const size = (pair: number) => {
      const [a, b] = pairs.window(pair, lo, hi, price);
      return b - a;
    };
    // the brand facet over the named categories (or all), the category facet over the named spellings
    const perSpelling = new Uint32Array(spellings);
    for (const c of m.categoryCodes ?? this.categoryIds.keys())
      for (let s = 0; s < spellings; s++) perSpelling[s]! += size(c * spellings + s);
    const perCategory = new Uint32Array(this.categoryIds.length);
    for (let c = 1; c < this.categoryIds.length; c++)
      for (const s of m.spellingCodes ?? this.spellings.keys()) perCategory[c]! += size(c * spellings + s);
    const few = this.fewMatches;
    let total = 0;
    let min = Infinity;
    let max = -Infinity;
    const windows: [number, number][] = [];
    for (const pair of this.pairCodes(m)) {
      const from = pairs.start[pair]!;
      const to = pairs.start[pair + 1]!;
      if (from === to) continue;
      // in price order: the pair's first row is its lowest price, its last the highest
      min = Math.min(min, price[pairs.rows[from]!]!);
      max = Math.max(max, price[pairs.rows[to - 1]!]!);
      const [a, b] = pairs.window(pair, lo, hi, price);
      if (a < b) windows.push([a, b]);
      total += b - a;
    }
    const matches = total <= few ? new Uint32Array(total) : undefined;
    if (matches) {
      let k = 0;
      for (const [a, b] of windows) {
        matches.set(pairs.rows.subarray(a, b), k);
        k += b - a;
      }
    }
    return this.answer({ total, perSpelling, perCategory, min, max }, matches?.sort());
  }

  /**
   * The named side with fewer rows (brand spellings or categories) and its row lists; undefined when the
   * filter names neither, or when even the fewer are more than half the table (one pass over every row
   * in order is then as quick).
   */
  private narrowest(m: ReturnType<FacetTable['matcher']>) {
    if (!m.spellingCodes && !m.categoryCodes) return undefined;
    const { bySpelling, byCategory } = this.rowLists();
    const brandRows = m.spellingCodes ? bySpelling.sizeOf(m.spellingCodes) : Infinity;
    const categoryRows = m.categoryCodes ? byCategory.sizeOf(m.categoryCodes) : Infinity;
    if (Math.min(brandRows, categoryRows) * 2 > this.brand.length) return undefined;
    return brandRows <= categoryRows
      ? { lists: bySpelling, codes: m.spellingCodes! }
      : { lists: byCategory, codes: m.categoryCodes! };
  }

  /**
   * The row lists, built at the first filter that can use them, once per table: each brand spelling's and
   * each category's rows in price order (two arrays of the table's size: 8 MB at 1,000,000 products).
   */
  private rowLists() {
    if (!this.lists) {
      const byPrice = rowsByPrice(this.price);
      const spellings = this.spellings.length;
      const pairs = this.categoryIds.length * spellings;
      this.lists = {
        bySpelling: RowLists.of(byPrice, spellings, this.brand),
        byCategory: RowLists.of(byPrice, this.categoryIds.length, this.category),
        byPair:
          pairs <= MAX_PAIRS
            ? RowLists.of(
                byPrice,
                pairs,
                Uint32Array.from(this.category, (c, i) => c * spellings + this.brand[i]!),
              )
            : null,
      };
    }
    return this.lists;
  }
}

/**
 * Every row, by price and then by row: a counting sort when the prices span at most a few times as many
 * cents as there are rows (a shop's usual case: 15 ms at 1,000,000 products), else a numeric sort of price
 * and row packed into one exact double (120 ms), or of the rows themselves past 2^21 rows.
 */
export function rowsByPrice(price: Int32Array, packedBelow = 2 ** 21): Uint32Array {
  const n = price.length;
  const order = new Uint32Array(n);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (price[i]! < lo) lo = price[i]!;
    if (price[i]! > hi) hi = price[i]!;
  }
  if (n > 0 && hi - lo <= Math.max(4 * n, 1 << 16)) {
    // rows counted per price, then placed in row order: a price's rows stay in row order
    const at = new Uint32Array(hi - lo + 2);
    for (let i = 0; i < n; i++) at[price[i]! - lo + 1]!++;
    for (let p = 1; p < at.length; p++) at[p]! += at[p - 1]!;
    for (let i = 0; i < n; i++) order[at[price[i]! - lo]!++] = i;
    return order;
  }
  if (n < Math.min(packedBelow, 2 ** 21)) {
    // price + 2^31 < 2^32 and row < 2^21: the packed key stays below 2^53, where doubles are exact
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (price[i]! + 2 ** 31) * 2 ** 21 + i;
    keys.sort();
    for (let j = 0; j < n; j++) order[j] = keys[j]! % 2 ** 21;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => price[a]! - price[b]! || a - b);
}

/** The codes whose flag is set. */
function codesWhere(flags: readonly boolean[]): number[] {
  const codes: number[] = [];
  flags.forEach((ok, code) => {
    if (ok) codes.push(code);
  });
  return codes;
}

/** The rows of each code (a brand spelling, a category) in price order: code c's are rows[start[c] .. start[c + 1]). */
export class RowLists {
  private constructor(
    readonly start: Uint32Array,
    readonly rows: Uint32Array,
  ) {}

  /** From every row in price order (rowsByPrice) and each row's code. */
  static of(byPrice: Uint32Array, codes: number, codeOf: Codes): RowLists {
    const start = new Uint32Array(codes + 1);
    for (let i = 0; i < codeOf.length; i++) start[codeOf[i]! + 1]!++;
    for (let c = 0; c < codes; c++) start[c + 1]! += start[c]!;
    const at = start.slice(0, codes);
    const rows = new Uint32Array(byPrice.length);
    for (let j = 0; j < byPrice.length; j++) {
      const i = byPrice[j]!;
      rows[at[codeOf[i]!]!++] = i;
    }
    return new RowLists(start, rows);
  }

  /** The same lists with only the rows whose flag is set, still in price order. */
  keeping(flags: Uint8Array): RowLists {
    const codes = this.start.length - 1;
    const start = new Uint32Array(codes + 1);
    for (let c = 0; c < codes; c++) {
      let kept = 0;
      for (let j = this.start[c]!; j < this.start[c + 1]!; j++) kept += flags[this.rows[j]!]!;
      start[c + 1] = start[c]! + kept;
    }
    const rows = new Uint32Array(start[codes]!);
    let k = 0;
    for (let j = 0; j < this.rows.length; j++) if (flags[this.rows[j]!] === 1) rows[k++] = this.rows[j]!;
    return new RowLists(start, rows);
  }

  /** Every code. */
  codes(): number[] {
    return Array.from({ length: this.start.length - 1 }, (_, c) => c);
  }

  /** How many rows these codes have. */
  sizeOf(codes: readonly number[]): number {
    let size = 0;
    for (const c of codes) size += this.start[c + 1]! - this.start[c]!;
    return size;
  }

  /** The positions [a, b) of code c's rows priced within [lo, hi] (two binary searches). */
  window(c: number, lo: number, hi: number, price: Int32Array): [number, number] {
    const below = (limit: number, inclusive: boolean) => {
      let a = this.start[c]!;
      let b = this.start[c + 1]!;
      while (a < b) {
        const mid = (a + b) >>> 1;
        const p = price[this.rows[mid]!]!;
        if (p < limit || (inclusive && p === limit)) a = mid + 1;
        else b = mid;
      }
      return a;
    };
    return [below(lo, false), below(hi, true)];
  }

  /**
   * The rows of these codes priced within [lo, hi], one code after another; with `ends`, only each code's
   * first k of them, or its last k and every row priced as the k-th from the end (a sort by price
   * descending breaks its ties by row ascending).
   */
  inRange(
    codes: readonly number[],
    lo: number,
    hi: number,
    price: Int32Array,
    ends?: { k: number; last: boolean },
  ): Uint32Array {
    const windows = codes.map((c) => {
      const [a, b] = this.window(c, lo, hi, price);
      if (!ends || b - a <= ends.k) return [a, b] as const;
      if (!ends.last) return [a, a + ends.k] as const;
      let from = b - ends.k;
      const edge = price[this.rows[from]!]!;
      while (from > a && price[this.rows[from - 1]!] === edge) from--;
      return [from, b] as const;
    });
    const out = new Uint32Array(windows.reduce((n, [a, b]) => n + b - a, 0));
    let k = 0;
    for (const [a, b] of windows) {
      out.set(this.rows.subarray(a, b), k);
      k += b - a;
    }
    return out;
  }
}

/**
 * The table of the shop as it is now: `current()` answers it when built for the catalogue and stock as they
 * are; otherwise it starts one build in the background and answers undefined (SQL path).
 *
 * Changes of stock alone (orders, expired or cancelled orders) name their products: the table then reads
 * those products' in-stock flags again (`refreshStock`, one query for every change since the last), in
 * order, one read at a time, each started after the changes it covers; until it is in, filters that read
 * stock ask SQL. A change that names no products (or more than the log keeps) waits for a rebuild instead,
 * at most once per `stockRebuildFactor` build times.
 */
export class FacetIndex {
  private generation = 0;
  private table: FacetTable | undefined;
  private building: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  /** Changes of stock alone since start, numbered; the log keeps the recent ones' product ids. */
  private stockGeneration = 0;
  private stockLog: { seq: number; ids: readonly string[] | null }[] = [];
  /** When the last build ended and how long it took: rebuilds for stock alone wait that many times longer. */
  private builtAt = 0;
  private buildMs = 0;

  constructor(
    private readonly load: () => Promise<FacetTable>,
    /** Rebuilds for stock alone (when it cannot be patched) wait this many times the last build's duration. */
    private readonly stockRebuildFactor = 10,
    /** The current in-stock flags of these products (active ones; others are not in the table). */
    private readonly refreshStock?: (ids: string[]) => Promise<{ id: string; inStock: boolean }[]>,
  ) {}

  drop(): void {
    this.generation++;
    this.table = undefined;
  }

  /** Only stock changed, of `productIds` when known: the table still answers filters without `inStock`. */
  dropStock(productIds?: readonly string[]): void {
    const seq = ++this.stockGeneration;
    this.stockLog.push({ seq, ids: productIds && productIds.length > 0 ? [...productIds] : null });
    if (this.stockLog.length > STOCK_LOG) this.stockLog.shift();
  }

  private stockStale(table: FacetTable): boolean {
    return table.stockSeenThrough < this.stockGeneration;
  }

  /** The changes the table has not seen, when every one of them names its products; else null. */
  private unseen(table: FacetTable): { through: number; ids: string[] } | null {
    const first = this.stockLog[0];
    if (!first || first.seq > table.stockSeenThrough + 1) return null; // forgotten changes
    const ids = new Set<string>();
    let through = table.stockSeenThrough;
    for (const e of this.stockLog) {
      if (e.seq <= table.stockSeenThrough) continue;
      if (!e.ids) return null;
      for (const id of e.ids) ids.add(id);
      through = e.seq;
    }
    return { through, ids: [...ids] };
  }

  /** Reads the flags of the products changed since the table last saw stock; one read at a time. */
  private refresh(table: FacetTable): void {
    if (this.refreshing || !this.refreshStock || !table.patchable) return;
    const work = this.unseen(table);
    if (!work) return;
    this.refreshing = this.refreshStock(work.ids)
      .then((rows) => {
        table.setInStock(rows);
        // the read started after every change up to `through`: the flags hold them all
        table.stockSeenThrough = Math.max(table.stockSeenThrough, work.through);
        while (this.stockLog.length > 0 && this.stockLog[0]!.seq <= Math.min(work.through, this.oldestNeeded()))
          this.stockLog.shift();
      })
      .catch(() => {}) // still stale: the next request tries again
      .finally(() => {
        this.refreshing = undefined;
        if (this.table === table && this.stockStale(table)) this.refresh(table);
      });
  }

  /** Changes after this may still have to be patched into a table (the current one, or one being built). */
  private oldestNeeded(): number {
    return Math.min(this.table?.stockSeenThrough ?? 0, this.buildingFrom ?? Infinity);
  }

  private buildingFrom: number | undefined;

  /**
   * The table, when it can answer a filter that does (or does not) read stock. After a catalogue change
   * it is rebuilt at once; changes of stock are patched in (see above) or, when they cannot be, rebuilt
   * at most once per `stockRebuildFactor` build times, so a busy large shop does not rebuild all the time.
   */
  current(readsStock: boolean): FacetTable | undefined {
    const table = this.table;
    const stale = table ? this.stockStale(table) : true;
    const usable = table && !(readsStock && stale) ? table : undefined;
    if (table && stale) this.refresh(table);
    if ((table && !stale) || this.building || this.refreshing) return usable;
    if (table && this.unseen(table) && this.refreshStock && table.patchable) return usable;
    if (table && Date.now() - this.builtAt < this.stockRebuildFactor * this.buildMs) return usable;
    const generation = this.generation;
    const stockGeneration = this.stockGeneration;
    this.buildingFrom = stockGeneration;
    const started = Date.now();
    this.building = this.load()
      .then((built) => {
        if (generation !== this.generation) return; // the catalogue changed: it may be stale
        // read after every change of stock up to the one counted when the build started
        built.stockSeenThrough = stockGeneration;
        this.table = built;
        this.builtAt = Date.now();
        this.buildMs = this.builtAt - started;
        if (this.stockStale(built)) this.refresh(built);
      })
      .catch(() => {}) // the list keeps taking the SQL path; the next request tries again
      .finally(() => {
        this.building = undefined;
        this.buildingFrom = undefined;
      });
    return usable;
  }

  /** For tests: resolves once a build (and a read of changed stock) under way is in. */
  async settled(): Promise<void> {
    await this.building;
    await this.refreshing;
  }
}

/** Changes of stock remembered for patching; beyond this the table waits for a rebuild. */
const STOCK_LOG = 10_000;
