import { describe, expect, it } from 'vitest';
import { similarity, suggestedKeyword, trigrams } from './suggestion.ts';

describe('the word a typo search was answered with', () => {
  it('makes trigrams as pg_trgm does', () => {
    expect([...trigrams('cat')].sort()).toEqual(['  c', ' ca', 'at ', 'cat'].sort());
    expect(similarity('headphones', 'headphones')).toBe(1);
    expect(similarity('abc', 'xyz')).toBe(0);
  });

  it('replaces each misspelt word by the closest word of the products found', () => {
    expect(suggestedKeyword('hedphones', ['Studio Headphones', 'Wired Headphones'])).toBe('headphones');
    expect(suggestedKeyword('wirless hedphones', ['Wireless Headphones'])).toBe('wireless headphones');
  });

  it('suggests nothing when nothing changes or nothing is close', () => {
    expect(suggestedKeyword('headphones', ['Studio Headphones'])).toBeUndefined();
    expect(suggestedKeyword('zzzz', ['Studio Headphones'])).toBeUndefined();
    expect(suggestedKeyword('', ['Studio Headphones'])).toBeUndefined();
  });
});
