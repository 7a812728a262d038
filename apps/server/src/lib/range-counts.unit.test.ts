import { describe, expect, it } from 'vitest';
import { RangeCounts } from './range-counts.ts';

describe('RangeCounts', () => {
  const rows = [40, 10, 5, 20, 10];
  const reader = () => {
    const reads: number[] = [];
    return {
      reads,
      // at most `limit` of the rows, unsorted, as the database gives them
      values: async (limit: number) => {
        reads.push(limit);
        return Int32Array.from(rows.slice(0, limit));
      },
    };
  };

  it('counts every range of a filter set from its values, read once and sorted', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 100, budget: 1000 });
    const r = reader();
    expect(await ranges.count('brand a', 10, 20, r.values)).toBe(3);
    expect(await ranges.count('brand a', undefined, 9, r.values)).toBe(1);
    expect(await ranges.count('brand a', 41, undefined, r.values)).toBe(0);
    expect(await ranges.count('brand a', 5, 40, r.values)).toBe(5);
    expect(r.reads).toEqual([101]);
    expect(await ranges.count('brand b', 10, 20, r.values)).toBe(3);
    expect(r.reads).toHaveLength(2);
  });

  it('reads them again after forget()', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 100, budget: 1000 });
    const r = reader();
    await ranges.count('a', 0, 10, r.values);
    ranges.forget();
    await ranges.count('a', 0, 10, r.values);
    expect(r.reads).toHaveLength(2);
  });

  it('leaves a filter set matching more rows than it keeps to the caller, and remembers it across forget()', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 4, budget: 1000 });
    const r = reader();
    expect(await ranges.count('all', 0, 100, r.values)).toBeUndefined();
    expect(r.reads).toEqual([5]);
    ranges.forget();
    expect(await ranges.count('all', 0, 10, r.values)).toBeUndefined();
    expect(r.reads).toHaveLength(1);
  });

  it('reads the values again once they were dropped to fit the budget', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 100, budget: 8 });
    const r = reader();
    expect(await ranges.count('a', 0, 10, r.values)).toBe(3);
    expect(await ranges.count('b', 0, 10, r.values)).toBe(3); // 10 values > 8: a goes
    expect(await ranges.count('a', 0, 10, r.values)).toBe(3);
    expect(r.reads).toHaveLength(3);
  });
});
