import { Readable, pipeline } from 'node:stream';
import { escapeCsvFormula } from '@store/shared';
import { stringify } from 'csv-stringify';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** The `content-disposition` of a download named `{prefix}-YYYY-MM-DD.csv` (the UTC date). */
export function csvAttachment(prefix: string, now = new Date()): string {
  return `attachment; filename="${prefix}-${now.toISOString().slice(0, 10)}.csv"`;
}

/**
 * A CSV document written as its records are read: the header row, then one row per record, each cell
 * made formula-safe (escapeCsvFormula) and quoted as RFC 4180 says (a cell holding a comma, a quote or a
 * line break is quoted, its quotes doubled). Records are pulled only as fast as the client reads, so
 * memory stays flat however many rows there are; the client going away stops the reading.
 */
export function csvStream(header: readonly string[], records: AsyncIterable<string[]>): Readable {
  async function* rows() {
    yield [...header];
    for await (const record of records) yield record.map(escapeCsvFormula);
  }
  // an error of the source (the database) destroys the answer: the download ends short, never silently whole
  return pipeline(Readable.from(rows()), stringify(), () => {});
}

/** Consecutive slices of at most `size` items. */
export function* chunksOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
