/**
 * Values kept per key: the latest `size`, least recently used dropped first; a failed computation is
 * forgotten. The promise itself is kept, so requests arriving while a value is computed share it.
 */
export class Memo<T> {
  private readonly entries = new Map<string, Promise<T>>();
  constructor(private readonly size: number) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
