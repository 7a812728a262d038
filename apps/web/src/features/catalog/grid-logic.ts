import { GRID_BATCH, GRID_BATCH_DEFAULT, GRID_RECYCLE_CAP, GRID_SCROLL_LOAD_RATIO, mulberry32 } from '@store/shared';

/**
 * Pure rules of the home page's infinite grid: products are pooled without
 * duplicates, shuffled, shown in batches sized by the viewport, and recycled in a fresh
 * order once exhausted, up to GRID_RECYCLE_CAP times the product count.
 */

export interface Identified {
  _id: string;
}

export interface GridItem<P> {
  /** Unique per appearance: the same product comes back in later cycles. */
  key: string;
  product: P;
}

export interface GridState<P extends Identified> {
  /** Every distinct product seen so far, in arrival order. */
  pool: P[];
  /** Products of the current cycle not shown yet, already shuffled. */
  queue: P[];
  items: GridItem<P>[];
  cycle: number;
}

export function emptyGrid<P extends Identified>(): GridState<P> {
  return { pool: [], queue: [], items: [], cycle: 0 };
}

/** Batch size for a viewport width: <400 → 8, <768 → 12, <1200 → 16, else 24. */
export function batchSizeForWidth(width: number): number {
  for (const step of GRID_BATCH) if (width < step.maxWidth) return step.size;
  return GRID_BATCH_DEFAULT;
}

/** True once the bottom of the viewport is past the load ratio (75%) of the page. */
export function pastLoadPoint(scrollTop: number, viewportHeight: number, pageHeight: number): boolean {
  if (pageHeight <= 0) return true;
  return (scrollTop + viewportHeight) / pageHeight >= GRID_SCROLL_LOAD_RATIO;
}

/** Products of `incoming` not already in `existing` (by _id, and once each). */
export function newUnique<P extends Identified>(existing: readonly P[], incoming: readonly P[]): P[] {
  const seen = new Set(existing.map((p) => p._id));
  const out: P[] = [];
  for (const p of incoming) {
    if (seen.has(p._id)) continue;
    seen.add(p._id);
    out.push(p);
  }
  return out;
}

/** The shared seeded generator, so the reducer stays pure and tests are repeatable. */
export const seededRandom = mulberry32;

/** Fisher–Yates shuffle into a new array. */
export function shuffle<T>(input: readonly T[], random: () => number = Math.random): T[] {
  const a = [...input];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

/** Most items the grid may ever hold: GRID_RECYCLE_CAP × the distinct products. */
export function recycleCap(productCount: number): number {
  return productCount * GRID_RECYCLE_CAP;
}

/** Pools newly arrived products and mixes them into what is left of the current cycle. */
export function addProducts<P extends Identified>(
  state: GridState<P>,
  incoming: readonly P[],
  seed: number,
): GridState<P> {
  const fresh = newUnique(state.pool, incoming);
  if (fresh.length === 0) return state;
  return {
    ...state,
    pool: [...state.pool, ...fresh],
    queue: shuffle([...state.queue, ...fresh], seededRandom(seed)),
  };
}

/** Shows up to `size` more products from the queue, never past the recycle cap. */
export function takeBatch<P extends Identified>(state: GridState<P>, size: number): GridState<P> {
  const room = recycleCap(state.pool.length) - state.items.length;
  const n = Math.max(0, Math.min(size, room, state.queue.length));
  if (n === 0) return state;
  const shown = state.queue.slice(0, n).map((product) => ({ key: `${product._id}:${state.cycle}`, product }));
  return { ...state, queue: state.queue.slice(n), items: [...state.items, ...shown] };
}

/** The current cycle is used up, every page is in, and the cap leaves room: time to recycle. */
export function canRecycle<P extends Identified>(state: GridState<P>, allLoaded: boolean): boolean {
  return (
    allLoaded && state.queue.length === 0 && state.pool.length > 0 && state.items.length < recycleCap(state.pool.length)
  );
}

/** True when nothing more will ever be shown. */
export function isFinished<P extends Identified>(state: GridState<P>, allLoaded: boolean): boolean {
  return allLoaded && state.pool.length > 0 && state.queue.length === 0 && !canRecycle(state, allLoaded);
}

/** Starts a new cycle once the current one is used up: every product again, in a new random order. */
export function recycle<P extends Identified>(state: GridState<P>, seed: number): GridState<P> {
  // Only once the cycle is used up: a late second request must not drop what is left of it.
  if (state.pool.length === 0 || state.queue.length > 0) return state;
  let queue = shuffle(state.pool, seededRandom(seed));
  // Avoid showing the same product twice in a row across the cycle boundary.
  const last = state.items[state.items.length - 1]?.product._id;
  if (queue.length > 1 && queue[0]?._id === last) queue = [...queue.slice(1), queue[0] as P];
  return { ...state, queue, cycle: state.cycle + 1 };
}

export type GridAction<P extends Identified> =
  | { type: 'add'; products: readonly P[]; seed: number }
  | { type: 'take'; size: number }
  | { type: 'recycle'; seed: number };

export function gridReducer<P extends Identified>(state: GridState<P>, action: GridAction<P>): GridState<P> {
  switch (action.type) {
    case 'add':
      return addProducts(state, action.products, action.seed);
    case 'take':
      return takeBatch(state, action.size);
    case 'recycle':
      return recycle(state, action.seed);
  }
}
