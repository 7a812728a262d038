import { describe, expect, it } from 'vitest';
import { StatementNames } from './prepared-statements.ts';

describe('StatementNames', () => {
  it('names a text the second time it is seen, and keeps that name', () => {
    const names = new StatementNames();
    expect(names.nameOf('select 1')).toBeUndefined();
    const name = names.nameOf('select 1');
    expect(name).toMatch(/^store_\d+$/);
    expect(names.nameOf('select 1')).toBe(name);
    expect(names.nameOf('select 2')).toBeUndefined();
    const other = names.nameOf('select 2');
    expect(other).toMatch(/^store_\d+$/);
    expect(other).not.toBe(name);
    expect(names.size).toBe(2);
  });

  it('names no more than its bound; the texts named before keep their names', () => {
    const names = new StatementNames(2);
    for (const text of ['a', 'a', 'b', 'b', 'c', 'c', 'c']) names.nameOf(text);
    expect(names.size).toBe(2);
    expect(names.nameOf('a')).toBeDefined();
    expect(names.nameOf('b')).toBeDefined();
    expect(names.nameOf('c')).toBeUndefined();
  });

  it('with a bound of 0 runs everything unnamed (DB_PREPARED_STATEMENTS=false)', () => {
    const names = new StatementNames(0);
    for (let i = 0; i < 5; i++) expect(names.nameOf('select 1')).toBeUndefined();
    expect(names.size).toBe(0);
  });

  it('forgets the texts it has counted once its count is full, so ever-new texts cannot grow it', () => {
    const names = new StatementNames(100, 3);
    for (const text of ['a', 'b', 'c']) names.nameOf(text);
    // the count is full: the next new text empties it, so 'a' is new again
    names.nameOf('d');
    expect(names.nameOf('a')).toBeUndefined();
    expect(names.nameOf('a')).toMatch(/^store_\d+$/);
    expect(names.nameOf('d')).toMatch(/^store_\d+$/);
  });
});
