/**
 * An in-process inverted index of the products' search vectors, for keyword searches of large
 * catalogues (docs/decisions/008-keyword-search-index.md).
 *
 * PostgreSQL finds a word's products through the GIN index quickly, but ranking them and counting them
 * reads every matching row: a word found in a third of 100,000 products cost 150–200 ms. Here each
 * lexeme of the vectors PostgreSQL computed (`search_vector`, same parser, stemmer and weights) keeps
 * its products and a score, so ranking and counting are a pass over integer arrays (~1 ms).
 *
 * Correctness comes first: the index is built from the database, dropped on every catalogue write
 * (with the answer cache, in every process through the cache bus), and a build that a write overtook
 * is thrown away. Until a build is in, searches take the SQL path, which gives the same products.
 *
 * Relevance is what `ts_rank_cd` gives a one-word query: the sum, over the word's occurrences, of their
 * weight (name A = 10, brand B = 4, C = 2, description D = 1, the ratio of PostgreSQL's default
 * weights 1.0 / 0.4 / 0.2 / 0.1). Several words add up. Ties go to the lower id, as in SQL.
 */

import { isObjectId } from '@store/shared';
import { asBuffer, narrowCodes, rankBrands, type Codes } from './facet-index.ts';
import { sharedColumn } from './shared-columns.ts';

/** One product as the loader reads it: its id, category, brand, price and `search_vector::text`. */
export interface IndexedRow {
  id: string;
  categoryId: string | null;
  /** Brand and price (cents) give the facets of a search: 0 and '' when the caller does not need them. */
  brand?: string;
  priceCents?: number;
  vector: string;
}

const WEIGHT: Record<string, number> = { A: 10, B: 4, C: 2, D: 1 };
// a lexeme ('' and \\ doubled inside quotes, as PostgreSQL prints it) and its positions, e.g. 'carri':3A,17
const ENTRY = /'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/g;

/** Score of one lexeme in one product: the weights of its positions added up (no positions: one D). */
export function scoreOfPositions(positions: string | undefined): number {
  if (!positions) return WEIGHT.D!;
  let score = 0;
  for (const p of positions.split(',')) {
    const w = p.charCodeAt(p.length - 1);
    score += w >= 65 && w <= 68 ? WEIGHT[String.fromCharCode(w)]! : WEIGHT.D!;
  }
  return score;
}

const LEXEME = String.raw`'((?:[^'\\]|''|\\.)*)':\*`;
const PLAIN_QUERY = new RegExp(`^(?:${LEXEME}(?: & ${LEXEME})*)?$`);

/**
 * Lexemes of a printed tsquery (`'carri':* & 'home':*`), still escaped as the vectors print them; null
 * when the query is more than prefixes joined by AND (a word the parser split into a phrase): the index
 * cannot answer that, SQL does.
 */
export function lexemesOfQuery(printed: string): string[] | null {
  if (!PLAIN_QUERY.test(printed.trim())) return null;
  return [...printed.matchAll(new RegExp(LEXEME, 'g'))].map((m) => m[1]!);
}

/** A growable byte buffer of unsigned LEB128 varints. */
class VarintBuffer {
  bytes = new Uint8Array(16);
  length = 0;

  push(value: number): void {
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }
}

/**
 * The products' ids by ordinal. 24-hex ids (every id the store makes) take 12 bytes each in one buffer,
 * not a string each (~60 bytes with its header); any other id keeps the list as strings.
 */
class IdTable {
  constructor(
    private readonly packed: Buffer | null,
    private readonly strings: string[] | null,
    readonly size: number,
  ) {}

  at(ord: number): string {
    return this.packed ? this.packed.toString('hex', ord * 12, ord * 12 + 12) : this.strings![ord]!;
  }
}

/** A copy of `s` that shares no memory with the string it was cut from (a vector's whole text). */
const own = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

export class KeywordIndexBuilder {
  private count = 0;
  private idBytes = Buffer.alloc(12 * 1024);
  /** Set once an id is not 24-hex: every id as a string from then on. */
  private idStrings: string[] | null = null;
  private categoryCodes = new Uint32Array(1024);
  private brandCodes = new Uint32Array(1024);
  private prices = new Int32Array(1024);
  private readonly brandCode = new Map<string, number>([['', 0]]);
  private readonly brandList: string[] = [''];
  private readonly categoryCode = new Map<string | null, number>([[null, 0]]);
  private readonly categoryList: (string | null)[] = [null];
  /** Per lexeme: (ordinal - previous ordinal, score) pairs as varints, and the previous ordinal. */
  private readonly postings = new Map<string, { buf: VarintBuffer; last: number; count: number }>();

  private addId(id: string, ord: number): void {
    if (!this.idStrings && !isObjectId(id))
      this.idStrings = Array.from({ length: ord }, (_, k) => this.idBytes.toString('hex', k * 12, k * 12 + 12));
    if (this.idStrings) {
      this.idStrings.push(id);
      return;
    }
    if ((ord + 1) * 12 > this.idBytes.length) {
      const grown = Buffer.alloc(this.idBytes.length * 2);
      this.idBytes.copy(grown);
      this.idBytes = grown;
    }
    this.idBytes.write(id, ord * 12, 12, 'hex');
  }

  private addCategory(categoryId: string | null, ord: number): void {
    let code = this.categoryCode.get(categoryId);
    if (code === undefined) {
      code = this.categoryList.length;
      this.categoryList.push(categoryId === null ? null : own(categoryId));
      this.categoryCode.set(this.categoryList[code]!, code);
    }
    if (ord >= this.categoryCodes.length) {
      const grown = new Uint32Array(this.categoryCodes.length * 2);
      grown.set(this.categoryCodes);
      this.categoryCodes = grown;
    }
    this.categoryCodes[ord] = code;
  }

  private addFacets(brand: string, priceCents: number, ord: number): void {
    let code = this.brandCode.get(brand);
    if (code === undefined) {
      code = this.brandList.length;
      this.brandList.push(own(brand));
      this.brandCode.set(this.brandList[code]!, code);
    }
    if (ord >= this.brandCodes.length) {
      const brands = new Uint32Array(this.brandCodes.length * 2);
      brands.set(this.brandCodes);
      this.brandCodes = brands;
      const prices = new Int32Array(this.prices.length * 2);
      prices.set(this.prices);
      this.prices = prices;
    }
    this.brandCodes[ord] = code;
    this.prices[ord] = priceCents;
  }

  /** Rows must come in ascending id order (the tie-break of the ranking). */
  add(rows: IndexedRow[]): void {
    for (const row of rows) {
      const ord = this.count++;
      this.addId(row.id, ord);
      this.addCategory(row.categoryId, ord);
      this.addFacets(row.brand ?? '', row.priceCents ?? 0, ord);
      for (const m of row.vector.matchAll(ENTRY)) {
        let list = this.postings.get(m[1]!);
        if (!list) this.postings.set(own(m[1]!), (list = { buf: new VarintBuffer(), last: 0, count: 0 }));
        list.buf.push(ord - list.last);
        list.buf.push(scoreOfPositions(m[2]));
        list.last = ord;
        list.count++;
      }
    }
  }

  /** What the index is made of, as plain arrays (they may be sent to another thread). */
  parts(): KeywordParts {
    const lexemes = [...this.postings.keys()].sort(byCodeUnits);
    // every lexeme's postings in one buffer, found by offset: no object per lexeme to keep
    const offsets = new Uint32Array(lexemes.length + 1);
    const counts = new Uint32Array(lexemes.length);
    let size = 0;
    lexemes.forEach((l, i) => {
      offsets[i] = size;
      size += this.postings.get(l)!.buf.length;
    });
    offsets[lexemes.length] = size;
    const bytes = new Uint8Array(size);
    lexemes.forEach((l, i) => {
      const p = this.postings.get(l)!;
      bytes.set(p.buf.bytes.subarray(0, p.buf.length), offsets[i]!);
      counts[i] = p.count;
    });
    this.postings.clear();
    return {
      size: this.count,
      ids: this.idStrings
        ? { strings: this.idStrings }
        : { packed: new Uint8Array(this.idBytes.subarray(0, this.count * 12)) },
      categoryCodes: narrowCodes(this.categoryCodes, this.count, this.categoryList.length),
      categoryList: this.categoryList,
      lexemes,
      bytes,
      offsets,
      counts,
      brand: narrowCodes(this.brandCodes, this.count, this.brandList.length),
      brands: this.brandList,
      price: this.prices.slice(0, this.count),
    };
  }

  finish(): KeywordIndex {
    return KeywordIndex.of(this.parts());
  }
}

/** A keyword index as plain arrays: what a build makes, in whichever thread it ran. */
export interface KeywordParts {
  size: number;
  /** 12 bytes per product when every id is 24-hex, else the ids as strings. */
  ids: { packed: Uint8Array } | { strings: string[] };
  categoryCodes: Codes;
  categoryList: (string | null)[];
  lexemes: string[];
  bytes: Uint8Array;
  offsets: Uint32Array;
  counts: Uint32Array;
  brand: Codes;
  brands: string[];
  price: Int32Array;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface IndexAnswer {
  /** The page's product ids, best first. */
  ids: string[];
  /** Every product the query matches. */
  total: number;
  /** Over every match: brands (as the brand facet ranks them), products per category id, price range (cents). */
  facets: {
    brands: { name: string; count: number }[];
    categories: [string, number][];
    price: { min: number | null; max: number | null };
  };
  /**
   * When several words found nothing together: whether each word (each prefix, in order) has products
   * of its own. Two known words that never meet are no typo; the search suggests nothing then.
   */
  eachFound?: boolean[];
}

/** Each product's brand (a code into `brands`) and price, by ordinal. */
interface FacetColumns {
  brand: Codes;
  brands: string[];
  price: Int32Array;
}

/**
 * Scratch arrays for queries, reused from query to query (queries run one at a time on the event loop),
 * left zeroed where a query relies on zeros: a query allocates nothing in proportion to the catalogue.
 * The match lists grow to the largest query so far (at most the catalogue), not to the catalogue at once.
 */
class Scratch {
  private summed: Uint32Array | undefined;
  readonly mark: Uint8Array;
  private ords = new Uint32Array(0);
  private scores = new Uint32Array(0);

  constructor(readonly n: number) {
    this.mark = new Uint8Array(n);
  }

  /** Lists for up to `bound` matches (ordinals and their scores). */
  matches(bound: number): { matchOrd: Uint32Array; matchScore: Uint32Array } {
    const need = Math.min(bound, this.n);
    if (this.ords.length < need) {
      const size = Math.min(this.n, Math.max(need, this.ords.length * 2));
      this.ords = new Uint32Array(size);
      this.scores = new Uint32Array(size);
    }
    return { matchOrd: this.ords, matchScore: this.scores };
  }

  /** Scores by ordinal, added up over the lexemes of a word that several lexemes start with (made on first use). */
  get score(): Uint32Array {
    return (this.summed ??= new Uint32Array(this.n));
  }

  get bytes(): number {
    return this.n + this.ords.length * 8 + (this.summed ? this.n * 4 : 0);
  }
}

/**
 * The first position at or after `from` whose ordinal is at least `ord` (`ords` ascending), found by
 * galloping: steps of 1, 2, 4 … from `from`, then a binary search in the last step. Walking one list's
 * ordinals against another this way costs little more than the shorter list.
 */
function seek(ords: Uint32Array, from: number, ord: number): number {
  const n = ords.length;
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < n && ords[hi]! < ord) {
    lo = hi + 1;
    hi = lo + step;
    step *= 2;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ords[mid]! < ord) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Above this many matches of one score in no order, the page is found by marking ordinals, not by sorting them. */
const SORT_LIMIT = 4096;

/** One word's products: ordinals in ascending order, and the word's score in each. */
interface WordMatches {
  ords: Uint32Array;
  scores: Uint32Array;
}

/**
 * Keeps, of the first `m` products of `ords` (ascending, scored in `scores`), those `word` has, its score
 * added, found by galloping; answers how many are kept (moved to the front).
 */
function keepFound(word: WordMatches, ords: Uint32Array, scores: Uint32Array, m: number): number {
  let kept = 0;
  let at = 0;
  for (let j = 0; j < m; j++) {
    const ord = ords[j]!;
    at = seek(word.ords, at, ord);
    if (at === word.ords.length) break;
    if (word.ords[at] === ord) {
      ords[kept] = ord;
      scores[kept++] = scores[j]! + word.scores[at]!;
    }
  }
  return kept;
}

/** Up to this many lexemes of a prefix are merged list by list; more are added up in a scratch array. */
const MERGED_LEXEMES = 16;

/** Two ascending lists of products as one, a product in both scored with the sum of its two scores. */
export function mergeSummed(a: WordMatches, b: WordMatches): WordMatches {
  const ords = new Uint32Array(a.ords.length + b.ords.length);
  const scores = new Uint32Array(ords.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.ords.length && j < b.ords.length) {
    const x = a.ords[i]!;
    const y = b.ords[j]!;
    if (x < y) {
      ords[k] = x;
      scores[k++] = a.scores[i++]!;
    } else if (y < x) {
      ords[k] = y;
      scores[k++] = b.scores[j++]!;
    } else {
      ords[k] = x;
      scores[k++] = a.scores[i++]! + b.scores[j++]!;
    }
  }
  while (i < a.ords.length) {
    ords[k] = a.ords[i]!;
    scores[k++] = a.scores[i++]!;
  }
  while (j < b.ords.length) {
    ords[k] = b.ords[j]!;
    scores[k++] = b.scores[j++]!;
  }
  return { ords: ords.subarray(0, k), scores: scores.subarray(0, k) };
}

export class KeywordIndex {
  private readonly byCategory = new Map<string, Uint32Array>();
  private readonly categoryOf: Codes;
  private readonly categoryList: (string | null)[];
  private readonly scratch: Scratch;

  constructor(
    private readonly ids: IdTable,
    categoryCodes: Codes,
    categoryList: (string | null)[],
    private readonly lexemes: string[],
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
    private readonly counts: Uint32Array,
    private readonly facetColumns: FacetColumns,
  ) {
    this.categoryOf = categoryCodes;
    this.categoryList = categoryList;
    // each category's products, in ordinal order
    const sizes = new Uint32Array(categoryList.length);
    for (const code of categoryCodes) sizes[code]!++;
    const lists = Array.from(sizes, (n) => new Uint32Array(n));
    const filled = new Uint32Array(categoryList.length);
    categoryCodes.forEach((code, ord) => {
      lists[code]![filled[code]!++] = ord;
    });
    categoryList.forEach((c, code) => {
      if (c !== null) this.byCategory.set(c, lists[code]!);
    });
    this.scratch = new Scratch(ids.size);
  }

  /**
   * The index of these parts. The facet table holds the same ids, prices and codes: a column equal to the
   * one it keeps is shared (shared-columns.ts).
   */
  static of(p: KeywordParts): KeywordIndex {
    const ids =
      'strings' in p.ids
        ? new IdTable(null, p.ids.strings, p.size)
        : new IdTable(sharedColumn('ids', asBuffer(p.ids.packed)), null, p.size);
    const facets: FacetColumns = {
      brand: sharedColumn('brand', p.brand),
      brands: p.brands,
      price: sharedColumn('price', p.price),
    };
    return new KeywordIndex(
      ids,
      sharedColumn('category', p.categoryCodes),
      p.categoryList,
      p.lexemes,
      p.bytes,
      p.offsets,
      p.counts,
      facets,
    );
  }

  get size(): number {
    return this.ids.size;
  }

  /** Bytes held by the index's arrays (postings, ids, categories, query scratch), for the operator's figures. */
  get bytesHeld(): number {
    let categories = 0;
    for (const ords of this.byCategory.values()) categories += ords.byteLength;
    return (
      this.bytes.byteLength +
      this.offsets.byteLength +
      this.counts.byteLength +
      this.ids.size * 12 +
      categories +
      this.categoryOf.byteLength +
      this.facetColumns.brand.byteLength +
      this.facetColumns.price.byteLength +
      this.scratch.bytes
    );
  }

  /** Lexemes starting with `prefix`: a contiguous run of the sorted list. */
  private range(prefix: string): [number, number] {
    let lo = 0;
    let hi = this.lexemes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.lexemes[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < this.lexemes.length && this.lexemes[end]!.startsWith(prefix)) end++;
    return [lo, end];
  }

  /** Lexeme `i`'s products, in ascending ordinal order, and its score in each. */
  private postings(i: number): WordMatches {
    const n = this.counts[i]!;
    const ords = new Uint32Array(n);
    const scores = new Uint32Array(n);
    const bytes = this.bytes;
    let pos = this.offsets[i]!;
    let ord = 0;
    for (let k = 0; k < n; k++) {
      let b = bytes[pos++]!;
      let delta = b & 0x7f;
      for (let shift = 7; b & 0x80; shift += 7) {
        b = bytes[pos++]!;
        delta |= (b & 0x7f) << shift;
      }
      b = bytes[pos++]!;
      let s = b & 0x7f;
      for (let shift = 7; b & 0x80; shift += 7) {
        b = bytes[pos++]!;
        s |= (b & 0x7f) << shift;
      }
      ord += delta;
      ords[k] = ord;
      scores[k] = s;
    }
    return { ords, scores };
  }

  /**
   * A word's products (those with a lexeme starting with `prefix`) and its summed score in each, in
   * ascending ordinal order. One lexeme (the usual case) is decoded as it is stored, already in order. A
   * few (a word and its longer forms: "game", "gamer", "gamepad") are decoded the same way and merged in
   * pairs, reading every list in order. Many (a short prefix) are added up in the scratch array `score`
   * (left zeroed again) and their products sorted: merging them would pass each posting many times.
   */
  private word(prefix: string, score: Uint32Array): WordMatches {
    const [from, to] = this.range(prefix);
    if (to - from === 1) return this.postings(from);
    if (to - from > 1 && to - from <= MERGED_LEXEMES) {
      let lists: WordMatches[] = [];
      for (let i = from; i < to; i++) lists.push(this.postings(i));
      while (lists.length > 1) {
        const next: WordMatches[] = [];
        for (let j = 0; j < lists.length; j += 2)
          next.push(j + 1 < lists.length ? mergeSummed(lists[j]!, lists[j + 1]!) : lists[j]!);
        lists = next;
      }
      return lists[0]!;
    }
    const found: number[] = [];
    for (let i = from; i < to; i++) {
      const { ords, scores } = this.postings(i);
      for (let k = 0; k < ords.length; k++) {
        const ord = ords[k]!;
        if (score[ord] === 0) found.push(ord);
        score[ord] = score[ord]! + scores[k]!;
      }
    }
    const ords = new Uint32Array(found.length);
    if (found.length * 16 > score.length) {
      // many products (a short prefix: "res" starts 300,000 products' words at 1M): reading the products'
      // scores in order is one pass, where sorting them took 20-30 ms
      for (let ord = 0, k = 0; k < ords.length; ord++) if (score[ord] !== 0) ords[k++] = ord;
    } else {
      ords.set(found);
      ords.sort();
    }
    const scores = new Uint32Array(ords.length);
    for (let k = 0; k < ords.length; k++) {
      scores[k] = score[ords[k]!]!;
      score[ords[k]!] = 0;
    }
    return { ords, scores };
  }

  /**
   * Products whose vector has, for every prefix, a lexeme starting with it (`w1:* & w2:*`), or whose
   * category is one of `categoryIds` (matched by name beforehand, as the SQL path does); a page of them
   * best first (score descending, then id ascending), and how many there are.
   */
  query(prefixes: string[], categoryIds: readonly string[], offset: number, limit: number): IndexAnswer {
    if (prefixes.length > 1 && categoryIds.length === 0) return this.together(prefixes, offset, limit);
    const { mark } = this.scratch;
    const words = prefixes.map((prefix) => this.word(prefix, this.scratch.score));
    // one word and no category: its products, in order, are the matches
    if (words.length === 1 && categoryIds.length === 0) {
      const { ords, scores } = words[0]!;
      return {
        ids: this.page(ords, scores, ords.length, true, offset, limit),
        total: ords.length,
        facets: this.facets(ords, ords.length),
      };
    }
    // every word must be found: walk the rarest word's products (in order) and find each of them in the
    // other words' (ascending) products by galloping forward, so no word's products are spread into a
    // catalogue-sized array and cleared again: a broad word costs its decoding, not two more passes
    const rarest = words.reduce<WordMatches | undefined>(
      (a, w) => (!a || w.ords.length < a.ords.length ? w : a),
      undefined,
    );
    // at most the rarest word's products and every named category's
    let bound = rarest?.ords.length ?? 0;
    for (const c of categoryIds) bound += this.byCategory.get(c)?.length ?? 0;
    const { matchOrd, matchScore } = this.scratch.matches(bound);
    let m = 0;
    if (rarest) {
      const others = words.filter((w) => w !== rarest);
      const at = new Array<number>(others.length).fill(0);
      for (let j = 0; j < rarest.ords.length; j++) {
        const ord = rarest.ords[j]!;
        let sum = rarest.scores[j]!;
        let all = true;
        for (let k = 0; k < others.length; k++) {
          const w = others[k]!;
          const p = (at[k] = seek(w.ords, at[k]!, ord));
          if (p === w.ords.length || w.ords[p] !== ord) {
            all = false;
            break;
          }
          sum += w.scores[p]!;
        }
        if (all) {
          matchOrd[m] = ord;
          matchScore[m++] = sum;
        }
      }
    }
    // a category named by the query brings its products in, scored by the words they do have
    let sorted = true;
    if (categoryIds.length > 0) {
      for (let j = 0; j < m; j++) mark[matchOrd[j]!] = 1;
      for (const c of categoryIds) {
        // the category's products are in ascending order too: one forward cursor per word
        const at = new Array<number>(words.length).fill(0);
        for (const ord of this.byCategory.get(c) ?? [])
          if (mark[ord] === 0) {
            mark[ord] = 1;
            let sum = 0;
            for (let k = 0; k < words.length; k++) {
              const w = words[k]!;
              const p = (at[k] = seek(w.ords, at[k]!, ord));
              if (p < w.ords.length && w.ords[p] === ord) sum += w.scores[p]!;
            }
            matchOrd[m] = ord;
            matchScore[m++] = sum;
            sorted = false;
          }
      }
      for (let j = 0; j < m; j++) mark[matchOrd[j]!] = 0;
    }
    return {
      ids: this.page(matchOrd, matchScore, m, sorted, offset, limit),
      total: m,
      facets: this.facets(matchOrd, m),
      ...(m === 0 && words.length > 1 ? { eachFound: words.map((w) => w.ords.length > 0) } : {}),
    };
  }

  /**
   * Several words and no category: the products having every word. The rarest word (fewest postings) is
   * decoded; each other word then keeps those of its products, added to their score. A word of one
   * lexeme (the usual case) is read from its stored postings alongside the kept products, never decoded
   * into arrays of its own: a broad word costs one pass over its bytes, no allocation. A word of several
   * lexemes is decoded (word) and the kept products found in it by galloping.
   */
  private together(prefixes: string[], offset: number, limit: number): IndexAnswer {
    const ranges = prefixes.map((prefix) => this.range(prefix));
    const postingsOf = ([from, to]: [number, number]) => {
      let n = 0;
      for (let i = from; i < to; i++) n += this.counts[i]!;
      return n;
    };
    const sizes = ranges.map(postingsOf);
    let rarest = 0;
    for (let k = 1; k < ranges.length; k++) if (sizes[k]! < sizes[rarest]!) rarest = k;
    let m = 0;
    let { ords, scores }: WordMatches = { ords: new Uint32Array(0), scores: new Uint32Array(0) };
    if (sizes[rarest]! > 0) {
      ({ ords, scores } = this.word(prefixes[rarest]!, this.scratch.score));
      m = ords.length;
      // the other words, rarest first: the kept products shrink fastest
      const others = ranges.map((_, k) => k).filter((k) => k !== rarest);
      others.sort((a, b) => sizes[a]! - sizes[b]!);
      for (const k of others) {
        if (m === 0) break;
        const [from, to] = ranges[k]!;
        m =
          to - from === 1
            ? this.keepIn(from, ords, scores, m)
            : keepFound(this.word(prefixes[k]!, this.scratch.score), ords, scores, m);
      }
    }
    return {
      ids: this.page(ords, scores, m, true, offset, limit),
      total: m,
      facets: this.facets(ords, m),
      ...(m === 0 ? { eachFound: ranges.map(([from, to]) => to > from) } : {}),
    };
  }

  /**
   * Keeps, of the first `m` products of `ords` (ascending, scored in `scores`), those lexeme `i` has, its
   * score added; reads the lexeme's postings in step with them, and stops when either ends. Answers how
   * many are kept (moved to the front).
   */
  private keepIn(i: number, ords: Uint32Array, scores: Uint32Array, m: number): number {
    // the varint pairs are decoded as in postings(), inline: a shared reader object cost 4-8% of a
    // two-word search (timed over the bench's searches at 1M)
    const bytes = this.bytes;
    const n = this.counts[i]!;
    let pos = this.offsets[i]!;
    let ord = 0;
    let j = 0;
    let kept = 0;
    for (let k = 0; k < n && j < m; k++) {
      let b = bytes[pos++]!;
      let delta = b & 0x7f;
      for (let shift = 7; b & 0x80; shift += 7) {
        b = bytes[pos++]!;
        delta |= (b & 0x7f) << shift;
      }
      b = bytes[pos++]!;
      let s = b & 0x7f;
      for (let shift = 7; b & 0x80; shift += 7) {
        b = bytes[pos++]!;
        s |= (b & 0x7f) << shift;
      }
      ord += delta;
      while (j < m && ords[j]! < ord) j++;
      if (j < m && ords[j] === ord) {
        ords[kept] = ord;
        scores[kept++] = scores[j++]! + s;
      }
    }
    return kept;
  }

  /** The facets over the first `m` ordinals of `ords`: one pass. */
  private facets(ords: Uint32Array, m: number): IndexAnswer['facets'] {
    const { brand, brands, price } = this.facetColumns;
    const perBrand = new Uint32Array(brands.length);
    const perCategory = new Uint32Array(this.categoryList.length);
    let min: number | null = null;
    let max: number | null = null;
    for (let j = 0; j < m; j++) {
      const ord = ords[j]!;
      perBrand[brand[ord]!]!++;
      perCategory[this.categoryOf[ord]!]!++;
      const p = price[ord]!;
      if (min === null || p < min) min = p;
      if (max === null || p > max) max = p;
    }
    const categories: [string, number][] = [];
    perCategory.forEach((count, code) => {
      const id = this.categoryList[code];
      if (count > 0 && id) categories.push([id, count]);
    });
    return { brands: rankBrands(brands, perBrand), categories, price: { min, max } };
  }

  /**
   * The ids ranked [offset, offset + limit) among the `m` matches in scratch, by score descending, then
   * ordinal (id) ascending. Scores are small whole numbers: counting the matches per score finds the
   * scores the page spans without sorting every match (a word found in every product would otherwise sort
   * the whole catalogue).
   */
  private page(
    matchOrd: Uint32Array,
    matchScore: Uint32Array,
    m: number,
    sorted: boolean,
    offset: number,
    limit: number,
  ): string[] {
    const end = Math.min(m, offset + limit);
    if (offset >= end) return [];
    let max = 0;
    for (let j = 0; j < m; j++) if (matchScore[j]! > max) max = matchScore[j]!;
    const perScore = new Uint32Array(max + 1);
    for (let j = 0; j < m; j++) perScore[matchScore[j]!]!++;
    const out: string[] = [];
    let rank = 0; // rank of the first match of score s
    for (let s = max; s >= 0 && rank < end; s--) {
      const n = perScore[s]!;
      if (n === 0 || rank + n <= offset) {
        rank += n;
        continue;
      }
      // this score's matches, by ordinal: the ones whose rank falls in the page
      const from = Math.max(0, offset - rank);
      const to = Math.min(n, end - rank);
      for (const ord of sorted
        ? this.inOrder(matchOrd, matchScore, m, s, from, to)
        : this.ordsOfScore(matchOrd, matchScore, m, s, n, from, to))
        out.push(this.ids.at(ord));
      rank += n;
    }
    return out;
  }

  /** Matches in ordinal order: the [from, to) first of those scoring `s`, in one pass. */
  private inOrder(matchOrd: Uint32Array, matchScore: Uint32Array, m: number, s: number, from: number, to: number) {
    const picked: number[] = [];
    for (let j = 0, seen = 0; j < m && seen < to; j++)
      if (matchScore[j] === s) {
        if (seen >= from) picked.push(matchOrd[j]!);
        seen++;
      }
    return picked;
  }

  /** Matches in no order: the [from, to) smallest ordinals among the `n` scoring `s`. */
  private ordsOfScore(
    matchOrd: Uint32Array,
    matchScore: Uint32Array,
    m: number,
    s: number,
    n: number,
    from: number,
    to: number,
  ): number[] {
    const { mark } = this.scratch;
    if (n <= SORT_LIMIT) {
      const same = new Uint32Array(n);
      let k = 0;
      for (let j = 0; j < m; j++) if (matchScore[j] === s) same[k++] = matchOrd[j]!;
      return Array.from(same.sort().subarray(from, to));
    }
    for (let j = 0; j < m; j++) if (matchScore[j] === s) mark[matchOrd[j]!] = 1;
    const picked: number[] = [];
    for (let ord = 0, seen = 0; ord < mark.length && seen < to; ord++)
      if (mark[ord] === 1) {
        if (seen >= from) picked.push(ord);
        seen++;
      }
    for (let j = 0; j < m; j++) if (matchScore[j] === s) mark[matchOrd[j]!] = 0;
    return picked;
  }
}

/** Catalogues larger than this are left to SQL. */
export const MAX_INDEXED = 2 ** 26;

/** What the catalogue asks of a keyword index, wherever the index is held (this process, or a cluster's primary). */
export interface KeywordSearch {
  /**
   * A page of a plain keyword search by relevance and its total, or undefined while no index is built for
   * the catalogue as it is now (the caller then asks SQL, which gives the same answer).
   */
  search(
    prefixes: string[],
    categoryIds: readonly string[],
    offset: number,
    limit: number,
  ): Promise<IndexAnswer | undefined>;
  /** Every catalogue write calls this: the index may no longer match the catalogue. */
  drop(): void;
  /** Resolves once a build under way in this process is in (tests). */
  settled(): Promise<void>;
  /** False when the index is known not to answer now (a small catalogue, a build under way): skip it. */
  mayAnswer(): boolean;
  /** The query's lexemes as PostgreSQL stems them (null: the index cannot answer this query). */
  lexemes(tsquery: string, stem: (q: string) => Promise<string>): Promise<string[] | null>;
}

/** Stemmed lexemes per tsquery text, remembered (stemming never changes), at most 5,000 queries. */
export class LexemeMemo {
  private readonly memo = new Map<string, string[] | null>();

  async lexemes(tsquery: string, stem: (q: string) => Promise<string>): Promise<string[] | null> {
    const hit = this.memo.get(tsquery);
    if (hit !== undefined) return hit;
    const lexemes = lexemesOfQuery(await stem(tsquery));
    if (this.memo.size >= 5000) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(tsquery, lexemes);
    return lexemes;
  }
}

/**
 * The index of the current catalogue, kept correct by `drop()` on every catalogue write (wired to the
 * catalogue cache like ListMemo). `current()` answers with the index when it is built for the catalogue
 * as it is now; otherwise it starts one build in the background and answers undefined (SQL path).
 * Catalogues smaller than `minProducts` are left to SQL, which is fast enough there.
 */
export class SearchIndex implements KeywordSearch {
  private generation = 0;
  private index: KeywordIndex | undefined;
  /** The catalogue was too small to index at this generation: nothing to build until a write. */
  private small = false;
  private building: Promise<void> | undefined;
  private readonly lexemeMemo = new LexemeMemo();

  constructor(
    private readonly load: (minProducts: number) => Promise<KeywordIndex | null>,
    readonly minProducts = 10_000,
    /** Told of every build that is kept: its index and how long it took (the operator's log line). */
    private readonly onBuilt?: (index: KeywordIndex, ms: number) => void,
  ) {}

  drop(): void {
    this.generation++;
    this.index = undefined;
    this.small = false;
  }

  current(): KeywordIndex | undefined {
    if (this.index || this.small || this.building) return this.index;
    const generation = this.generation;
    const started = Date.now();
    this.building = this.load(this.minProducts)
      .then((index) => {
        if (generation !== this.generation) return; // a write overtook the build: it may be stale
        if (index) {
          this.index = index;
          this.onBuilt?.(index, Date.now() - started);
        } else this.small = true;
      })
      .catch(() => {}) // searches keep taking the SQL path; the next one tries again
      .finally(() => {
        this.building = undefined;
      });
    return undefined;
  }

  mayAnswer(): boolean {
    return this.current() !== undefined;
  }

  async search(
    prefixes: string[],
    categoryIds: readonly string[],
    offset: number,
    limit: number,
  ): Promise<IndexAnswer | undefined> {
    return this.current()?.query(prefixes, categoryIds, offset, limit);
  }

  lexemes(tsquery: string, stem: (q: string) => Promise<string>): Promise<string[] | null> {
    return this.lexemeMemo.lexemes(tsquery, stem);
  }

  /** For tests: resolves once a build under way is in. */
  async settled(): Promise<void> {
    await this.building;
  }
}
