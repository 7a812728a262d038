import { describe, expect, it } from 'vitest';
import { batchWriter } from './batch-writer.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('batchWriter', () => {
  it('writes concurrent items in few statements and answers each its own result', async () => {
    const batches: number[][] = [];
    const write = batchWriter(
      async (items: number[]) => {
        batches.push(items);
        await tick(5);
        return items.map((i) => i * 10);
      },
      { maxInFlight: 2, maxBatch: 40 },
    );
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(await Promise.all(items.map(write))).toEqual(items.map((i) => i * 10));
    // handed in one tick: split by maxBatch, each item written exactly once
    expect(batches.map((b) => b.length)).toEqual([40, 40, 20]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(items);
  });

  it('writes one item alone at once, and items arriving during a statement in the next one', async () => {
    const batches: string[][] = [];
    const write = batchWriter(
      async (items: string[]) => {
        batches.push(items);
        await tick(10);
        return items.map((i) => i.toUpperCase());
      },
      { maxInFlight: 1, maxBatch: 100 },
    );
    const first = write('a');
    await tick(2);
    const later = ['b', 'c', 'd'].map(write);
    expect(await first).toBe('A');
    expect(await Promise.all(later)).toEqual(['B', 'C', 'D']);
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('when a batch fails, writes each item alone: only the refused one fails, with its own error', async () => {
    const calls: number[][] = [];
    const written: number[] = [];
    const write = batchWriter(
      async (items: number[]) => {
        calls.push(items);
        await tick(1);
        // all or nothing, as one statement: an item of 13 refuses the whole batch
        if (items.includes(13)) throw new Error(`refused ${items.join(',')}`);
        written.push(...items);
        return items.map((i) => -i);
      },
      { maxInFlight: 1, maxBatch: 10 },
    );
    const settled = await Promise.allSettled([11, 12, 13, 14].map(write));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      -11,
      -12,
      'refused 13',
      -14,
    ]);
    expect(written.sort()).toEqual([11, 12, 14]);
    expect(calls[0]).toEqual([11, 12, 13, 14]);
    expect(calls.slice(1).every((c) => c.length === 1)).toBe(true);
  });

  it('never runs more than maxInFlight statements at once', async () => {
    let running = 0;
    let most = 0;
    const write = batchWriter(
      async (items: number[]) => {
        running++;
        most = Math.max(most, running);
        await tick(3);
        running--;
        return items;
      },
      { maxInFlight: 3, maxBatch: 2 },
    );
    await Promise.all(Array.from({ length: 30 }, (_, i) => write(i)));
    expect(most).toBe(3);
  });
});
