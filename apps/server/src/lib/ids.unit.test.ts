import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it('gives 24-hex ids led by the current second, never the same twice across many pool refills', () => {
    const before = Math.floor(Date.now() / 1000);
    const ids = Array.from({ length: 5000 }, newId);
    const after = Math.floor(Date.now() / 1000);
    expect(ids.every((id) => /^[0-9a-f]{24}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // the random part differs too (5,000 ids span ten draws of random bytes)
    expect(new Set(ids.map((id) => id.slice(8))).size).toBe(ids.length);
    for (const id of ids) {
      const seconds = parseInt(id.slice(0, 8), 16);
      expect(seconds).toBeGreaterThanOrEqual(before);
      expect(seconds).toBeLessThanOrEqual(after);
    }
  });
});
