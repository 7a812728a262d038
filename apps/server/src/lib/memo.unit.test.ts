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
