/**
 * Reading the catalogue's two in-process indexes from the database: the keyword index (search-index.ts)
 * and the facet table (facet-index.ts). Each read answers plain arrays, so it can run on this thread or
 * in a worker thread of its own (catalog-build.worker.ts, started by background-builds.ts), which hands
 * the arrays back without copying them. This module imports nothing but the repositories and the
 * builders, so a worker loads little.
 */
import type { Db } from '#server/db/client.ts';
import { catalogRepository as repo } from './catalog.repository.ts';
import { FacetTableBuilder, FEW_MATCHES, type Columns, type SortRanks } from './facet-index.ts';
import { productListRepository as lists } from './product-list.repository.ts';
import { KeywordIndexBuilder, MAX_INDEXED, type KeywordParts } from './search-index.ts';

/**
 * The keyword index of the catalogue as plain arrays, read in chunks of `chunk` products so no query or
 * parse holds the database (or this thread's event loop) for long; null below `minProducts` products.
 */
export async function readKeywordParts(db: Db, minProducts: number, chunk: number): Promise<KeywordParts | null> {
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
  return builder.parts();
}

/**
 * The facet table's columns: every active product's brand, category, price, rating, review count and
 * whether it can be bought, read `chunk` products at a time so a large shop never holds all its rows as
 * objects at once, with the database's ranks of their names and dates (its sorts).
 */
export async function readFacetColumns(db: Db, chunk: number, fewMatches = FEW_MATCHES): Promise<Columns> {
  const builder = new FacetTableBuilder();
  let after = '';
  let first: string | null = null;
  let last: string | null = null;
  let n = 0;
  // the database ranks the names while the rows are read; without them (a failed read) the table still
  // counts, and the database sorts the pages
  const ranked = lists.sortRanks(db).catch(() => null);
  for (;;) {
    const rows = await lists.facetRowsAfter(db, after, chunk);
    builder.add(rows.map((r) => ({ ...r, rating: Number(r.rating), inStock: Boolean(r.inStock) })));
    first ??= rows[0]?.id ?? null;
    last = rows[rows.length - 1]?.id ?? last;
    n += rows.length;
    if (rows.length < chunk) break;
    after = rows[rows.length - 1]!.id;
  }
  const read = await ranked;
  return builder.columns(read ? ranksOf(read, { n, first, last }) : undefined, fewMatches);
}

/**
 * The ranks as the facet table keeps them, when they were read of the same products as its rows (their
 * number and first and last id agree; a change in between also drops the table being built); otherwise
 * none, and the table leaves a page's order to the database.
 */
function ranksOf(
  read: Awaited<ReturnType<typeof lists.sortRanks>>,
  rows: { n: number; first: string | null; last: string | null },
): SortRanks | undefined {
  if (read.n !== rows.n || read.first !== rows.first || read.last !== rows.last || read.ranks.length !== rows.n * 8)
    return undefined;
  const name = new Uint32Array(rows.n);
  const created = new Uint32Array(rows.n);
  for (let i = 0; i < rows.n; i++) {
    name[i] = read.ranks.readUInt32BE(i * 8);
    created[i] = read.ranks.readUInt32BE(i * 8 + 4);
  }
  return { name, created };
}
