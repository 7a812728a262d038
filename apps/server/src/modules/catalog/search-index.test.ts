import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { listProducts, loadKeywordIndex } from './catalog.service.ts';
import {
  KeywordIndex,
  KeywordIndexBuilder,
  SearchIndex,
  lexemesOfQuery,
  mergeSummed,
  scoreOfPositions,
  type IndexedRow,
} from './search-index.ts';

describe('keyword index: the pure parts', () => {
  it('scores a lexeme by the weights of its positions (A 10, B 4, C 2, D or none 1)', () => {
    expect(scoreOfPositions('3A')).toBe(10);
    expect(scoreOfPositions('1A,7B,12,40C')).toBe(10 + 4 + 1 + 2);
    expect(scoreOfPositions('5D,6')).toBe(2);
    expect(scoreOfPositions(undefined)).toBe(1); // a stripped vector: present, no positions
  });

  it('reads the lexemes of a plain prefix query and refuses anything else', () => {
    expect(lexemesOfQuery(`'carri':* & 'home':*`)).toEqual(['carri', 'home']);
    expect(lexemesOfQuery(`'o''brien':*`)).toEqual([`o''brien`]); // kept escaped, as vectors print it
    expect(lexemesOfQuery('')).toEqual([]); // only stop words
    expect(lexemesOfQuery(`'wi' <-> 'fi'`)).toBeNull(); // a phrase: SQL answers it
    expect(lexemesOfQuery(`'a':* | 'b':*`)).toBeNull();
    expect(lexemesOfQuery(`!'a':*`)).toBeNull();
  });

  const rows: IndexedRow[] = [
    { id: 'a1', categoryId: 'lamps', vector: `'lamp':1A 'brass':2A 'desk':3D` },
    { id: 'a2', categoryId: null, vector: `'lamp':5D 'lampshad':6D 'floor':1A` },
    { id: 'a3', categoryId: 'lamps', vector: `'candl':1A 'brass':4B` },
    { id: 'a4', categoryId: null, vector: `'lamp':1A,9D 'brass':3D` },
    { id: 'a5', categoryId: null, vector: `'desk':1A 'lamp':2A` },
  ];
  const built = () => {
    const b = new KeywordIndexBuilder();
    b.add(rows.slice(0, 2));
    b.add(rows.slice(2)); // chunks, in id order
    return b.finish();
  };

  it('ranks by the summed weights of the words, ties by id, and counts every match', () => {
    const index: KeywordIndex = built();
    expect(index.size).toBe(5);
    // lamp:* finds lamp and lampshad: a4 11, a1 10, a5 10, a2 1 + 1
    expect(index.query(['lamp'], [], 0, 10)).toMatchObject({ ids: ['a4', 'a1', 'a5', 'a2'], total: 4 });
    // every word must be found: brass and lamp; a1 10 + 10, a4 11 + 1
    expect(index.query(['lamp', 'brass'], [], 0, 10)).toMatchObject({ ids: ['a1', 'a4'], total: 2 });
    expect(index.query(['lamp', 'nothing'], [], 0, 10)).toMatchObject({ ids: [], total: 0 });
    expect(index.query(['zzz'], [], 0, 10)).toMatchObject({ ids: [], total: 0 });
  });

  it('says which words found products of their own when they found nothing together', () => {
    const index = built();
    expect(index.query(['lamp', 'candl'], [], 0, 10)).toMatchObject({ total: 0, eachFound: [true, true] });
    expect(index.query(['zzz', 'lamp'], [], 0, 10)).toMatchObject({ total: 0, eachFound: [false, true] });
    expect(index.query(['lamp', 'brass'], [], 0, 10).eachFound).toBeUndefined(); // they met
    expect(index.query(['zzz'], [], 0, 10).eachFound).toBeUndefined(); // one word: its total says it
  });

  it('pages by offset and limit over the same order', () => {
    const index = built();
    expect(index.query(['lamp'], [], 0, 2)).toMatchObject({ ids: ['a4', 'a1'], total: 4 });
    expect(index.query(['lamp'], [], 2, 2)).toMatchObject({ ids: ['a5', 'a2'], total: 4 });
    expect(index.query(['lamp'], [], 4, 2)).toMatchObject({ ids: [], total: 4 });
  });

  it("brings in a matched category's products, scored by the words they have", () => {
    const index = built();
    // a3 is in 'lamps' without the word: score 0, after every word match
    expect(index.query(['lamp'], ['lamps'], 0, 10)).toMatchObject({ ids: ['a4', 'a1', 'a5', 'a2', 'a3'], total: 5 });
    // with two words, a3 has brass (4) and no lamp: still in, by its category, above a match-less one
    expect(index.query(['lamp', 'brass'], ['lamps'], 0, 10)).toMatchObject({ ids: ['a1', 'a4', 'a3'], total: 3 });
  });
});

describe('keyword index: large catalogues', () => {
  // 20,000 products with hex ids (kept packed) whose words repeat, so one score holds thousands of matches
  const n = 20_000;
  const id = (i: number) => i.toString(16).padStart(24, '0');
  const rows: IndexedRow[] = Array.from({ length: n }, (_, i) => ({
    id: id(i),
    categoryId: i % 10 === 0 ? 'ten' : null,
    vector: [
      `'every':${(i % 3) + 1}D`,
      i % 2 ? `'odd':1A` : `'even':2B`,
      i % 7 === 0 ? `'seven':3A,4D` : '',
      // in every other product, scored 10, 4 or 3 (a word read alongside another ranks by it too)
      i % 2 === 0 ? `'mixed':${i % 3 === 0 ? '10A' : i % 3 === 1 ? '10B' : '10C,11D'}` : '',
      // two rare lexemes sharing a prefix: merged list by list
      i % 50 === 0 ? `'rare':5C` : '',
      i % 70 === 0 ? `'rarely':6B` : '',
      // twenty lexemes sharing a prefix, one or two per product: more than are merged, so added up in the
      // scratch array; every product has one (read in order)
      `'many${(i * 7) % 20}':7D`,
      // (a lexeme is listed once per vector: the second differs from the first)
      i % 3 === 0 ? `'many${(((i * 7) % 20) + 1 + (i % 19)) % 20}':8A` : '',
      // twenty more, in one product of 25 (few: sorted)
      i % 25 === 0 ? `'few${(i / 25) % 20}':9C` : '',
    ].join(' '),
  }));
  const b = new KeywordIndexBuilder();
  for (let i = 0; i < n; i += 1000) b.add(rows.slice(i, i + 1000));
  const index = b.finish();

  /** The same ranking by sorting every match: score descending, then id ascending. */
  function naive(words: string[], categories: string[], offset: number, limit: number) {
    const scored: { id: string; score: number }[] = [];
    for (const row of rows) {
      const lexemes = new Map(
        [...row.vector.matchAll(/'(\w+)':([0-9A-D,]+)/g)].map((m) => [m[1]!, scoreOfPositions(m[2])]),
      );
      const per = words.map((w) => [...lexemes].filter(([l]) => l.startsWith(w)).reduce((a, [, s]) => a + s, 0));
      const all = per.every((s) => s > 0);
      if (all || (row.categoryId !== null && categories.includes(row.categoryId)))
        scored.push({ id: row.id, score: per.reduce((a, s) => a + s, 0) });
    }
    scored.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
    return { ids: scored.slice(offset, offset + limit).map((x) => x.id), total: scored.length };
  }

  it.each([
    [['every'], [], 0],
    [['every'], [], 9_990],
    [['every'], [], 19_990],
    [['ev'], [], 6_000], // every and even, merged
    [['rar'], [], 0], // rare and rarely, merged
    [['many'], [], 5_000], // twenty lexemes, added up (most products: read in order)
    [['many1'], [], 0], // eleven lexemes (many1, many10 to many19), merged
    [['many'], ['ten'], 19_990],
    [['many', 'rar'], [], 0],
    [['few'], [], 0],
    [['few', 'odd'], ['ten'], 24],
    [['rar', 'even'], [], 0],
    [['odd', 'every'], [], 4_000],
    [['seven'], ['ten'], 2_800],
    [['odd'], ['ten'], 10_990],
    [['every', 'seven', 'odd'], [], 0], // the rarest word last: the others galloped through
    [['every', 'seven'], ['ten'], 1_000],
    [['ev', 'seven'], ['ten'], 3_500], // a word of two lexemes, added up, meeting another
    // several words and no category: the rarest decoded, each other one read alongside its products
    [['every', 'seven'], [], 1_000],
    [['seven', 'odd', 'every'], [], 0],
    [['many1', 'odd'], [], 2_000], // eleven lexemes (merged) meeting one
    [['odd', 'many'], [], 3_000], // twenty lexemes (added up) meeting one
    [['rare', 'many1', 'seven'], [], 0],
    [['few', 'every'], [], 0],
    [['every', 'every'], [], 500], // a word twice counts twice, as SQL's rank does
    [['odd', 'even'], [], 0], // never together
    [['odd', 'zzz'], [], 0],
    [['seven', 'mixed'], [], 0], // seven is rarer: mixed's scores, read alongside it, rank the page
    [['even', 'mixed'], [], 2_000],
    [['every', 'mixed', 'seven'], [], 0],
  ] as [string[], string[], number][])(
    '%j with categories %j from rank %i: as a full sort orders it',
    (words, categories, offset) => {
      expect(index.query(words, categories, offset, 24)).toMatchObject(naive(words, categories, offset, 24));
    },
  );

  it('answers several words alike whether a category is named or not (two ways of intersecting)', () => {
    // with a category named the words are decoded and galloped through; without, the rarest is decoded
    // and the others are read alongside it: a category no product has brings nothing in, so the answers
    // (page, total, facets, which words found something) must be the same
    const words = [
      'every',
      'odd',
      'even',
      'seven',
      'mixed',
      'rar',
      'rare',
      'rarely',
      'many',
      'many1',
      'many7',
      'few',
      'few1',
      'ev',
      'zzz',
    ];
    let random = 7;
    const next = () => (random = (random * 48271) % 2147483647) / 2147483647;
    for (let q = 0; q < 200; q++) {
      const ws = Array.from({ length: 2 + Math.floor(next() * 3) }, () => words[Math.floor(next() * words.length)]!);
      for (const offset of [0, Math.floor(next() * 3000)])
        expect(index.query(ws, [], offset, 24), `${ws.join(' ')} from ${offset}`).toEqual(
          index.query(ws, ['no such category'], offset, 24),
        );
    }
  });

  it('holds about two bytes per posting and twelve per id, besides its query scratch', () => {
    expect(index.size).toBe(n);
    // 20,000 × ~4.05 postings × 2 varint bytes, 12 bytes per id; the scratch of the queries above: a
    // mark byte per product, match lists of 8 bytes per match (grown to the largest query: here every
    // product) and one score array of 4 (the words meet by galloping through each other's products, not
    // through a score array each); the categories' 2,000 ordinals; 6 bytes per product more for the
    // facets: its price and its category and brand codes, a byte each for a few categories and brands
    expect(index.bytesHeld).toBeLessThan(n * (4.1 * 2 + 12 + 1 + 8 + 4 + 6) + 2_000 * 4 + 1_000);
  });
});

describe('keyword index: the same answers as SQL, dropped on writes', () => {
  let t: TestContext;
  const keywords = [
    'lamp',
    'brass lamp',
    'desk',
    'home',
    'smart home',
    'lamps light',
    'the lamp',
    'o',
    'zzzz',
    // two words that each match, never together: no typo, nothing suggested (the index knows both)
    'walrus pelican',
    // one word a typo: similar names are suggested
    'walrus stol',
    // a word only a draft has, or only a category's name: still a word of the shop, not a typo
    'quokka walrus',
    'lighting walrus',
  ];

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.db;
    const home = await createCategory(db, { name: 'Smart Home' });
    const lighting = await createCategory(db, { name: 'Lighting', parentId: home.id });
    const words = ['Brass', 'Desk', 'Floor', 'Smart', 'Reading', 'Home', 'Office'];
    // 40 products: names, brands and descriptions share words, so scores tie and differ
    for (let i = 0; i < 40; i++)
      await createProduct(db, {
        name: `${words[i % 7]} ${words[(i * 3) % 7]} ${i % 4 === 0 ? 'Lamp' : 'Candle'} ${i}`,
        brand: i % 5 === 0 ? 'Lampworks' : 'Acme',
        categoryId: i % 3 === 0 ? lighting.id : i % 3 === 1 ? home.id : null,
        // up to 7 description lamps: outweighed by one in the name (10 to 7), not by nothing
        description: `<p>${i % 2 === 0 ? 'A lamp for the home.' : 'Light for any desk.'} ${'brass '.repeat(i % 3)}${'lamp '.repeat(i % 7)}</p>`,
      });
    await createProduct(db, { name: 'Walrus Stool', brand: 'Acme' });
    await createProduct(db, { name: 'Pelican Crate', brand: 'Acme' });
    await createProduct(db, { name: 'Quokka Basket', brand: 'Acme', status: 'draft' });
  });
  afterAll(async () => t?.close());

  const page = (keyword: string, pageNumber: number, search?: SearchIndex) =>
    listProducts(t.app.db, { keyword, pageNumber, pageSize: 6 } as never, undefined, search);

  it('gives every page of every search exactly as the SQL path does, built in chunks', async () => {
    const search = new SearchIndex((min) => loadKeywordIndex(t.app.db, min, 7), 0);
    expect(search.current()).toBeUndefined(); // starts the build
    await search.settled();
    expect(search.current()?.size).toBe(42); // the draft is not indexed
    let compared = 0;
    for (const keyword of keywords) {
      const sql = await page(keyword, 1);
      for (let p = 1; p <= sql.pages; p++) {
        const [viaIndex, viaSql] = await Promise.all([page(keyword, p, search), page(keyword, p)]);
        expect(viaIndex, `${keyword} page ${p}`).toEqual(viaSql);
        compared += viaSql.products.length;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  it('answers from the index once built, and drops it on a write', async () => {
    const search = new SearchIndex((min) => loadKeywordIndex(t.app.db, min), 0);
    search.current();
    await search.settled();
    const before = await page('lamp', 1, search);
    // a product written without telling the index: the index (and only it) does not know it yet
    const added = await createProduct(t.app.db, { name: 'Lamp Lamp Lamp Deluxe', description: '<p>lamp</p>' });
    expect((await page('lamp', 1, search)).total).toBe(before.total);
    expect((await page('lamp', 1)).total).toBe(before.total + 1);
    search.drop(); // what every catalogue write does (the catalogue cache's drop)
    const during = await page('lamp', 1, search); // the SQL path while the index is rebuilt
    expect(during.products[0]!._id).toBe(added.id);
    await search.settled();
    expect(search.current()).toBeDefined();
    expect(await page('lamp', 1, search)).toEqual(during);
  });

  it('keeps no index a write overtook, and leaves small catalogues to SQL', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let builds = 0;
    const search = new SearchIndex(async (min) => {
      builds++;
      const index = await loadKeywordIndex(t.app.db, min);
      await held;
      return index;
    }, 0);
    search.current();
    search.drop(); // a write while the index was read
    release();
    await search.settled();
    expect(builds).toBe(1);
    expect(search.current()).toBeUndefined(); // the overtaken build was thrown away; a new one starts
    await search.settled();
    expect(builds).toBe(2);
    expect(search.current()).toBeDefined();

    const small = new SearchIndex(async (min) => {
      builds++;
      return loadKeywordIndex(t.app.db, min);
    }, 1000);
    small.current();
    await small.settled();
    expect(small.current()).toBeUndefined();
    expect(builds).toBe(3); // too small: not read again until a write
    small.drop();
    small.current();
    await small.settled();
    expect(builds).toBe(4);
  });

  it('is used by the API and dropped by its writes (SEARCH_INDEX_MIN_PRODUCTS)', async () => {
    const api = await createTestApp({ SEARCH_INDEX_MIN_PRODUCTS: '0' });
    try {
      for (let i = 0; i < 3; i++) await createProduct(api.app.db, { name: `Walnut Shelf ${i}` });
      const get = async (url: string) => (await api.app.inject({ url })).json();
      expect((await get('/api/products?keyword=walnut')).total).toBe(3); // SQL; the build starts
      await api.app.searchIndex.settled();
      expect((api.app.searchIndex as SearchIndex).current()).toBeDefined();
      await createProduct(api.app.db, { name: 'Walnut Shelf unannounced' }); // no catalogue write event
      expect((await get('/api/products?keyword=walnut&pageSize=10')).total).toBe(3); // the index answered
      expect((await get('/api/products?keyword=walnut&minPrice=0')).total).toBe(4); // a filter: SQL
      await api.app.catalogCache.invalidate(); // what an admin's write does
      expect((api.app.searchIndex as SearchIndex).current()).toBeUndefined();
      await api.app.searchIndex.settled();
      expect((await get('/api/products?keyword=walnut&pageSize=11')).total).toBe(4);
      // an order's stock change, or an expired order's restock, leaves the index alone
      await api.app.catalogCache.invalidate('stock-taken', []);
      await api.app.catalogCache.invalidate('stock-returned', []);
      expect((api.app.searchIndex as SearchIndex).current()).toBeDefined();
    } finally {
      await api.close();
    }
  });
});

describe('a keyword of stop words only', () => {
  // 'with', 'over' and 'the' are PostgreSQL's English stop words: no word of the query is searched, and
  // names merely containing them are no typo to suggest
  async function expectStopWordsFindNothing(api: TestContext, path: string) {
    const get = async (url: string) => (await api.app.inject({ url })).json();
    for (const kw of ['with', 'over', 'the', 'with%20the'])
      expect(await get(`/api/products?keyword=${kw}`), `${kw} (${path})`).toMatchObject({ products: [], total: 0 });
    expect((await get('/api/products?keyword=with')).suggestion, path).toBeUndefined();
    // a stop word beside a real word leaves that word to find
    const mug = await get('/api/products?keyword=mug%20with');
    expect(
      mug.products.map((p: { name: string }) => p.name),
      path,
    ).toEqual(['Travel Mug with Lid']);
    expect((await get('/api/products?keyword=over%20ear')).total, path).toBe(1);
    // a typo still gets its similar names
    expect((await get('/api/products?keyword=headphnes')).products[0]?.name, path).toBe('Over-Ear Headphones');
  }

  it('finds nothing and suggests nothing, by SQL and by the keyword index alike', async () => {
    for (const min of ['1000', '0']) {
      const api = await createTestApp({ SEARCH_INDEX_MIN_PRODUCTS: min });
      try {
        await createProduct(api.app.db, { name: 'Travel Mug with Lid' });
        await createProduct(api.app.db, { name: 'Over-Ear Headphones' });
        const index = api.app.searchIndex as SearchIndex;
        // a first search starts the build; below the minimum there is none
        await api.app.inject({ url: '/api/products?keyword=lid' });
        await index.settled();
        expect(index.current() !== undefined, min).toBe(min === '0');
        await expectStopWordsFindNothing(api, min === '0' ? 'index' : 'SQL');
      } finally {
        await api.close();
      }
    }
  });
});

describe('mergeSummed', () => {
  it('merges two ascending lists of products, adding the scores of a product in both', () => {
    const list = (pairs: [number, number][]) => ({
      ords: Uint32Array.from(pairs.map(([o]) => o)),
      scores: Uint32Array.from(pairs.map(([, s]) => s)),
    });
    const merged = mergeSummed(
      list([
        [1, 10],
        [4, 1],
        [9, 2],
      ]),
      list([
        [0, 3],
        [4, 5],
        [10, 7],
        [11, 1],
      ]),
    );
    expect([...merged.ords]).toEqual([0, 1, 4, 9, 10, 11]);
    expect([...merged.scores]).toEqual([3, 10, 6, 2, 7, 1]);
    const empty = mergeSummed(list([]), list([[2, 4]]));
    expect([...empty.ords, ...empty.scores]).toEqual([2, 4]);
  });
});
