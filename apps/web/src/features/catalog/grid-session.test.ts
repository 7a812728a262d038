import type { ProductCardData } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { GRID_SESSION_MAX_AGE_MS, deserializeGrid, serializeGrid, wantsMore } from './grid-session.ts';

const card = (id: string): ProductCardData => ({
  _id: id,
  slug: `p-${id}`,
  name: `Product ${id}`,
  image: '',
  price: 1,
  fromPrice: 1,
  rating: 0,
  numReviews: 0,
  inStock: true,
});

describe('the home grid kept for the session', () => {
  const a = card('a');
  const b = card('b');
  const c = card('c');
  const session = {
    grid: {
      pool: [a, b, c],
      queue: [c],
      items: [
        { key: 'b:0', product: b },
        { key: 'a:0', product: a },
        { key: 'b:1', product: b },
      ],
      cycle: 1,
    },
    nextPage: 3,
    pages: 5,
    total: 110,
  };

  it('reads back exactly: the same products in the same order, cycles kept', () => {
    const back = deserializeGrid(serializeGrid(session, 1000), 2000);
    expect(back).toEqual(session);
  });

  it('starts afresh when the kept grid is too old, damaged or missing', () => {
    const raw = serializeGrid(session, 1000);
    expect(deserializeGrid(raw, 1000 + GRID_SESSION_MAX_AGE_MS + 1)).toBeUndefined();
    expect(deserializeGrid('{"v":1', 1000)).toBeUndefined();
    expect(deserializeGrid(null)).toBeUndefined();
    const broken = JSON.parse(raw);
    broken.queue = ['zzz'];
    expect(deserializeGrid(JSON.stringify(broken), 1000)).toBeUndefined();
  });

  it('reads another page only when less than a batch is left and pages remain', () => {
    expect(wantsMore(0, 24, 2, 5)).toBe(true);
    expect(wantsMore(23, 24, 2, 5)).toBe(true);
    expect(wantsMore(24, 24, 2, 5)).toBe(false);
    expect(wantsMore(0, 24, 6, 5)).toBe(false);
  });
});
