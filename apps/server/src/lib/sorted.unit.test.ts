import { describe, expect, it } from 'vitest';
import { countInRange } from './sorted.ts';

/** The same count by looking at every value. */
const naive = (values: number[], min?: number, max?: number) =>
  values.filter((v) => (min === undefined || v >= min) && (max === undefined || v <= max)).length;

describe('countInRange', () => {
  const values = [100, 250, 250, 250, 999, 1000, 1000, 4200];
  const sorted = Int32Array.from(values);

  it('counts the values between both bounds, each bound included', () => {
    expect(countInRange(sorted, 250, 1000)).toBe(6);
    expect(countInRange(sorted, 251, 999)).toBe(1);
    expect(countInRange(sorted, 1000, 1000)).toBe(2);
  });

  it('counts from one bound alone, or everything without bounds', () => {
    expect(countInRange(sorted, 1000)).toBe(3);
    expect(countInRange(sorted, undefined, 250)).toBe(4);
    expect(countInRange(sorted)).toBe(8);
  });

  it('counts nothing outside the values, nor in a reversed range', () => {
    expect(countInRange(sorted, 5000)).toBe(0);
    expect(countInRange(sorted, undefined, 99)).toBe(0);
    expect(countInRange(sorted, 1000, 250)).toBe(0);
    expect(countInRange(new Int32Array(0), 0, 10)).toBe(0);
  });

  it('agrees with looking at every value, for random values and bounds', () => {
    for (let round = 0; round < 200; round++) {
      const list = Array.from({ length: Math.floor(Math.random() * 60) }, () => Math.floor(Math.random() * 50));
      const s = Int32Array.from(list).sort();
      const min = Math.random() < 0.2 ? undefined : Math.floor(Math.random() * 60) - 5;
      const max = Math.random() < 0.2 ? undefined : Math.floor(Math.random() * 60) - 5;
      expect(countInRange(s, min, max)).toBe(naive(list, min, max));
    }
  });
});
