import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { listProducts } from './catalog.service.ts';
import { ListMemo } from './list-memo.ts';

let t: TestContext;
const ids = async (memo: ListMemo | undefined, pageNumber: number, pageSize = 4) =>
  (await listProducts(t.app.db, { pageNumber, pageSize } as never, memo)).products.map((p) => p._id);

describe('product list: remembered totals and keyset anchors for deep pages', () => {
  beforeAll(async () => {
    t = await createTestApp();
    // 37 products; groups of three share a creation time to the microsecond (the id breaks the tie)
    for (let i = 0; i < 37; i++)
      await createProduct(t.app.db, {
        name: `Anchor ${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))),
      });
    // microseconds a JS Date cannot hold: anchors must keep them
    await t.app.db.execute(
      sql`update ${products} set created_at = created_at + (interval '1 microsecond' * (ascii(right(id, 1)) % 7))`,
    );
  });
  afterAll(async () => t?.close());

  it('reads every page by keyset exactly as by OFFSET', async () => {
    const memo = new ListMemo(5);
    const pages = Math.ceil(37 / 4);
    await ids(memo, pages); // a deep page starts building the anchors
    await memo.settled();
    expect(memo.anchorFor(8, async () => [])).toMatchObject({ skip: 3 }); // anchors in: page reads use them
    for (let page = 1; page <= pages; page++) expect(await ids(memo, page)).toEqual(await ids(undefined, page));
    const all = (await Promise.all(Array.from({ length: pages }, (_, i) => ids(memo, i + 1)))).flat();
    expect(new Set(all).size).toBe(37);
  });

  it('drops its anchors and totals on a catalogue write: a new product shifts every page', async () => {
    const memo = new ListMemo(5);
    await ids(memo, 6);
    await memo.settled();
    expect((await listProducts(t.app.db, { pageNumber: 1, pageSize: 4 } as never, memo)).total).toBe(37);
    const newest = await createProduct(t.app.db, { name: 'Anchor newest', createdAt: new Date(Date.UTC(2027, 0, 1)) });
    memo.drop(); // what the catalogue cache's drop does after the admin's write
    const first = await listProducts(t.app.db, { pageNumber: 1, pageSize: 4 } as never, memo);
    expect(first.total).toBe(38);
    expect(first.products[0]!._id).toBe(newest.id);
    await ids(memo, 7);
    await memo.settled();
    for (let page = 1; page <= 10; page++) expect(await ids(memo, page)).toEqual(await ids(undefined, page));
  });

  it('keeps no anchors computed while a write came in', async () => {
    const memo = new ListMemo(5);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    memo.anchorFor(10, async () => {
      await slow;
      return [{ createdAt: '2026-01-01 00:00:00+00', id: 'f'.repeat(24) }];
    });
    memo.drop();
    release();
    await memo.settled();
    const fresh = [
      { createdAt: '2026-01-02 00:00:00+00', id: 'a'.repeat(24) },
      { createdAt: '2026-01-01 00:00:00+00', id: 'b'.repeat(24) },
      { createdAt: '2026-01-01 00:00:00+00', id: 'c'.repeat(24) },
    ];
    expect(memo.anchorFor(10, async () => fresh)).toBeUndefined(); // the stale build was not kept: builds again
    await memo.settled();
    expect(memo.anchorFor(11, async () => [])).toEqual({ anchor: fresh[2], skip: 1 });
  });

  it('keeps its anchors, and a build under way, through changes of stock alone', async () => {
    const memo = new ListMemo(5);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const built = [{ createdAt: '2026-01-01 00:00:00+00', id: 'e'.repeat(24) }];
    memo.anchorFor(10, async () => {
      await slow;
      return [...built, ...built];
    });
    memo.dropStock(); // an order (or its expiry) changed some stock while the anchors were read
    release();
    await memo.settled();
    expect(memo.anchorFor(5, async () => [])).toEqual({ anchor: built[0], skip: 0 });
    memo.dropStock();
    expect(memo.anchorFor(7, async () => [])).toEqual({ anchor: built[0], skip: 2 });
    memo.drop(); // any other write drops them
    expect(memo.anchorFor(7, async () => [])).toBeUndefined();
  });
});
