import type { ProductCardData } from '@store/shared';
import type { GridState } from './grid-logic.ts';

/**
 * The home grid as the shopper left it, kept for the browser tab's session (sessionStorage), so Back and
 * reload show the same products in the same order at the same place. Products are stored once (the pool);
 * the queue and the shown items name them by id.
 */
export interface GridSession {
  grid: GridState<ProductCardData>;
  /** The next page of the catalogue to read, the page count, and the catalogue's total when page 1 came. */
  nextPage: number;
  pages: number;
  total: number;
}

interface Stored {
  v: 1;
  at: number;
  pool: ProductCardData[];
  queue: string[];
  items: [string, number][];
  cycle: number;
  nextPage: number;
  pages: number;
  total: number;
}

/** How long a kept grid is shown again (older: prices and stock may have moved on; start afresh). */
export const GRID_SESSION_MAX_AGE_MS = 30 * 60_000;

export function serializeGrid(s: GridSession, now = Date.now()): string {
  const stored: Stored = {
    v: 1,
    at: now,
    pool: s.grid.pool,
    queue: s.grid.queue.map((p) => p._id),
    items: s.grid.items.map((i) => [i.product._id, Number(i.key.slice(i.key.lastIndexOf(':') + 1)) || 0]),
    cycle: s.grid.cycle,
    nextPage: s.nextPage,
    pages: s.pages,
    total: s.total,
  };
  return JSON.stringify(stored);
}

/** The kept grid, or undefined when there is none, it is too old, or it does not read back whole. */
export function deserializeGrid(raw: string | null, now = Date.now()): GridSession | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as Stored;
    if (s?.v !== 1 || !Array.isArray(s.pool) || !Array.isArray(s.queue) || !Array.isArray(s.items)) return undefined;
    if (typeof s.at !== 'number' || now - s.at > GRID_SESSION_MAX_AGE_MS || now < s.at) return undefined;
    const byId = new Map(s.pool.map((p) => [p._id, p]));
    const queue = s.queue.map((id) => byId.get(id));
    const items = s.items.map(([id, cycle]) => {
      const product = byId.get(id);
      return product ? { key: `${id}:${cycle}`, product } : undefined;
    });
    if (queue.some((p) => !p) || items.some((i) => !i)) return undefined;
    return {
      grid: {
        pool: s.pool,
        queue: queue as ProductCardData[],
        items: items as { key: string; product: ProductCardData }[],
        cycle: s.cycle,
      },
      nextPage: s.nextPage,
      pages: s.pages,
      total: s.total,
    };
  } catch {
    return undefined;
  }
}

/** Whether more pages should be read now: the queue holds less than a batch and pages are left. */
export function wantsMore(queueLength: number, batch: number, nextPage: number, lastPage: number): boolean {
  return nextPage <= lastPage && queueLength < batch;
}
