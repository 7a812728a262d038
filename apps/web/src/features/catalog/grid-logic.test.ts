import { describe, expect, it } from 'vitest';
import {
  addProducts,
  batchSizeForWidth,
  canRecycle,
  emptyGrid,
  gridReducer,
  isFinished,
  newUnique,
  pastLoadPoint,
  recycle,
  recycleCap,
  seededRandom,
  shuffle,
  takeBatch,
  type GridState,
} from './grid-logic.ts';

const p = (n: number) => ({ _id: `id${n}` });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => p(from + i));

describe('batchSizeForWidth', () => {
  it('gives 8 under 400 px, 12 under 768, 16 under 1200 and 24 from 1200', () => {
    expect(batchSizeForWidth(320)).toBe(8);
    expect(batchSizeForWidth(399)).toBe(8);
    expect(batchSizeForWidth(400)).toBe(12);
    expect(batchSizeForWidth(767)).toBe(12);
    expect(batchSizeForWidth(768)).toBe(16);
    expect(batchSizeForWidth(1199)).toBe(16);
    expect(batchSizeForWidth(1200)).toBe(24);
    expect(batchSizeForWidth(2560)).toBe(24);
  });
});

describe('pastLoadPoint', () => {
  it('is true from 75% of the page', () => {
    expect(pastLoadPoint(0, 700, 1000)).toBe(false);
    expect(pastLoadPoint(50, 700, 1000)).toBe(true);
    expect(pastLoadPoint(0, 1000, 1000)).toBe(true);
  });
});

describe('newUnique', () => {
  it('drops products already pooled and repeats inside the batch', () => {
    expect(newUnique([p(1), p(2)], [p(2), p(3), p(3), p(4)]).map((x) => x._id)).toEqual(['id3', 'id4']);
  });
});

describe('shuffle', () => {
  it('keeps every element exactly once and leaves the input untouched', () => {
    const input = range(0, 50);
    const out = shuffle(input, seededRandom(42));
    expect(out).toHaveLength(50);
    expect(new Set(out.map((x) => x._id)).size).toBe(50);
    expect(input.map((x) => x._id)).toEqual(range(0, 50).map((x) => x._id));
    expect(out.map((x) => x._id)).not.toEqual(input.map((x) => x._id));
  });

  it('is repeatable for a seed and differs between seeds', () => {
    const ids = (seed: number) => shuffle(range(0, 20), seededRandom(seed)).map((x) => x._id);
    expect(ids(7)).toEqual(ids(7));
    expect(ids(7)).not.toEqual(ids(8));
  });
});

describe('the grid state', () => {
  it('pools pages without duplicates by _id', () => {
    let s: GridState<{ _id: string }> = emptyGrid();
    s = addProducts(s, range(0, 24), 1);
    s = addProducts(s, [...range(20, 30), p(3)], 2);
    expect(s.pool).toHaveLength(30);
    expect(s.queue).toHaveLength(30);
    expect(new Set(s.queue.map((x) => x._id)).size).toBe(30);
  });

  it('shows batches of the asked size until the queue runs out', () => {
    let s = addProducts(emptyGrid(), range(0, 20), 1);
    s = takeBatch(s, 8);
    expect(s.items).toHaveLength(8);
    s = takeBatch(s, 8);
    s = takeBatch(s, 8);
    expect(s.items).toHaveLength(20);
    expect(new Set(s.items.map((i) => i.product._id)).size).toBe(20);
    expect(takeBatch(s, 8)).toBe(s);
  });

  it('recycles only once every page is loaded and the cycle is used up', () => {
    let s = takeBatch(addProducts(emptyGrid(), range(0, 10), 1), 24);
    expect(canRecycle(s, false)).toBe(false);
    expect(canRecycle(s, true)).toBe(true);
    s = recycle(s, 5);
    expect(s.cycle).toBe(1);
    expect(s.queue).toHaveLength(10);
    expect(s.queue[0]?._id).not.toBe(s.items[s.items.length - 1]?.product._id);
  });

  it('ignores a recycle request while the current cycle still has products', () => {
    let s = takeBatch(addProducts(emptyGrid(), range(0, 10), 1), 24);
    s = takeBatch(recycle(s, 5), 4);
    expect(recycle(s, 6)).toBe(s);
  });

  it('never holds more than three times the product count, with unique keys', () => {
    let s = addProducts(emptyGrid(), range(0, 10), 1);
    let rounds = 0;
    while (rounds++ < 100) {
      const before = s.items.length;
      s = gridReducer(s, { type: 'take', size: 8 });
      if (s.items.length === before) {
        if (!canRecycle(s, true)) break;
        s = gridReducer(s, { type: 'recycle', seed: rounds });
      }
    }
    expect(recycleCap(10)).toBe(30);
    expect(s.items).toHaveLength(30);
    expect(new Set(s.items.map((i) => i.key)).size).toBe(30);
    expect(isFinished(s, true)).toBe(true);
    for (const id of range(0, 10).map((x) => x._id)) {
      expect(s.items.filter((i) => i.product._id === id)).toHaveLength(3);
    }
  });

  it('mixes products that arrive mid-cycle into the remaining queue', () => {
    let s = takeBatch(addProducts(emptyGrid(), range(0, 24), 1), 24);
    expect(s.queue).toHaveLength(0);
    s = addProducts(s, range(24, 48), 2);
    expect(s.queue).toHaveLength(24);
    s = takeBatch(s, 24);
    expect(new Set(s.items.map((i) => i.product._id)).size).toBe(48);
    expect(isFinished(s, false)).toBe(false);
  });
});
