import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { testDbKind } from '#test/test-db.ts';
import { catalogBuilds } from './background-builds.ts';
import { loadFacetTable, loadKeywordIndex } from './catalog.service.ts';
import type { FacetFilter, FacetSort } from './facet-index.ts';

/**
 * A large shop on PostgreSQL reads its keyword index and facet table in a worker thread. Whatever thread
 * built them, they must answer alike: here the threshold is 0, so every build of this app takes the
 * worker's path on PostgreSQL (and the main thread's on the embedded database, which has no worker path).
 */
describe('the catalogue indexes read in a worker thread', () => {
  let t: TestContext;
  const lines: string[] = [];
  const onPostgres = testDbKind() === 'postgres';

  beforeAll(async () => {
    t = await createTestApp(
      { SEARCH_INDEX_MIN_PRODUCTS: '0', INDEX_WORKER_MIN_PRODUCTS: '0', LOG_LEVEL: 'info' },
      {},
      undefined,
      { logStream: { write: (line) => void lines.push(line) } },
    );
    const db = t.app.db;
    const lamps = await createCategory(db, { name: 'Lamps' });
    const desks = await createCategory(db, { name: 'Desks' });
    for (let i = 0; i < 36; i++)
      await createProduct(db, {
        name: `${['Brass', 'Oak', 'Steel'][i % 3]} ${i % 2 ? 'Lamp' : 'Desk'} ${i}`,
        brand: ['Acme', 'acme', 'Lumen', 'Oakworks'][i % 4],
        categoryId: i % 5 === 0 ? null : i % 2 ? lamps.id : desks.id,
        priceCents: 500 + ((i * 737) % 9000),
        countInStock: i % 6 === 0 ? 0 : 4,
        rating: (i % 11) / 2,
        numReviews: i % 7,
        description: `<p>${'brass '.repeat(i % 3)}${'lamp '.repeat(i % 4)}light for the home</p>`,
        variants: i % 9 === 0 ? [{ name: 'Blue', countInStock: i % 2 }] : [],
      });
    await createProduct(db, { name: 'Brass Lamp draft', status: 'draft' });
  });
  afterAll(async () => t?.close());

  const workerLines = () =>
    lines
      .map((l) => JSON.parse(l) as { msg?: string; index?: string })
      .filter((l) => /worker thread/.test(l.msg ?? ''));

  it('builds the same keyword index as the main thread does', async () => {
    const [built, here] = await Promise.all([t.app.catalogBuilds.keyword(0), loadKeywordIndex(t.app.db, 0, 5)]);
    expect(built?.size).toBe(36); // the draft is not indexed
    expect(here?.size).toBe(36);
    for (const words of [['lamp'], ['brass'], ['brass', 'lamp'], ['oak', 'desk'], ['light'], ['zzz'], ['l']])
      for (const [offset, limit] of [
        [0, 10],
        [5, 7],
        [30, 10],
      ] as const)
        expect(built!.query(words, [], offset, limit), `${words.join(' ')} ${offset}`).toEqual(
          here!.query(words, [], offset, limit),
        );
    expect(workerLines().some((l) => l.index === 'keyword')).toBe(onPostgres);
  });

  it('builds the same facet table as the main thread does: counts, and pages in every sort', async () => {
    const [built, here] = await Promise.all([t.app.catalogBuilds.facets(), loadFacetTable(t.app.db, 4)]);
    expect(built.size).toBe(36);
    expect(built.sortable).toBe(true);
    const filters: FacetFilter[] = [
      {},
      { brands: ['ACME'] },
      { inStock: true },
      { minPriceCents: 2000, maxPriceCents: 7000 },
      { minRating: 3 },
      { brands: ['lumen', 'oakworks'], inStock: true, minPriceCents: 1000 },
    ];
    const sorts: FacetSort[] = [
      { by: 'name', descending: false },
      { by: 'price', descending: true },
      { by: 'rating', descending: true },
      { by: 'createdAt', descending: true },
    ];
    for (const f of filters) {
      const [a, b] = [built.counts(f), here.counts(f)];
      expect(a, JSON.stringify(f)).toEqual(b);
      for (const s of sorts) {
        expect(built.topOf(f, s, 0, 12)).toEqual(here.topOf(f, s, 0, 12));
        if (a.matches) expect(built.pageOf(a.matches, s, 2, 5)).toEqual(here.pageOf(b.matches!, s, 2, 5));
      }
    }
    expect(workerLines().some((l) => l.index === 'facets')).toBe(onPostgres);
  });

  it('serves the shop from them: a search and a filtered list through the API', async () => {
    const get = async (url: string) => (await t.app.inject({ url })).json();
    const sqlSearch = await get('/api/products?keyword=brass%20lamp&pageSize=5');
    await t.app.searchIndex.settled();
    const indexed = await get('/api/products?keyword=brass%20lamp&pageSize=5&pageNumber=1');
    expect(indexed).toEqual(sqlSearch);
    expect(indexed.total).toBeGreaterThan(5);
    const filtered = await get('/api/products?brand=Acme&inStock=true&sortBy=price&order=asc');
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.products.every((p: { brand: string }) => p.brand.toLowerCase() === 'acme')).toBe(true);
  });

  if (onPostgres)
    it('builds on the main thread, saying so once, when the worker thread cannot run', async () => {
      const warnings: string[] = [];
      const builds = catalogBuilds(
        t.database,
        0,
        { info: () => {}, warn: (_obj, msg) => void warnings.push(msg) },
        new URL('./no-such-worker.js', import.meta.url),
      );
      const [index, table] = [await builds.keyword(0), await builds.facets()];
      expect(index?.query(['lamp'], [], 0, 10)).toEqual(
        (await loadKeywordIndex(t.app.db, 0))!.query(['lamp'], [], 0, 10),
      );
      expect(table.counts({ inStock: true })).toEqual((await loadFacetTable(t.app.db)).counts({ inStock: true }));
      expect(warnings).toEqual(['the catalogue index worker thread failed: building on the main thread']);
      await builds.close();
    });

  if (onPostgres)
    it('reports a read the worker could not make (the database refused it) as a failed build', async () => {
      const broken = catalogBuilds({ ...t.database, url: 'postgres://nobody@127.0.0.1:1/none' }, 0, {
        info: () => {},
        warn: () => {},
      });
      await expect(broken.keyword(0)).rejects.toThrow();
      await expect(broken.facets()).rejects.toThrow();
      await broken.close();
    });
});
