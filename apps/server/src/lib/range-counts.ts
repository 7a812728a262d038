import { Memo } from './memo.ts';
import { countInRange } from './sorted.ts';

/**
 * Counts of a filter set narrowed to a range of one integer column (an amount, a price) whose bounds are
 * endless, so that each range would otherwise be counted over every matching index entry. The second
 * range asked of the same other filters (`key`) reads their values, sorted, once (when they are at most
 * `maxValues`), and every range of them is then counted by two binary searches; the first is left to the
 * caller's count, so a lone range costs what it did. Kept values weigh at most `budget` numbers in all
 * (4 bytes each). Whoever holds it forgets it (a new one) when the rows may have changed.
 */
export class RangeCounts {
  private readonly asked = new Set<string>();
  private readonly kept: Memo<Int32Array | null>;

  constructor(private readonly opts: { sets: number; maxValues: number; budget: number }) {
    this.kept = new Memo(opts.sets, { max: opts.budget, of: (v) => v?.length ?? 0 });
  }

  /**
   * How many of the `key` filters' rows lie in [min, max], or undefined when they are to be counted
   * directly: the first range of them, or more than `maxValues` rows (`whole` counts them all, `values`
   * reads them sorted).
   */
  async count(
    key: string,
    min: number | undefined,
    max: number | undefined,
    whole: () => Promise<number>,
    values: () => Promise<Int32Array>,
  ): Promise<number | undefined> {
    if (!this.asked.has(key)) {
      if (this.asked.size >= this.opts.sets * 16) this.asked.clear();
      this.asked.add(key);
      return undefined;
    }
    const sorted = await this.kept.get(key, async () => ((await whole()) <= this.opts.maxValues ? values() : null));
    return sorted ? countInRange(sorted, min, max) : undefined;
  }
}
