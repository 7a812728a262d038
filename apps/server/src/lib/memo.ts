/**
 * Values kept per key: the latest `size`, least recently used dropped first; a failed computation is
 * forgotten. The promise itself is kept, so requests arriving while a value is computed share it. With a
 * `budget`, the kept values also weigh at most `budget.max` together (each weighed by `budget.of` once
 * computed), the least recently used dropped first.
 */
export class Memo<T> {
  private readonly entries = new Map<string, Promise<T>>();
  private readonly weights = new Map<string, number>();
  private weight = 0;
  constructor(
    private readonly size: number,
    private readonly budget?: { max: number; of: (value: T) => number },
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    value.then(
      (v) => {
        if (!this.budget || this.entries.get(key) !== value) return;
        const w = this.budget.of(v);
        this.weights.set(key, w);
        this.weight += w;
        this.trim();
      },
      () => {
        if (this.entries.get(key) === value) this.drop(key);
      },
    );
    this.trim();
    return value;
  }

  private drop(key: string) {
    this.entries.delete(key);
    this.weight -= this.weights.get(key) ?? 0;
    this.weights.delete(key);
  }

  private trim() {
    while (this.entries.size > this.size || (this.budget && this.weight > this.budget.max))
      this.drop(this.entries.keys().next().value!);
  }
}
