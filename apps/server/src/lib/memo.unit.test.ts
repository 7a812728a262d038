import { describe, expect, it } from 'vitest';
import { Memo } from './memo.ts';

describe('Memo', () => {
  it('shares a value being computed, keeps the latest entries and forgets failures', async () => {
    const memo = new Memo<number>(2);
    let runs = 0;
    const compute = (v: number) => async () => {
      runs++;
      return v;
    };
    const [a, b] = await Promise.all([memo.get('a', compute(1)), memo.get('a', compute(9))]);
    expect([a, b, runs]).toEqual([1, 1, 1]); // the second request joined the first
    await memo.get('b', compute(2));
    await memo.get('a', compute(9)); // a is now the most recently used
    await memo.get('c', compute(3)); // b goes
    expect(await memo.get('b', compute(20))).toBe(20);
    expect(await memo.get('a', compute(90))).toBe(90); // a was dropped when b came back
    await expect(memo.get('x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.get('x', compute(5))).toBe(5); // the failure was not kept
  });
});

describe('Memo with a budget', () => {
  it('keeps the latest values whose weights fit the budget, dropping the least recently used', async () => {
    const memo = new Memo<number[]>(10, { max: 5, of: (v) => v.length });
    let runs = 0;
    const compute = (n: number) => async () => {
      runs++;
      return Array.from({ length: n }, () => n);
    };
    await memo.get('two', compute(2));
    await memo.get('three', compute(3)); // 5 of 5
    expect(runs).toBe(2);
    await memo.get('two', compute(2)); // kept, and now the most recently used
    expect(runs).toBe(2);
    await memo.get('one', compute(1)); // 6 > 5: three goes
    await memo.get('two', compute(2));
    await memo.get('one', compute(1));
    expect(runs).toBe(3);
    await memo.get('three', compute(3)); // computed again; two (the least recently used) goes to fit it
    expect(runs).toBe(4);
    await memo.get('one', compute(1));
    expect(runs).toBe(4);
    await memo.get('two', compute(2));
    expect(runs).toBe(5);
  });

  it('keeps nothing heavier than the whole budget, and a failure weighs nothing', async () => {
    const memo = new Memo<number[]>(10, { max: 3, of: (v) => v.length });
    let runs = 0;
    const big = async () => {
      runs++;
      return [1, 2, 3, 4];
    };
    expect(await memo.get('big', big)).toEqual([1, 2, 3, 4]);
    await memo.get('big', big);
    expect(runs).toBe(2);
    await expect(memo.get('x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await memo.get('small', async () => [1, 2, 3]);
    expect(await memo.get('small', async () => [9])).toEqual([1, 2, 3]);
  });
});
