import { Memo } from './memo.ts';
import { countInRange } from './sorted.ts';

/** How much a RangeCounts keeps: filter sets, values per set, values in all. */
export interface RangeBounds {
  sets: number;
  maxValues: number;
  budget: number;
}

/** Up to 250,000 values per filter set, 2,000,000 (8 MB) in all, 64 filter sets. */
export const RANGE_BOUNDS: RangeBounds = { sets: 64, maxValues: 250_000, budget: 2_000_000 };

/**
 * Counts of a filter set narrowed to a range of one integer column (an amount, a price) whose bounds are
 * endless, so that each range would otherwise be counted over every matching index entry. The first range
 * asked of the same other filters (`key`) reads their values once (when they are at most `maxValues`),
 * and every range of them is then counted by two binary searches over the values, sorted. Kept values
 * weigh at most `budget` numbers in all (4 bytes each). `forget()` when the rows may have changed; the
 * filter sets found to match more than `maxValues` rows are remembered across it (their counts are left to
 * the caller), so a broad filter set is read once, not after every change.
 */
export class RangeCounts {
  private kept: Memo<Int32Array | null>;
  private readonly broad = new Set<string>();

  constructor(private readonly opts: RangeBounds = RANGE_BOUNDS) {
    this.kept = this.memo();
  }

  private memo() {
    return new Memo<Int32Array | null>(this.opts.sets, { max: this.opts.budget, of: (v) => v?.length ?? 0 });
  }

  /** Drops every kept value: they were read before a change. */
  forget(): void {
    this.kept = this.memo();
  }

  /**
   * How many of the `key` filters' rows lie in [min, max], or undefined when they match more than
   * `maxValues` rows and are to be counted directly. `values(limit)` reads at most `limit` of their
   * values, in any order.
   */
  async count(
    key: string,
    min: number | undefined,
    max: number | undefined,
    values: (limit: number) => Promise<Int32Array>,
  ): Promise<number | undefined> {
    if (this.broad.has(key)) return undefined;
    const sorted = await this.kept.get(key, async () => {
      const read = await values(this.opts.maxValues + 1);
      if (read.length <= this.opts.maxValues) return read.sort();
      if (this.broad.size >= this.opts.sets * 16) this.broad.clear();
      this.broad.add(key);
      return null;
    });
    return sorted ? countInRange(sorted, min, max) : undefined;
  }
}
