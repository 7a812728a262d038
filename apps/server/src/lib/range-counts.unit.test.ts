import { describe, expect, it } from 'vitest';
import { RangeCounts } from './range-counts.ts';

describe('RangeCounts', () => {
  const rows = Int32Array.from([5, 10, 10, 20, 40]);
  const reader = () => {
    const reads = { whole: 0, values: 0 };
    return {
      reads,
      whole: async () => {
        reads.whole++;
        return rows.length;
      },
      values: async () => {
        reads.values++;
        return rows;
      },
    };
  };

  it('leaves the first range to the caller, then counts every range from the values read once', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 100, budget: 1000 });
    const r = reader();
    expect(await ranges.count('brand a', 10, 20, r.whole, r.values)).toBeUndefined();
    expect(r.reads).toEqual({ whole: 0, values: 0 });
    expect(await ranges.count('brand a', 10, 20, r.whole, r.values)).toBe(3);
    expect(await ranges.count('brand a', undefined, 9, r.whole, r.values)).toBe(1);
    expect(await ranges.count('brand a', 41, undefined, r.whole, r.values)).toBe(0);
    expect(r.reads).toEqual({ whole: 1, values: 1 });
    // another filter set starts over
    expect(await ranges.count('brand b', 10, 20, r.whole, r.values)).toBeUndefined();
  });

  it('counts directly when the filters match more rows than it keeps', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 4, budget: 1000 });
    const r = reader();
    await ranges.count('all', 0, 100, r.whole, r.values);
    expect(await ranges.count('all', 0, 100, r.whole, r.values)).toBeUndefined();
    expect(await ranges.count('all', 0, 10, r.whole, r.values)).toBeUndefined();
    expect(r.reads).toEqual({ whole: 1, values: 0 });
  });

  it('reads the values again once they were dropped to fit the budget', async () => {
    const ranges = new RangeCounts({ sets: 4, maxValues: 100, budget: 8 });
    const r = reader();
    for (const key of ['a', 'b']) await ranges.count(key, 0, 1, r.whole, r.values);
    expect(await ranges.count('a', 0, 10, r.whole, r.values)).toBe(3);
    expect(await ranges.count('b', 0, 10, r.whole, r.values)).toBe(3); // 10 values > 8: a goes
    expect(await ranges.count('a', 0, 10, r.whole, r.values)).toBe(3);
    expect(r.reads.values).toBe(3);
  });
});
