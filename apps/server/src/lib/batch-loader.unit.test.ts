import { describe, expect, it } from 'vitest';
import { batchLoader } from './batch-loader.ts';

describe('batchLoader', () => {
  it('answers each key and coalesces concurrent lookups into few queries', async () => {
    const batches: number[][] = [];
    const load = batchLoader(
      async (keys: number[]) => {
        batches.push(keys);
        await new Promise((r) => setTimeout(r, 5));
        return new Map(keys.filter((k) => k % 7 !== 0).map((k) => [k, k * 10]));
      },
      { maxInFlight: 2, maxBatch: 500 },
    );
    const keys = Array.from({ length: 300 }, (_, i) => i % 100);
    const answers = await Promise.all(keys.map(load));
    expect(answers).toEqual(keys.map((k) => (k % 7 === 0 ? undefined : k * 10)));
    // every key asked in the same tick goes into one query; duplicates are asked once
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(100);
  });

  it('reads a key asked while a query runs in a later query (never an answer read before it was asked)', async () => {
    const batches: string[][] = [];
    let value = 'old';
    const load = batchLoader(
      async (keys: string[]) => {
        batches.push(keys);
        const seen = value;
        await new Promise((r) => setTimeout(r, 10));
        return new Map(keys.map((k) => [k, seen]));
      },
      { maxInFlight: 1, maxBatch: 500 },
    );
    const first = load('k');
    await new Promise((r) => setTimeout(r, 2)); // the first query is running
    value = 'new';
    const second = load('k');
    expect(await first).toBe('old');
    expect(await second).toBe('new');
    expect(batches).toEqual([['k'], ['k']]);
  });

  it('runs at most maxInFlight queries at once and at most maxBatch keys in one', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const load = batchLoader(
      async (keys: number[]) => {
        running++;
        most = Math.max(most, running);
        sizes.push(keys.length);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return new Map(keys.map((k) => [k, k]));
      },
      { maxInFlight: 2, maxBatch: 10 },
    );
    const asked: Promise<number | undefined>[] = [];
    for (let i = 0; i < 50; i++) {
      asked.push(load(i));
      if (i % 5 === 4) await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(asked)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(most).toBeLessThanOrEqual(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.length).toBeLessThan(50);
  });

  it('rejects every lookup of a failed query, and later lookups query again', async () => {
    let fail = true;
    const load = batchLoader(async (keys: string[]) => {
      if (fail) throw new Error('database unavailable');
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    await expect(Promise.all([load('a'), load('b')])).rejects.toThrow('database unavailable');
    fail = false;
    expect(await load('a')).toBe('A');
  });
});
