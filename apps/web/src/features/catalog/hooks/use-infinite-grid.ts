import { useQueryClient } from '@tanstack/react-query';
import type { ProductSummary } from '@store/shared';
import { GRID_RECYCLE_DELAY_MS } from '@store/shared';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { productListQuery } from '../api.ts';
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

type State = GridState<ProductSummary>;

/**
 * The spec loads every page; on a large catalogue that is thousands of requests for a grid nobody
 * scrolls to the end of. The home grid pools at most this many pages (960 products); search and
 * /page/{n} still reach every product. See docs/decisions/005-home-grid-page-cap.md.
 */
export const HOME_MAX_PAGES = 40;
const seed = () => Math.floor(Math.random() * 2 ** 32);

/**
 * The home grid: page 1, then every later page in sequence (pooled without duplicates);
 * shuffled batches appended past 75% of the page; reshuffled and recycled 275 ms after running out,
 * up to 3× the product count; nothing is appended while the pointer is held down.
 */
export function useInfiniteGrid() {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(
    gridReducer as (s: State, a: GridAction<ProductSummary>) => State,
    undefined,
    () => emptyGrid<ProductSummary>(),
  );
  const [allLoaded, setAllLoaded] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [loadingFirst, setLoadingFirst] = useState(true);

  // Pages in sequence; each is cached, so coming back to the home page is instant.
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        let page = 1;
        let pages = 1;
        do {
          const data = await queryClient.fetchQuery({ ...productListQuery({ pageNumber: page }), staleTime: 60_000 });
          if (cancelled) return;
          pages = data.pages;
          dispatch({ type: 'add', products: data.products, seed: seed() });
          if (page === 1) {
            setLoadingFirst(false);
            dispatch({ type: 'take', size: batchSizeForWidth(window.innerWidth) });
          }
          page += 1;
        } while (page <= Math.min(pages, HOME_MAX_PAGES));
        if (!cancelled) setAllLoaded(true);
      } catch (err) {
        if (!cancelled) {
          setError(err as Error);
          setLoadingFirst(false);
          setAllLoaded(true);
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [queryClient]);

  const stateRef = useRef(state);
  const allLoadedRef = useRef(allLoaded);
  const paused = useRef(false);
  const recycleTimer = useRef<number | undefined>(undefined);
  stateRef.current = state;
  allLoadedRef.current = allLoaded;

  const takenAt = useRef(-1);
  const check = useCallback(() => {
    if (paused.current) return;
    const s = stateRef.current;
    if (s.items.length === 0) return;
    const doc = document.documentElement;
    // a batch asked for and not on the page yet: the page height read now is stale (one batch per look)
    if (takenAt.current === s.items.length) return;
    if (!pastLoadPoint(window.scrollY, window.innerHeight, doc.scrollHeight)) return;
    if (s.queue.length > 0) {
      takenAt.current = s.items.length;
      dispatch({ type: 'take', size: batchSizeForWidth(window.innerWidth) });
    } else if (canRecycle(s, allLoadedRef.current) && recycleTimer.current === undefined) {
      recycleTimer.current = window.setTimeout(() => {
        recycleTimer.current = undefined;
        if (paused.current) return; // pointer released later re-checks
        dispatch({ type: 'recycle', seed: seed() });
        dispatch({ type: 'take', size: batchSizeForWidth(window.innerWidth) });
      }, GRID_RECYCLE_DELAY_MS);
    }
  }, []);

  // Scrolling, resizing and pointer hold.
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        check();
      });
    };
    const hold = () => {
      paused.current = true;
    };
    const release = () => {
      if (!paused.current) return;
      paused.current = false;
      onScroll();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
    window.addEventListener('pointerdown', hold, { passive: true });
    window.addEventListener('pointerup', release, { passive: true });
    window.addEventListener('pointercancel', release, { passive: true });
    window.addEventListener('blur', release);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(recycleTimer.current);
      recycleTimer.current = undefined;
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      window.removeEventListener('pointerdown', hold);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      window.removeEventListener('blur', release);
    };
  }, [check]);

  // After each change (a batch shown, a page pooled) the page may still be short: look again.
  useEffect(() => {
    takenAt.current = -1; // committed: any batch asked for is on the page now
    const frame = requestAnimationFrame(check);
    return () => cancelAnimationFrame(frame);
  }, [state, allLoaded, check]);

  return {
    items: state.items,
    productCount: state.pool.length,
    loading: loadingFirst,
    error,
    finished: isFinished(state, allLoaded),
    empty: allLoaded && !error && state.pool.length === 0,
  };
}
