import { describe, expect, it } from 'vitest';
import {
  FacetIndex,
  FacetTableBuilder,
  narrowCodes,
  rowsByPrice,
  type FacetFilter,
  type FacetRow,
  type FacetTable,
} from './facet-index.ts';

const rows: FacetRow[] = [
  { brand: 'SoundMax', categoryId: 'c1', priceCents: 19999, rating: 5, inStock: true, numReviews: 0 },
  { brand: 'soundmax', categoryId: 'c2', priceCents: 4999, rating: 0, inStock: false, numReviews: 0 },
  { brand: 'Tinny', categoryId: 'c1', priceCents: 999, rating: 3, inStock: true, numReviews: 0 },
  { brand: '', categoryId: null, priceCents: 500, rating: 4, inStock: true, numReviews: 0 },
];

describe('the facet table', () => {
  const table = FacetTableBuilder.of(rows);

  it('counts every product and each facet without a filter', () => {
    const c = table.counts({});
    expect(c.total).toBe(4);
    expect(c.brands).toEqual([
      { name: 'SoundMax', count: 2 },
      { name: 'Tinny', count: 1 },
    ]);
    expect(Object.fromEntries(c.categories)).toEqual({ c1: 2, c2: 1 });
    expect(c.price).toEqual({ min: 500, max: 19999 });
  });

  it('counts each facet over every filter but its own', () => {
    const c = table.counts({ brands: ['TINNY'], categoryIds: ['c1'], minPriceCents: 1000 });
    expect(c.total).toBe(0);
    expect(c.brands).toEqual([{ name: 'SoundMax', count: 1 }]); // category and price apply
    expect(Object.fromEntries(c.categories)).toEqual({}); // brand and price apply
    expect(c.price).toEqual({ min: 999, max: 999 }); // brand and category apply
  });

  it('sorts a page of its matches by price, name, rating and date, ties by id, and only with ranks', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(24));
    const five: FacetRow[] = [
      { id: ids[0], brand: 'B', categoryId: null, priceCents: 300, rating: 4.5, numReviews: 2, inStock: true },
      { id: ids[1], brand: 'B', categoryId: null, priceCents: 100, rating: 4.5, numReviews: 9, inStock: true },
      { id: ids[2], brand: 'B', categoryId: null, priceCents: 300, rating: 3.25, numReviews: 1, inStock: true },
      { id: ids[3], brand: 'B', categoryId: null, priceCents: 200, rating: 4.5, numReviews: 2, inStock: true },
      { id: ids[4], brand: 'B', categoryId: null, priceCents: 100, rating: 0, numReviews: 0, inStock: true },
    ];
    // names ranked b < a = d < c = e; dates e < a = b < c < d
    const ranks = { name: Uint32Array.of(2, 1, 3, 2, 3), created: Uint32Array.of(2, 2, 3, 4, 1) };
    const t = FacetTableBuilder.of(five, ranks);
    expect(t.sortable).toBe(true);
    const all = t.counts({}).matches!;
    const page = (by: 'name' | 'price' | 'rating' | 'createdAt', descending: boolean, offset = 0, limit = 5) =>
      t.pageOf(all, { by, descending }, offset, limit)!.map((id) => ids.indexOf(id));
    expect(page('price', false)).toEqual([1, 4, 3, 0, 2]);
    expect(page('price', true)).toEqual([0, 2, 3, 1, 4]); // ties by id ascending, either way
    expect(page('name', false)).toEqual([1, 0, 3, 2, 4]);
    expect(page('name', true)).toEqual([2, 4, 0, 3, 1]);
    expect(page('rating', true)).toEqual([1, 0, 3, 2, 4]); // most reviews first among equals
    expect(page('rating', false)).toEqual([4, 2, 1, 0, 3]); // most reviews first, lowest rated first
    expect(page('createdAt', true)).toEqual([3, 2, 1, 0, 4]); // ties by id descending
    expect(page('createdAt', false)).toEqual([4, 0, 1, 2, 3]);
    expect(page('price', false, 2, 2)).toEqual([3, 0]);
    expect(t.counts({ minRating: 4.5 }).total).toBe(3); // the rating kept in hundredths compares exactly
    expect(t.counts({ minRating: 3.25 }).total).toBe(4);
    // ranks that do not fit the rows are left out: the database sorts
    expect(FacetTableBuilder.of(five, { name: ranks.name.subarray(1), created: ranks.created }).sortable).toBe(false);
    expect(FacetTableBuilder.of(five).pageOf(all, { by: 'price', descending: false }, 0, 5)).toBeUndefined();
  });

  it('finds the same page in one pass over the rows as by sorting the listed matches', () => {
    const hex = (i: number) => i.toString(16).padStart(24, '0');
    // ties everywhere: 7 prices, 5 ratings, 3 review counts, 11 names, 13 moments
    const many: FacetRow[] = Array.from({ length: 600 }, (_, i) => ({
      id: hex(i),
      brand: ['A', 'a', 'B'][i % 3]!,
      categoryId: ['c1', 'c2', null][i % 4 === 3 ? 2 : i % 2]!,
      priceCents: 100 * ((i * 5) % 7),
      rating: [0, 3.5, 4.25, 4.5, 5][(i * 3) % 5]!,
      numReviews: (i * 7) % 3,
      inStock: i % 6 !== 0,
    }));
    const ranks = {
      name: Uint32Array.from(many, (_, i) => (i * 17) % 11),
      created: Uint32Array.from(many, (_, i) => (i * 19) % 13),
    };
    const t = FacetTableBuilder.of(many, ranks, 10_000);
    let compared = 0;
    for (const f of [
      {},
      { brands: ['a'] },
      { categoryIds: ['c1'], minPriceCents: 200 },
      { inStock: true, minRating: 4.25 },
    ])
      for (const by of ['name', 'price', 'rating', 'createdAt'] as const)
        for (const descending of [false, true])
          for (const [offset, limit] of [
            [0, 12],
            [12, 12],
            [200, 40],
          ] as const) {
            const sort = { by, descending };
            const listed = t.pageOf(t.counts(f).matches!, sort, offset, limit);
            expect(t.topOf(f, sort, offset, limit), JSON.stringify([f, sort, offset])).toEqual(listed);
            compared += listed!.length;
          }
    expect(compared).toBeGreaterThan(1500);
    // past TOP_PAGE the database sorts
    expect(t.topOf({}, { by: 'price', descending: false }, 230, 12)).toBeUndefined();
  });

  it('counts and pages filters naming brands and categories from their row lists as one pass over every row would', () => {
    const hex = (i: number) => i.toString(16).padStart(24, '0');
    // 12 brands (two spelled in two cases), 20 categories and none, so one brand or category is a few
    // per cent of the rows and their lists are read instead of every row
    const brands = ['Acme', 'acme', 'Bolt', 'Crux', 'Dyna', 'Echo', 'Flux', 'Gale', 'Halo', 'Iris', 'Jolt', 'JOLT'];
    const categories = [...Array.from({ length: 20 }, (_, c) => `c${c}`), null];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const many: FacetRow[] = Array.from({ length: 3000 }, (_, i) => ({
      id: hex(i),
      brand: brands[Math.floor(random() * brands.length)]!,
      categoryId: categories[Math.floor(random() * categories.length)]!,
      priceCents: 100 * Math.floor(random() * 50),
      rating: [0, 3.5, 4.25, 4.5, 5][Math.floor(random() * 5)]!,
      numReviews: Math.floor(random() * 3),
      inStock: random() < 0.8,
    }));
    const ranks = {
      name: Uint32Array.from(many, () => Math.floor(random() * 40)),
      created: Uint32Array.from(many, () => Math.floor(random() * 60)),
    };
    const t = FacetTableBuilder.of(many, ranks, 200);
    // what each facet should be, straight from the rows
    const naive = (f: FacetFilter) => {
      const b = (r: FacetRow) => !f.brands || f.brands.map((x) => x.toLowerCase()).includes(r.brand.toLowerCase());
      const c = (r: FacetRow) => !f.categoryIds || (r.categoryId !== null && f.categoryIds.includes(r.categoryId));
      const p = (r: FacetRow) =>
        r.priceCents >= (f.minPriceCents ?? -Infinity) && r.priceCents <= (f.maxPriceCents ?? Infinity);
      const kept = many.filter((r) => (!f.inStock || r.inStock) && r.rating >= (f.minRating ?? -Infinity));
      const perBrand = new Map<string, number>();
      for (const r of kept.filter((r) => c(r) && p(r)))
        perBrand.set(r.brand.toLowerCase(), (perBrand.get(r.brand.toLowerCase()) ?? 0) + 1);
      const perCategory = new Map<string, number>();
      for (const r of kept.filter((r) => b(r) && p(r) && r.categoryId !== null))
        perCategory.set(r.categoryId!, (perCategory.get(r.categoryId!) ?? 0) + 1);
      const both = kept.filter((r) => b(r) && c(r));
      const prices = both.map((r) => r.priceCents);
      const matches = both.filter(p).map((r) => many.indexOf(r));
      return {
        total: matches.length,
        perBrand,
        perCategory,
        price: prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : { min: null, max: null },
        matches,
      };
    };
    let named = 0;
    for (let k = 0; k < 300; k++) {
      const pick = <T>(list: T[], most: number) => list.filter(() => random() < most / list.length).slice(0, most);
      const lo = 100 * Math.floor(random() * 50);
      const f: FacetFilter = {
        ...(random() < 0.8 ? { brands: pick(brands, 2).map((x) => (random() < 0.5 ? x.toUpperCase() : x)) } : {}),
        ...(random() < 0.8
          ? {
              categoryIds: pick(
                categories.filter((x) => x !== null),
                2,
              ) as string[],
            }
          : {}),
        ...(random() < 0.7 ? { minPriceCents: lo } : {}),
        ...(random() < 0.5 ? { maxPriceCents: lo + 100 * Math.floor(random() * 30) } : {}),
        ...(random() < 0.4 ? { inStock: true } : {}),
        ...(random() < 0.3 ? { minRating: 4.25 } : {}),
      };
      if (f.brands && f.categoryIds) named++;
      const got = t.counts(f);
      const want = naive(f);
      const label = JSON.stringify(f);
      expect(got.total, label).toBe(want.total);
      expect(new Map(got.brands.map((x) => [x.name.toLowerCase(), x.count])), label).toEqual(want.perBrand);
      expect(got.categories, label).toEqual(want.perCategory);
      expect(got.price, label).toEqual(want.price);
      if (want.total <= 200) expect(Array.from(got.matches!), label).toEqual(want.matches);
      else expect(got.matches, label).toBeUndefined();
      // the first page of the matches in a sort, as sorting all of them gives it
      const sort = { by: (['name', 'price', 'rating', 'createdAt'] as const)[k % 4]!, descending: k % 3 === 0 };
      const all = t.pageOf(Uint32Array.from(want.matches), sort, 0, 24);
      expect(t.topOf(f, sort, 0, 24), label).toEqual(all);
    }
    expect(named).toBeGreaterThan(100);
  });

  it('orders rows by price, then by row, counted, packed into doubles or sorted with a comparison alike', () => {
    const naive = (price: Int32Array) =>
      Uint32Array.from(Array.from(price.keys()).sort((a, b) => price[a]! - price[b]! || a - b));
    // prices across the whole range of an int: packed into doubles, or (told to) sorted with a comparison
    const wide = Int32Array.from(
      { length: 5000 },
      (_, i) => ((i * 7919) % 101) - 50 + (i % 3 === 0 ? 2 ** 31 - 200 : 0),
    );
    wide[17] = -(2 ** 31);
    expect(rowsByPrice(wide)).toEqual(naive(wide));
    expect(rowsByPrice(wide, 0)).toEqual(naive(wide));
    // prices within a narrow span, with many ties: counted
    const narrow = Int32Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 251) - 100);
    expect(rowsByPrice(narrow)).toEqual(naive(narrow));
    expect(rowsByPrice(new Int32Array(0))).toEqual(new Uint32Array(0));
  });

  it('keeps codes in the narrowest array that holds them, and counts the same with each', () => {
    const codes = Uint32Array.of(0, 255, 65_535, 70_000);
    expect(narrowCodes(codes, 2, 256)).toEqual(Uint8Array.of(0, 255));
    expect(narrowCodes(codes, 3, 65_536)).toEqual(Uint16Array.of(0, 255, 65_535));
    expect(narrowCodes(codes, 4, 70_001)).toEqual(Uint32Array.of(0, 255, 65_535, 70_000));
    // 300 brands: past one byte
    const brands = Array.from({ length: 900 }, (_, i): FacetRow => ({
      brand: `Brand ${i % 300}`,
      categoryId: `c${i % 3}`,
      priceCents: i,
      rating: 0,
      numReviews: 0,
      inStock: true,
    }));
    const t = FacetTableBuilder.of(brands);
    const c = t.counts({ brands: ['brand 299'], categoryIds: ['c2'] });
    expect(c.total).toBe(3); // 299, 599 and 899
    expect(c.brands).toHaveLength(100);
    expect(c.brands.find((b) => b.name === 'Brand 299')).toEqual({ name: 'Brand 299', count: 3 });
  });

  it('remembers each count until a change of stock drops the counts that read stock', () => {
    const ids = ['a', 'b', 'c', 'd'].map((c) => c.repeat(24));
    const t = FacetTableBuilder.of(rows.map((r, i) => ({ ...r, id: ids[i] })));
    const all = t.counts({});
    const inStock = t.counts({ inStock: true });
    expect(inStock.total).toBe(3);
    expect(t.counts({})).toBe(all); // the same answer, not counted again
    expect(t.counts({ inStock: true })).toBe(inStock);
    t.setInStock([{ id: ids[0]!, inStock: false }]);
    expect(t.counts({ inStock: true }).total).toBe(2); // counted again, with the new flag
    expect(t.counts({})).toBe(all); // stock was not read: kept
  });

  it('counts in-stock filters from the lists again after flags flip, each way, as the rows say', () => {
    const hex = (i: number) => i.toString(16).padStart(24, '0');
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const brands = ['Acme', 'Bolt', 'Crux', 'Dyna'];
    const categories = ['c0', 'c1', 'c2', null];
    const many: FacetRow[] = Array.from({ length: 800 }, (_, i) => ({
      id: hex(i),
      brand: brands[Math.floor(random() * 4)]!,
      categoryId: categories[Math.floor(random() * 4)]!,
      priceCents: 100 * Math.floor(random() * 40),
      rating: 0,
      numReviews: 0,
      inStock: random() < 0.7,
    }));
    const t = FacetTableBuilder.of(many, undefined, 1000);
    const want = (f: FacetFilter) => {
      const kept = many.filter(
        (r) =>
          r.inStock &&
          (!f.brands || f.brands.includes(r.brand)) &&
          (!f.categoryIds || (r.categoryId !== null && f.categoryIds.includes(r.categoryId))),
      );
      const p = kept.filter((r) => r.priceCents >= f.minPriceCents! && r.priceCents <= f.maxPriceCents!);
      return { total: p.length, matches: p.map((r) => many.indexOf(r)) };
    };
    const filters: FacetFilter[] = [
      { inStock: true, minPriceCents: 500, maxPriceCents: 2500 },
      { inStock: true, brands: ['Bolt'], minPriceCents: 0, maxPriceCents: 3000 },
      { inStock: true, categoryIds: ['c1', 'c2'], brands: ['Acme', 'Crux'], minPriceCents: 1000, maxPriceCents: 1900 },
    ];
    const check = () => {
      for (const f of filters) {
        const got = t.counts(f);
        expect(got.total, JSON.stringify(f)).toBe(want(f).total);
        expect(Array.from(got.matches!), JSON.stringify(f)).toEqual(want(f).matches);
      }
    };
    check();
    // 60 products sell out and 60 come back
    const flipped = [...many.keys()].filter(() => random() < 0.15).slice(0, 120);
    for (const i of flipped) many[i] = { ...many[i]!, inStock: !many[i]!.inStock };
    t.setInStock(flipped.map((i) => ({ id: hex(i), inStock: many[i]!.inStock })));
    check();
  });

  it('finds its products by id after a build in chunks, packed or not', () => {
    const hex = (i: number) => i.toString(16).padStart(24, '0');
    const row = (i: number, id?: string): FacetRow => ({
      id,
      brand: 'B',
      categoryId: null,
      priceCents: i,
      rating: 0,
      numReviews: 0,
      inStock: true,
    });
    const build = (ids: (string | undefined)[]) => {
      const b = new FacetTableBuilder();
      for (let k = 0; k < ids.length; k += 1000) b.add(ids.slice(k, k + 1000).map((id, j) => row(k + j, id)));
      return b.finish();
    };
    // 3,000 hex ids: past the builder's first capacity, packed as they come
    const packed = build(Array.from({ length: 3000 }, (_, i) => hex(i * 2)));
    expect(packed.idsOf(Uint32Array.of(0, 1500, 2999))).toEqual([hex(0), hex(3000), hex(5998)]);
    packed.setInStock([hex(0), hex(3000), hex(5998), hex(1)].map((id) => ({ id, inStock: false })));
    expect(packed.counts({ inStock: true }).total).toBe(2997); // hex(1) is not in it
    // an id the store did not make, after 1,500 packed ones: every id kept as a string, still found
    const mixed = build([...Array.from({ length: 1500 }, (_, i) => hex(i)), 'zz-not-hex']);
    expect(mixed.idsOf(Uint32Array.of(0, 1499, 1500))).toEqual([hex(0), hex(1499), 'zz-not-hex']);
    mixed.setInStock([
      { id: 'zz-not-hex', inStock: false },
      { id: hex(7), inStock: false },
    ]);
    expect(mixed.counts({ inStock: true }).total).toBe(1499);
    // a row without an id: stock cannot be patched in by id
    expect(build([hex(1), undefined]).patchable).toBe(false);
  });

  it('narrows by stock and rating for every facet', () => {
    const c = table.counts({ inStock: true, minRating: 4 });
    expect(c.total).toBe(2);
    expect(c.brands).toEqual([{ name: 'SoundMax', count: 1 }]);
    expect(c.price).toEqual({ min: 500, max: 19999 });
  });
});

describe('the facet index', () => {
  it('throws away a build that a change overtook', async () => {
    let release: (r: FacetTable) => void = () => {};
    const index = new FacetIndex(() => new Promise((r) => (release = r)));
    expect(index.current(false)).toBeUndefined();
    index.drop();
    release(FacetTableBuilder.of(rows));
    await index.settled();
    expect(index.current(false)).toBeUndefined(); // stale: a new build starts
    release(FacetTableBuilder.of(rows));
    await index.settled();
    expect(index.current(false)?.size).toBe(4);
  });
});

describe('the facet index and stock', () => {
  it('keeps a build that only a stock change overtook, for filters that do not read stock', async () => {
    let release: (r: FacetTable) => void = () => {};
    const index = new FacetIndex(() => new Promise((r) => (release = r)), 0);
    index.current(false);
    index.dropStock();
    release(FacetTableBuilder.of(rows));
    await index.settled();
    expect(index.current(false)?.size).toBe(4);
    expect(index.current(true)).toBeUndefined(); // its in-stock flags may be stale: a fresh build starts
    release(FacetTableBuilder.of(rows));
    await index.settled();
    expect(index.current(true)?.size).toBe(4);
  });
});

describe('the facet index after orders', () => {
  it('rebuilds for stock alone at most once per ten build times; in-stock filters ask SQL meanwhile', async () => {
    let builds = 0;
    const index = new FacetIndex(async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 40));
      return FacetTableBuilder.of(rows);
    });
    index.current(false);
    await index.settled();
    expect(builds).toBe(1);
    index.dropStock(); // an order
    expect(index.current(true)).toBeUndefined(); // its in-stock flags may be stale
    expect(index.current(false)?.size).toBe(4); // everything else holds
    expect(builds).toBe(1); // within ten build times (~400 ms) of the last: no rebuild yet
    await new Promise((r) => setTimeout(r, 500));
    index.current(true);
    await index.settled();
    expect(builds).toBe(2);
    expect(index.current(true)?.size).toBe(4);
  });
});

describe('the facet index patches changes of stock by product', () => {
  const withIds: FacetRow[] = rows.map((r, i) => ({ ...r, id: `00000000000000000000000${i}` }));
  const stockNow = new Map(withIds.map((r) => [r.id!, r.inStock]));

  it('reads the changed products again instead of rebuilding; filters reading stock wait for it', async () => {
    let builds = 0;
    const reads: string[][] = [];
    let release: () => void = () => {};
    const index = new FacetIndex(
      async () => {
        builds++;
        return FacetTableBuilder.of(withIds.map((r) => ({ ...r, inStock: stockNow.get(r.id!)! })));
      },
      10,
      async (ids) => {
        reads.push(ids);
        await new Promise<void>((r) => (release = r));
        return ids.map((id) => ({ id, inStock: stockNow.get(id)! }));
      },
    );
    index.current(false);
    await index.settled();
    expect(index.current(true)?.counts({ inStock: true }).total).toBe(3);

    // the last unit of product 0 sold, then product 1 restocked while the first read is under way
    stockNow.set(withIds[0]!.id!, false);
    index.dropStock([withIds[0]!.id!]);
    expect(index.current(true)).toBeUndefined(); // stale for in-stock filters; a read starts
    expect(index.current(false)?.counts({}).total).toBe(4); // the rest holds
    stockNow.set(withIds[1]!.id!, true);
    index.dropStock([withIds[1]!.id!]);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(index.current(true)).toBeUndefined(); // the second change is not read yet
    release();
    await index.settled();
    expect(reads).toEqual([[withIds[0]!.id], [withIds[1]!.id]]); // one read at a time, in order
    expect(index.current(true)?.counts({ inStock: true }).total).toBe(3); // 0 out, 1 in
    expect(builds).toBe(1);
  });

  it('rebuilds when a change names no products', async () => {
    let builds = 0;
    const index = new FacetIndex(
      async () => {
        builds++;
        return FacetTableBuilder.of(withIds);
      },
      0,
      async (ids) => ids.map((id) => ({ id, inStock: true })),
    );
    index.current(false);
    await index.settled();
    index.dropStock();
    expect(index.current(true)).toBeUndefined();
    await index.settled();
    expect(builds).toBe(2);
    expect(index.current(true)?.size).toBe(4);
  });
});
