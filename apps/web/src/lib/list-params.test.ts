import { describe, expect, it } from 'vitest';
import { filtersFromParams, listSearch, sortFromParams } from './list-params.ts';

const DEFAULT = { by: 'date', dir: 'desc' } as const;
const SORTS = ['date', 'total', 'status'] as const;
const natural = (by: string) => (by === 'status' ? 'asc' : 'desc');

describe("an admin list's address", () => {
  it('holds the non-empty filters, a sort other than the default, and a page after the first', () => {
    expect(listSearch({ username: ' ', paid: '' }, DEFAULT, DEFAULT, 1).toString()).toBe('');
    expect(listSearch({ username: 'ada', paid: 'yes' }, { by: 'total', dir: 'asc' }, DEFAULT, 3).toString()).toBe(
      'username=ada&paid=yes&sortBy=total&order=asc&page=3',
    );
    // the default column the other way round is a sort too
    expect(listSearch({}, { by: 'date', dir: 'asc' }, DEFAULT, 1).toString()).toBe('sortBy=date&order=asc');
  });

  it('reads back only a known sort; a column without a direction runs its natural way', () => {
    const read = (q: string) => sortFromParams(new URLSearchParams(q), SORTS, DEFAULT, natural);
    expect(read('')).toEqual(DEFAULT);
    expect(read('sortBy=password&order=asc')).toEqual(DEFAULT);
    expect(read('sortBy=total&order=asc')).toEqual({ by: 'total', dir: 'asc' });
    expect(read('sortBy=status')).toEqual({ by: 'status', dir: 'asc' });
    expect(read('sortBy=total&order=sideways')).toEqual({ by: 'total', dir: 'desc' });
  });

  it('reads back the filters it knows, leaving the rest empty', () => {
    const empty = { username: '', paid: '' };
    expect(filtersFromParams(empty, new URLSearchParams('username=ada&other=x&page=2'))).toEqual({
      username: 'ada',
      paid: '',
    });
  });
});
