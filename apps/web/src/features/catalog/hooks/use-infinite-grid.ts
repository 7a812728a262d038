import { useQueryClient } from '@tanstack/react-query';
import type { ProductCardData } from '@store/shared';
import { GRID_RECYCLE_DELAY_MS } from '@store/shared';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { useNavigationType } from 'react-router';
import { cardListQuery } from '../api.ts';
import {
  batchSizeForWidth,
  canRecycle,
  emptyGrid,
  gridReducer,
  isFinished,
  pastLoadPoint,
  type GridAction,
  type GridState,
} from '../grid-logic.ts';
import { deserializeGrid, serializeGrid, wantsMore } from '../grid-session.ts';

type State = GridState<ProductCardData>;

/**
 * The spec loads every page; on a large catalogue that is thousands of requests for a grid nobody
 * scrolls to the end of. The home grid pools at most this many pages (960 products); search and
 * /page/{n} still reach every product. See docs/decisions/005-home-grid-page-cap.md.
 */
export const HOME_MAX_PAGES = 40;
const seed = () => Math.floor(Math.random() * 2 ** 32);

const GRID_KEY = 'home-grid';
const SCROLL_KEY = 'home-grid-scroll';

function readSession(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeSession(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // storage full or blocked: the grid still works, it just starts afresh next time
  }
}

const idle = (fn: () => void): (() => void) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(fn, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(fn, 200);
  return () => window.clearTimeout(id);
};

/**
 * The home grid: page 1, then the later pages in sequence (pooled without duplicates), each read only when
 * what is left to show runs short, while the browser is idle or at once when the shopper nears the end;
 * shuffled batches appended past 75% of the page; reshuffled and recycled 275 ms after running out, up to
 * 3× the product count; nothing is appended while the pointer is held down. Pages carry the cards' fields
 * only. The order, what is shown and the scroll position are kept for the tab's session: Back and reload
 * come back to the same place.
 */
export function useInfiniteGrid() {
  const queryClient = useQueryClient();
  const navigationType = useNavigationType();
  const [restored] = useState(() => deserializeGrid(readSession(GRID_KEY)));
  const [state, dispatch] = useReducer(
    gridReducer as (s: State, a: GridAction<ProductCardData>) => State,
    undefined,
    () => restored?.grid ?? emptyGrid<ProductCardData>(),
  );
  const [meta, setMeta] = useState(() => ({
    nextPage: restored?.nextPage ?? 1,
    pages: restored?.pages ?? 1,
    total: restored?.total ?? 0,
  }));
  const lastPage = Math.min(meta.pages, HOME_MAX_PAGES);
  const allLoaded = meta.nextPage > lastPage;
  const [error, setError] = useState<Error | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const stateRef = useRef(state);
  const metaRef = useRef(meta);
  const allLoadedRef = useRef(allLoaded || error !== null);
  const loading = useRef(false);
  stateRef.current = state;
  metaRef.current = meta;
  allLoadedRef.current = allLoaded || error !== null;

  // one page at a time, in sequence; each is cached, so a page read before comes from memory
  const loadNext = useCallback(async () => {
    if (loading.current || allLoadedRef.current) return;
    loading.current = true;
    setLoadingMore(true);
    const page = metaRef.current.nextPage;
    try {
      const data = await queryClient.fetchQuery({ ...cardListQuery(page), staleTime: 60_000 });
      dispatch({ type: 'add', products: data.products, seed: seed() });
      if (page === 1) dispatch({ type: 'take', size: batchSizeForWidth(window.innerWidth) });
      setMeta((m) => ({
        nextPage: page + 1,
        pages: data.pages,
        // the count shown is the catalogue's (as far as the grid reaches), not what has arrived so far
        total: page === 1 ? Math.min(data.total, HOME_MAX_PAGES * Math.max(1, data.products.length)) : m.total,
      }));
    } catch (err) {
      setError(err as Error);
    } finally {
      loading.current = false;
      setLoadingMore(false);
    }
  }, [queryClient]);

  // page 1, unless the session's grid came back
  useEffect(() => {
    if (!restored) void loadNext();
  }, [restored, loadNext]);

  // Back, forward and reload return to where the shopper was; a link to the home page starts at the top
  useLayoutEffect(() => {
    if (!restored || navigationType !== 'POP') return;
    const y = Number(readSession(SCROLL_KEY)) || 0;
    const until = performance.now() + 2_000;
    let stopped = false;
    const go = () => {
      if (stopped) return;
      window.scrollTo(0, y);
      // the carousel above may still be settling (its code and images arrive on their own): try again each
      // frame for up to 2 s until the page is tall enough, unless the shopper scrolls meanwhile
      if (Math.abs(window.scrollY - y) > 2 && performance.now() < until) frame = requestAnimationFrame(go);
    };
    const stop = () => {
      stopped = true;
    };
    const events = ['wheel', 'touchstart', 'keydown'] as const;
    for (const e of events) window.addEventListener(e, stop, { once: true, passive: true });
    let frame = requestAnimationFrame(go);
    window.scrollTo(0, y);
    return () => {
      cancelAnimationFrame(frame);
      for (const e of events) window.removeEventListener(e, stop);
    };
    // only when the grid first shows
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // the grid as it is now, for Back and reload
  useEffect(() => {
    if (state.pool.length === 0) return;
    const t = window.setTimeout(() => writeSession(GRID_KEY, serializeGrid({ grid: state, ...meta })), 100);
    return () => window.clearTimeout(t);
  }, [state, meta]);

  const paused = useRef(false);
  const recycleTimer = useRef<number | undefined>(undefined);
  const cancelIdle = useRef<(() => void) | undefined>(undefined);

  const takenAt = useRef(-1);
  const check = useCallback(() => {
    if (paused.current) return;
    const s = stateRef.current;
    if (s.items.length === 0) return;
    const doc = document.documentElement;
    const batch = batchSizeForWidth(window.innerWidth);
    const near = pastLoadPoint(window.scrollY, window.innerHeight, doc.scrollHeight);
    const m = metaRef.current;
    // what is left to show runs short: the next page, now if the shopper is at the end, else when idle
    if (!allLoadedRef.current && wantsMore(s.queue.length, batch, m.nextPage, Math.min(m.pages, HOME_MAX_PAGES))) {
      if (near && s.queue.length === 0) void loadNext();
      else if (!cancelIdle.current && !loading.current)
        cancelIdle.current = idle(() => {
          cancelIdle.current = undefined;
          void loadNext();
        });
    }
    // a batch asked for and not on the page yet: the page height read now is stale (one batch per look)
    if (takenAt.current === s.items.length) return;
    if (!near) return;
    if (s.queue.length > 0) {
      takenAt.current = s.items.length;
      dispatch({ type: 'take', size: batch });
    } else if (canRecycle(s, allLoadedRef.current) && recycleTimer.current === undefined) {
      recycleTimer.current = window.setTimeout(() => {
        recycleTimer.current = undefined;
        if (paused.current) return; // pointer released later re-checks
        dispatch({ type: 'recycle', seed: seed() });
        dispatch({ type: 'take', size: batchSizeForWidth(window.innerWidth) });
      }, GRID_RECYCLE_DELAY_MS);
    }
  }, [loadNext]);

  // Scrolling, resizing and pointer hold; the scroll position is kept for Back and reload.
  useEffect(() => {
    let frame = 0;
    let saveTimer: number | undefined;
    const onScroll = () => {
      window.clearTimeout(saveTimer);
      saveTimer = window.setTimeout(() => writeSession(SCROLL_KEY, String(Math.round(window.scrollY))), 100);
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        check();
      });
    };
    const keep = () => writeSession(SCROLL_KEY, String(Math.round(window.scrollY)));
    // a press may open a product: the place is kept before the next page scrolls to its top
    const hold = () => {
      paused.current = true;
      keep();
    };
    const release = () => {
      if (!paused.current) return;
      paused.current = false;
      onScroll();
    };
    window.addEventListener('keydown', keep, { passive: true });
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
    window.addEventListener('pointerdown', hold, { passive: true });
    window.addEventListener('pointerup', release, { passive: true });
    window.addEventListener('pointercancel', release, { passive: true });
    window.addEventListener('blur', release);
    window.addEventListener('pagehide', keep);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(saveTimer);
      window.clearTimeout(recycleTimer.current);
      recycleTimer.current = undefined;
      cancelIdle.current?.();
      cancelIdle.current = undefined;
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      window.removeEventListener('pointerdown', hold);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      window.removeEventListener('blur', release);
      window.removeEventListener('pagehide', keep);
      window.removeEventListener('keydown', keep);
    };
  }, [check]);

  // After each change (a batch shown, a page pooled) the page may still be short: look again.
  useEffect(() => {
    takenAt.current = -1; // committed: any batch asked for is on the page now
    const frame = requestAnimationFrame(check);
    return () => cancelAnimationFrame(frame);
  }, [state, allLoaded, check]);

  const finishedLoading = allLoaded || error !== null;
  return {
    items: state.items,
    productCount: meta.total,
    loading: state.items.length === 0 && !finishedLoading,
    /** A later page is on its way and nothing is left to show: the grid shows placeholders. */
    waiting: loadingMore && state.queue.length === 0 && state.items.length > 0,
    error,
    finished: isFinished(state, finishedLoading),
    empty: finishedLoading && !error && state.pool.length === 0,
  };
}
