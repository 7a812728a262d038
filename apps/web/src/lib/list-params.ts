import { FILTER_DEBOUNCE_MS } from '@store/shared';
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useDebounced } from './use-debounced.ts';

export type SortDir = 'asc' | 'desc';
export interface ListSort<S extends string> {
  by: S;
  dir: SortDir;
}

/** The page, sort and filters an admin list's address names, and what changing them writes there. */
export interface ListParams<F extends Record<string, string>, S extends string> {
  page: number;
  sort: ListSort<S>;
  /** The filters as typed (the inputs' values). */
  filters: F;
  /** The filters once typing paused: what the list is asked for. */
  applied: F;
  setFilter: (key: keyof F, value: string) => void;
  /** A column heading's click: that column in its natural direction, or the other direction if it is already sorted by. */
  toggleSort: (by: S) => void;
  /** A sort picker's choice (phones, where there are no column headings). */
  setSort: (sort: ListSort<S>) => void;
  /** The address of another page of the same list (same filters and sort). */
  href: (page: number) => string;
}

/** The filters an address names: each known key's value, the rest left at its empty value. */
export function filtersFromParams<F extends Record<string, string>>(empty: F, search: URLSearchParams): F {
  const filters = { ...empty };
  for (const key of Object.keys(empty) as (keyof F & string)[]) {
    const value = search.get(key);
    if (value !== null) (filters as Record<string, string>)[key] = value;
  }
  return filters;
}

/**
 * The address of a list: its non-empty filters, then its sort when it is not the default, then its page
 * when it is not the first, so a list can be shared, reloaded and gone back to as it was.
 */
export function listSearch<F extends Record<string, string>, S extends string>(
  filters: F,
  sort: ListSort<S>,
  defaultSort: ListSort<S>,
  page: number,
): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v.trim() !== '') out.set(k, v);
  if (sort.by !== defaultSort.by || sort.dir !== defaultSort.dir) {
    out.set('sortBy', sort.by);
    out.set('order', sort.dir);
  }
  if (page > 1) out.set('page', String(page));
  return out;
}

/** The sort an address names, if it names a known one; a column named without a direction runs its natural way. */
export function sortFromParams<S extends string>(
  search: URLSearchParams,
  sorts: readonly S[],
  defaultSort: ListSort<S>,
  naturalDir: (by: S) => SortDir,
): ListSort<S> {
  const by = search.get('sortBy') as S | null;
  if (by === null || !sorts.includes(by)) return defaultSort;
  const dir = search.get('order');
  return { by, dir: dir === 'asc' || dir === 'desc' ? dir : naturalDir(by) };
}

/**
 * An admin list whose filters, sort and page live in the address: typing a filter writes it there once
 * typing pauses (replacing the entry and going back to page 1), a sort is a new entry, a page a link.
 * `parse` may refuse values the list cannot take (a yes/no filter given "maybe").
 */
export function useListParams<F extends Record<string, string>, S extends string>(o: {
  empty: F;
  sorts: readonly S[];
  defaultSort: ListSort<S>;
  /** The direction a column runs when first clicked: dates and amounts newest/largest first, text A to Z. */
  naturalDir: (by: S) => SortDir;
  parse?: (search: URLSearchParams) => F;
}): ListParams<F, S> {
  const [search, setSearch] = useSearchParams();
  const { pathname } = useLocation();
  const parse = o.parse ?? ((s: URLSearchParams) => filtersFromParams(o.empty, s));
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const sort = sortFromParams(search, o.sorts, o.defaultSort, o.naturalDir);
  const [filters, setFilters] = useState<F>(() => parse(search));
  const applied = useDebounced(filters, FILTER_DEBOUNCE_MS);

  // the applied filters go into the address; a change of filters starts again at page 1
  const fromUrl = listSearch(parse(search), o.defaultSort, o.defaultSort, 1).toString();
  const wanted = listSearch(applied, o.defaultSort, o.defaultSort, 1).toString();
  useEffect(() => {
    if (wanted !== fromUrl) setSearch(listSearch(applied, sort, o.defaultSort, 1), { replace: true });
    // only a change of the applied filters writes the address
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted]);

  // going back or forward to another address of the list shows its filters
  useEffect(() => {
    if (fromUrl !== wanted) setFilters(parse(search));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fromUrl]);

  return {
    page,
    sort,
    filters,
    applied: fromUrl === wanted ? applied : parse(search),
    setFilter: (key, value) => setFilters((f) => ({ ...f, [key]: value })),
    toggleSort: (by) => {
      const dir = sort.by === by ? (sort.dir === 'asc' ? 'desc' : 'asc') : o.naturalDir(by);
      setSearch(listSearch(applied, { by, dir }, o.defaultSort, 1));
    },
    setSort: (next) => setSearch(listSearch(applied, next, o.defaultSort, 1)),
    href: (n) => {
      const s = listSearch(applied, sort, o.defaultSort, n).toString();
      return s ? `${pathname}?${s}` : pathname;
    },
  };
}
