/**
 * What the product list remembers between requests, kept correct by dropping it on every catalogue
 * write (`drop()`, wired to the catalogue cache, so every process drops it through the cache bus):
 * - the total and the facets of each filter set (the pager's `count(*)` is linear in the matches);
 *   a key starting with `stock:` depends on stock (an in-stock filter) and is dropped by `dropStock()`
 *   too, when orders change stock only;
 * - anchors of the newest-first list: the sort key of every `every`-th product, so a deep page is
 *   read by keyset (`(created_at, id) <= anchor`, then at most `every - 1` rows skipped) instead of
 *   walking the index from the start. The API keeps its page numbers.
 * A value computed while a write came in is not kept (generation counter). The anchors have a counter of
 * their own: a change of stock alone leaves the newest-first list as it was, so it neither drops them nor
 * throws away a build under way (orders and their expiry change stock all the time).
 */
export interface Anchor {
  /** `created_at` as PostgreSQL prints it (microseconds kept: a JS Date would round them away). */
  createdAt: string;
  id: string;
}

export class ListMemo {
  private generation = 0;
  private anchorGeneration = 0;
  private totals = new Map<string, unknown>();
  private anchors: Anchor[] | undefined;
  private building: Promise<void> | undefined;

  constructor(
    readonly every = 1000,
    private readonly maxTotals = 2000,
  ) {}

  drop(): void {
    this.generation++;
    this.anchorGeneration++;
    this.totals.clear();
    this.anchors = undefined;
  }

  /** Stock changed, nothing else: values that depend on stock go. */
  dropStock(): void {
    this.generation++;
    for (const key of [...this.totals.keys()]) if (key.startsWith('stock:')) this.totals.delete(key);
  }

  async total(key: string, count: () => Promise<number>): Promise<number> {
    return this.remember(key, count);
  }

  /** A value of a filter set (a total, the facets), computed once until a write. */
  async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.totals.get(key);
    if (hit !== undefined) return hit as T;
    const generation = this.generation;
    const n = await compute();
    if (generation === this.generation) {
      if (this.totals.size >= this.maxTotals) this.totals.delete(this.totals.keys().next().value as string);
      this.totals.set(key, n);
    }
    return n;
  }

  /**
   * The anchor at or before `offset` in the newest-first list and the rows to skip after it; undefined
   * when the offset is shallow or the anchors are not built yet (then `build` starts, once, in the
   * background, and this request reads by OFFSET).
   */
  anchorFor(offset: number, build: () => Promise<Anchor[]>): { anchor: Anchor; skip: number } | undefined {
    if (offset < this.every) return undefined;
    if (this.anchors) {
      const k = Math.floor(offset / this.every);
      const anchor = this.anchors[k];
      return anchor ? { anchor, skip: offset - k * this.every } : undefined;
    }
    if (!this.building) {
      const generation = this.anchorGeneration;
      this.building = build()
        .then((anchors) => {
          if (generation === this.anchorGeneration) this.anchors = anchors;
        })
        .catch(() => {}) // the list keeps reading by OFFSET
        .finally(() => {
          this.building = undefined;
        });
    }
    return undefined;
  }

  /** For tests: resolves once anchors being built are in. */
  async settled(): Promise<void> {
    await this.building;
  }
}
