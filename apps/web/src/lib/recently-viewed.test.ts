import { describe, expect, it } from 'vitest';
import { parseViewed, rememberViewed, RECENTLY_VIEWED_MAX, type ViewedProduct } from './recently-viewed.ts';

const p = (n: number): ViewedProduct => ({ _id: `id${n}`, slug: `p-${n}`, name: `P ${n}`, image: `/i/${n}.webp` });

describe('recently viewed', () => {
  it('puts the last product viewed first, once, and keeps a bounded list', () => {
    let list: ViewedProduct[] = [];
    for (let i = 1; i <= RECENTLY_VIEWED_MAX + 2; i++) list = rememberViewed(list, p(i));
    expect(list).toHaveLength(RECENTLY_VIEWED_MAX);
    expect(list[0]).toEqual(p(RECENTLY_VIEWED_MAX + 2));
    list = rememberViewed(list, p(5));
    expect(list[0]).toEqual(p(5));
    expect(list.filter((x) => x._id === 'id5')).toHaveLength(1);
  });
  it('reads back only well-formed entries', () => {
    expect(parseViewed('nope')).toEqual([]);
    expect(parseViewed([p(1), { _id: 'x' }, null, { ...p(2), price: 3 }])).toEqual([p(1), p(2)]);
  });
});
