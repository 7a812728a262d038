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

/** One product as the loader reads it: its id, category and `search_vector::text`. */
export interface IndexedRow {
  id: string;
  categoryId: string | null;
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

export class KeywordIndexBuilder {
  private readonly ids: string[] = [];
  private readonly categories: (string | null)[] = [];
  private readonly postings = new Map<string, { ords: number[]; scores: number[] }>();

  /** Rows must come in ascending id order (the tie-break of the ranking). */
  add(rows: IndexedRow[]): void {
    for (const row of rows) {
      const ord = this.ids.length;
      this.ids.push(row.id);
      this.categories.push(row.categoryId);
      for (const m of row.vector.matchAll(ENTRY)) {
        const lexeme = m[1]!;
        let list = this.postings.get(lexeme);
        if (!list) this.postings.set(lexeme, (list = { ords: [], scores: [] }));
        list.ords.push(ord);
        list.scores.push(scoreOfPositions(m[2]));
      }
    }
  }

  finish(): KeywordIndex {
    const lexemes = [...this.postings.keys()].sort(byCodeUnits);
    return new KeywordIndex(
      this.ids,
      this.categories,
      lexemes,
      lexemes.map((l) => {
        const p = this.postings.get(l)!;
        return { ords: Uint32Array.from(p.ords), scores: Uint32Array.from(p.scores) };
      }),
    );
  }
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface IndexAnswer {
  /** The page's product ids, best first. */
  ids: string[];
  /** Every product the query matches. */
  total: number;
}

export class KeywordIndex {
  private readonly byCategory = new Map<string, number[]>();

  constructor(
    private readonly ids: string[],
    categories: (string | null)[],
    private readonly lexemes: string[],
    private readonly postings: { ords: Uint32Array; scores: Uint32Array }[],
  ) {
    categories.forEach((c, ord) => {
      if (c === null) return;
      const list = this.byCategory.get(c);
      if (list) list.push(ord);
      else this.byCategory.set(c, [ord]);
    });
  }

  get size(): number {
    return this.ids.length;
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

  /**
   * Products whose vector has, for every prefix, a lexeme starting with it (`w1:* & w2:*`), or whose
   * category is one of `categoryIds` (matched by name beforehand, as the SQL path does); a page of them
   * best first, and how many there are.
   */
  query(prefixes: string[], categoryIds: readonly string[], offset: number, limit: number): IndexAnswer {
    const n = this.ids.length;
    // per word: its score in each product, and the products it is found in
    const words = prefixes.map((prefix) => {
      const score = new Uint32Array(n);
      const found: number[] = [];
      const [from, to] = this.range(prefix);
      for (let i = from; i < to; i++) {
        const { ords, scores } = this.postings[i]!;
        for (let j = 0; j < ords.length; j++) {
          const ord = ords[j]!;
          if (score[ord] === 0) found.push(ord);
          score[ord] = score[ord]! + scores[j]!;
        }
      }
      return { score, found };
    });
    const total = new Map<number, number>();
    if (words.length > 0) {
      // every word must be found: walk the rarest word's products, look the others up
      const rarest = words.reduce((a, b) => (b.found.length < a.found.length ? b : a));
      for (const ord of rarest.found) {
        let sum = 0;
        let all = true;
        for (const w of words) {
          const s = w.score[ord]!;
          if (s === 0) {
            all = false;
            break;
          }
          sum += s;
        }
        if (all) total.set(ord, sum);
      }
    }
    // a category named by the query brings its products in, scored by the words they do have
    for (const c of categoryIds)
      for (const ord of this.byCategory.get(c) ?? [])
        if (!total.has(ord))
          total.set(
            ord,
            words.reduce((sum, w) => sum + w.score[ord]!, 0),
          );

    // one number per match orders it: score descending, then ordinal (id) ascending
    const keys = new Float64Array(total.size);
    let k = 0;
    for (const [ord, score] of total) keys[k++] = score * 2 ** 22 + (2 ** 22 - 1 - ord);
    keys.sort();
    const ids: string[] = [];
    for (let i = keys.length - 1 - offset; i >= 0 && ids.length < limit; i--) {
      const key = keys[i]!;
      ids.push(this.ids[2 ** 22 - 1 - (key % 2 ** 22)]!);
    }
    return { ids, total: total.size };
  }
}

/** Catalogues larger than this cannot be ordered by one number per match (score, id): not indexed. */
export const MAX_INDEXED = 2 ** 22 - 1;

/**
 * The index of the current catalogue, kept correct by `drop()` on every catalogue write (wired to the
 * catalogue cache like ListMemo). `current()` answers with the index when it is built for the catalogue
 * as it is now; otherwise it starts one build in the background and answers undefined (SQL path).
 * Catalogues smaller than `minProducts` are left to SQL, which is fast enough there.
 */
export class SearchIndex {
  private generation = 0;
  private index: KeywordIndex | undefined;
  /** The catalogue was too small to index at this generation: nothing to build until a write. */
  private small = false;
  private building: Promise<void> | undefined;
  private readonly lexemeMemo = new Map<string, string[] | null>();

  constructor(
    private readonly load: (minProducts: number) => Promise<KeywordIndex | null>,
    readonly minProducts = 10_000,
  ) {}

  drop(): void {
    this.generation++;
    this.index = undefined;
    this.small = false;
  }

  current(): KeywordIndex | undefined {
    if (this.index || this.small || this.building) return this.index;
    const generation = this.generation;
    this.building = this.load(this.minProducts)
      .then((index) => {
        if (generation !== this.generation) return; // a write overtook the build: it may be stale
        if (index) this.index = index;
        else this.small = true;
      })
      .catch(() => {}) // searches keep taking the SQL path; the next one tries again
      .finally(() => {
        this.building = undefined;
      });
    return undefined;
  }

  /** The query's lexemes as PostgreSQL stems them, remembered per tsquery text (stemming never changes). */
  async lexemes(tsquery: string, stem: (q: string) => Promise<string>): Promise<string[] | null> {
    const hit = this.lexemeMemo.get(tsquery);
    if (hit !== undefined) return hit;
    const lexemes = lexemesOfQuery(await stem(tsquery));
    if (this.lexemeMemo.size >= 5000) this.lexemeMemo.delete(this.lexemeMemo.keys().next().value as string);
    this.lexemeMemo.set(tsquery, lexemes);
    return lexemes;
  }

  /** For tests: resolves once a build under way is in. */
  async settled(): Promise<void> {
    await this.building;
  }
}
