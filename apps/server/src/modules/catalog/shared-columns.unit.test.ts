import { describe, expect, it } from 'vitest';
import { sharedColumn } from './shared-columns.ts';

describe('columns kept once', () => {
  it('answers the column already kept when it is equal byte for byte and of the same kind', () => {
    const first = sharedColumn('test-price', Int32Array.of(100, 250, 999));
    expect(sharedColumn('test-price', Int32Array.of(100, 250, 999))).toBe(first);
    // another kind, another length, other bytes or another name: its own
    const asUint = Uint32Array.of(100, 250, 999);
    expect(sharedColumn('test-price', asUint)).toBe(asUint);
    const other = Int32Array.of(100, 250, 998);
    expect(sharedColumn('test-other', Int32Array.of(100, 250, 999))).not.toBe(first);
    expect(sharedColumn('test-price', other)).toBe(other);
    // the last one kept is what the next is compared with
    expect(sharedColumn('test-price', Int32Array.of(100, 250, 998))).toBe(other);
    const shorter = Int32Array.of(100, 250);
    expect(sharedColumn('test-price', shorter)).toBe(shorter);
  });

  it('compares the bytes a view shows, not the whole buffer under it', () => {
    const ids = Buffer.from('aa'.repeat(24), 'hex');
    const a = sharedColumn('test-ids', ids.subarray(0, 12));
    const b = Buffer.alloc(12, 0xaa);
    expect(sharedColumn('test-ids', b)).toBe(a);
  });
});
