import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { productListQuerySchema } from '@store/shared';
import { listProducts, loadFacetTable } from './catalog.service.ts';
import { FacetIndex } from './facet-index.ts';

let t: TestContext;

// The facet table sorts a page of few matches itself (by the database's ranks of names and dates, and its
// own prices and ratings). Every page, every sort, either way, must be the database's own page: ties of
// every kind (one name in several cases, one price, one rating with more or fewer reviews, one moment)
// and names whose order depends on the collation.
describe('a page of few matches sorted by the facet table', () => {
  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const lamps = await createCategory(db, { name: 'Lamps', slug: 'lamps' });
    const other = await createCategory(db, { name: 'Other', slug: 'other' });
    const names = ['Lamp', 'lamp', 'LAMP', 'a lamp', 'alamp', 'Éclair lamp', 'eclair lamp', 'item 10', 'item 9', 'Zed'];
    const t0 = Date.now();
    for (let i = 0; i < 40; i++) {
      await createProduct(db, {
        name: names[i % names.length]!,
        brand: i % 3 === 0 ? 'Glow' : 'glow',
        categoryId: i % 4 === 3 ? other.id : lamps.id,
        priceCents: [999, 1999, 1999, 500][i % 4]!,
        rating: [4.5, 4.5, 3, 0, 4.25][i % 5]!,
        numReviews: [2, 7, 7, 0][i % 4]!,
        countInStock: i % 6 === 0 ? 0 : 3,
        // moments shared by several products
        createdAt: new Date(t0 - Math.floor(i / 3) * 1000),
      });
    }
  });
  afterAll(async () => t?.close());

  // few matches are listed by the count and sorted; with a lower bound for "few", more matches than it
  // are sorted in one pass over the rows (topOf), as a large shop's broad filters are
  it.each([
    ['listed matches', undefined],
    ['one pass over the rows', 3],
  ])('gives the same pages as the database for every sort and order: %s', async (_, few) => {
    const db = t.database.db;
    const index = new FacetIndex(() => loadFacetTable(db, 7, few));
    index.current(false);
    await index.settled();
    const table = index.current(false)!;
    expect(table.sortable).toBe(true); // the pages below come from the table, not from SQL
    expect(table.counts({}).matches === undefined).toBe(few !== undefined);
    let compared = 0;
    for (const filter of [{ category: 'lamps' }, { brand: 'glow', inStock: 'true' }, { minPrice: '9' }]) {
      for (const sortBy of [undefined, 'newest', 'name', 'price', 'rating']) {
        for (const order of [undefined, 'asc', 'desc']) {
          for (const pageNumber of ['1', '2', '3']) {
            const raw = { ...filter, sortBy, order, pageSize: '7', pageNumber };
            const q = productListQuerySchema.parse(raw);
            const byTable = await listProducts(db, q, undefined, undefined, false, index);
            const bySql = await listProducts(db, q);
            expect(byTable, JSON.stringify(raw)).toEqual(bySql);
            compared += byTable.products.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
