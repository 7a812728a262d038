/**
 * A small in-process cache of serialised answers with a time limit and a generation counter:
 * `invalidate()` (called on every catalogue write) drops everything at once. With several processes
 * an answer is at most `ttlMs` old in the others.
 */
export class AnswerCache {
  private entries = new Map<string, { value: string; expires: number; generation: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  async get(key: string, produce: () => Promise<unknown>): Promise<string> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now && hit.generation === this.generation) return hit.value;
    const generation = this.generation;
    const value = JSON.stringify(await produce());
    // a write during produce() bumped the generation: do not keep an answer that may predate it
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, expires: now + this.ttlMs, generation });
    }
    return value;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}
