/** The first index of `sorted` (ascending) whose value is ≥ `value` (its length when none is). */
function firstAtLeast(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many values of `sorted` (ascending) lie in [min, max]; an absent bound does not limit. */
export function countInRange(sorted: Int32Array, min?: number, max?: number): number {
  const from = min === undefined ? 0 : firstAtLeast(sorted, min);
  // the values ≤ max are those < max + 1 (integers: cents)
  const to = max === undefined ? sorted.length : firstAtLeast(sorted, Math.floor(max) + 1);
  return Math.max(0, to - from);
}
