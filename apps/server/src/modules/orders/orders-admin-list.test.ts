import { parse } from 'csv-parse/sync';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, payments } from '#server/db/schema/index.ts';
import {
  fewMatches,
  ordersReadRepository as repo,
  type OrderFilter,
  type OrderSortSpec,
} from './orders-read.repository.ts';
import { orderListQuerySchema } from '@store/shared';
import { createProduct } from '#test/factories.ts';
import { listOrders, memoizedOrderList } from './orders-read.service.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';

let t: TestContext;
let admin: Auth;
let shopper: Auth;
const list = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/orders?${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().orders as { _id: string; totalPrice: number; createdAt: string }[];
};
const bulkDeliver = (ids: string[], auth: Auth = admin) =>
  t.app.inject({ method: 'POST', url: '/api/orders/bulk/deliver', headers: auth.headers, payload: { ids } });
type State = 'unpaid' | 'paid' | 'shipped' | 'delivered' | 'cancelled';
const FLAGS: Record<State, Partial<typeof orders.$inferInsert>> = {
  unpaid: {},
  paid: { isPaid: true, paidAt: new Date() },
  shipped: { isPaid: true, isShipped: true, shippedAt: new Date() },
  delivered: { isPaid: true, isShipped: true, isDelivered: true, deliveredAt: new Date() },
  cancelled: { isCancelled: true, cancelledAt: new Date() },
};

/** An order of `qty` units at $10 placed `minutesAgo`, set to `state`. */
async function order(productId: string, qty: number, state: State, minutesAgo: number): Promise<string> {
  const res = await placeOrder(t.app, shopper, orderBody([{ product: productId, qty }]));
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json()._id as string;
  await t.app.db
    .update(orders)
    .set({ ...FLAGS[state], createdAt: new Date(Date.UTC(2030, 0, 1) - minutesAgo * 60_000) })
    .where(eq(orders.id, id));
  return id;
}

describe('admin order list: sorting, bulk delivery, exporting a selection', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
    shopper = await signedIn(t.app);
    const p = await createProduct(t.app.db, { priceCents: 1000, countInStock: 1000 });
    // name → [qty, state, minutes ago]: totals grow with qty, dates with the order of placing
    const plan: [string, number, State, number][] = [
      ['a', 3, 'shipped', 50],
      ['b', 1, 'unpaid', 40],
      ['c', 5, 'delivered', 30],
      ['d', 2, 'cancelled', 20],
      ['e', 4, 'paid', 10],
      ['f', 6, 'shipped', 5],
    ];
    ids = {};
    for (const [name, qty, state, ago] of plan) ids[name] = await order(p.id, qty, state, ago);
  });
  afterAll(async () => t?.close());
  const names = (rows: { _id: string }[]) =>
    rows.map((r) => Object.keys(ids).find((k) => ids[k] === r._id)).filter((n) => n !== undefined);

  it('sorts by date, total and status in either direction, on the server', async () => {
    expect(names(await list('pageSize=100'))).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect(names(await list('sortBy=date&order=asc&pageSize=100'))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(names(await list('sortBy=total&order=desc&pageSize=100'))).toEqual(['f', 'c', 'e', 'a', 'd', 'b']);
    expect(names(await list('sortBy=total&order=asc&pageSize=100'))).toEqual(['b', 'd', 'a', 'e', 'c', 'f']);
    // unpaid, paid, shipped (newest first), delivered, cancelled
    expect(names(await list('sortBy=status&order=asc&pageSize=100'))).toEqual(['b', 'e', 'f', 'a', 'c', 'd']);
    expect(names(await list('sortBy=status&order=desc&pageSize=100'))).toEqual(['d', 'c', 'f', 'a', 'e', 'b']);
    // sort and filters combine, and pages follow the sort
    expect(names(await list('sortBy=total&order=asc&shipped=yes&pageSize=100'))).toEqual(['a', 'c', 'f']);
    const page1 = names(await list('sortBy=total&order=asc&pageSize=4&pageNumber=1'));
    const page2 = names(await list('sortBy=total&order=asc&pageSize=4&pageNumber=2'));
    expect([...page1, ...page2]).toEqual(['b', 'd', 'a', 'e', 'c', 'f']);
    for (const bad of ['sortBy=name', 'order=up']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/orders?${bad}`, headers: admin.headers });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('answers each sort from an index', async () => {
    const orderBys = [
      'created_at desc nulls last, id desc nulls last',
      'created_at asc nulls first, id asc nulls first',
      'total_cents asc nulls last, id asc nulls last',
      'total_cents desc nulls first, id desc nulls first',
      '(case when is_cancelled then 4 when is_delivered then 3 when is_shipped then 2 when is_paid then 1 else 0 end) asc nulls last, created_at desc nulls last, id desc nulls last',
    ];
    try {
      for (const s of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await t.app.db.execute(sql.raw(`set ${s} = off`));
      for (const orderBy of orderBys) {
        const plan = await t.app.db.execute<{ 'QUERY PLAN': string }>(
          sql.raw(`explain select id from orders order by ${orderBy} limit 20`),
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, orderBy).toMatch(/Index (Only )?Scan/);
        expect(text, orderBy).not.toMatch(/^\s*(->\s*)?Sort\s+\(/m);
      }
    } finally {
      for (const s of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await t.app.db.execute(sql.raw(`reset ${s}`));
    }
  });

  it('reads the same pages from the few matching rows, sorted, as by walking the sort index', async () => {
    const [placed] = await t.app.db.select({ username: orders.username }).from(orders).limit(1);
    const filters: OrderFilter[] = [
      {},
      { paid: true },
      { shipped: true, delivered: false },
      { cancelled: false, minTotalCents: 2500 },
      { usernamePrefix: placed!.username.slice(0, 2).toUpperCase() },
      { refundDue: false, maxTotalCents: 4500 },
    ];
    const sorts: OrderSortSpec[] = (['date', 'total', 'status'] as const).flatMap((by) =>
      (['asc', 'desc'] as const).map((dir) => ({ by, dir })),
    );
    for (const filter of filters)
      for (const sort of sorts)
        for (const [limit, offset] of [
          [100, 0],
          [2, 0],
          [2, 2],
          [3, 4],
        ] as const) {
          const walked = await repo.list(t.app.db, filter, limit, offset, sort, false);
          const few = await repo.list(t.app.db, filter, limit, offset, sort, true);
          const what = JSON.stringify({ filter, sort, limit, offset });
          expect(
            few.map((r) => r.id),
            what,
          ).toEqual(walked.map((r) => r.id));
          if (offset === 0 && limit === 100) expect(walked.length, what).toBe(await repo.count(t.app.db, filter));
        }
    // a page is read from the matches when walking the index would pass many times more entries
    expect(fewMatches(0, 0, 20, 100_000)).toBe(true);
    expect(fewMatches(400, 0, 20, 100_000)).toBe(true);
    expect(fewMatches(5000, 0, 20, 100_000)).toBe(false);
    expect(fewMatches(5000, 40_000, 20, 100_000)).toBe(true);
  });

  it("keeps a filter set's total only until an order or a payment changes", async () => {
    const total = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/orders?${query}`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { total: number; orders: { _id: string }[] };
    };
    expect((await total('delivered=yes')).total).toBe(1);
    await t.app.db.update(orders).set({ isDelivered: true }).where(eq(orders.id, ids.e!));
    const more = await total('delivered=yes');
    expect(more.total).toBe(2);
    expect(names(more.orders)).toEqual(['e', 'c']);
    await t.app.db.update(orders).set({ isDelivered: false }).where(eq(orders.id, ids.e!));
    expect((await total('delivered=yes')).total).toBe(1);

    expect((await total('refundDue=yes')).total).toBe(0);
    const [due] = await t.app.db
      .insert(payments)
      .values({
        orderId: ids.d!,
        provider: 'paypal',
        providerPaymentId: `due-${Date.now()}`,
        status: 'REFUND_DUE',
        amountCents: 2000,
        currency: 'USD',
      })
      .returning();
    const owed = await total('refundDue=yes');
    expect(owed.total).toBe(1);
    expect(names(owed.orders)).toEqual(['d']);
    expect((await total('refundDue=no&pageSize=100')).total).toBe(5);
    await t.app.db.delete(payments).where(eq(payments.id, due!.id));
    expect((await total('refundDue=yes')).total).toBe(0);
    expect((await total('refundDue=no&pageSize=100')).total).toBe(6);
  });

  it("counts a range of amounts from the filter set's kept totals exactly as SQL does, and afresh after a change", async () => {
    const rows = await t.app.db.select({ id: orders.id, cents: orders.totalCents }).from(orders);
    const amounts = [...new Set(rows.map((r) => r.cents))].sort((a, b) => a - b);
    // each amount itself, one cent either side of it, and no bound
    const bounds = [undefined, ...amounts.flatMap((c) => [c - 1, c, c + 1])];
    const totalOf = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/orders?${query}`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    const check = async () => {
      for (const paid of [undefined, true]) {
        for (const min of bounds) {
          for (const max of [undefined, amounts[2]! + 1, amounts.at(-1)!]) {
            const filter: OrderFilter = { paid, minTotalCents: min, maxTotalCents: max };
            const query = [
              paid === undefined ? '' : 'paid=yes',
              min === undefined ? '' : `minTotal=${min / 100}`,
              max === undefined ? '' : `maxTotal=${max / 100}`,
            ]
              .filter(Boolean)
              .join('&');
            expect(await totalOf(query), query).toBe(await repo.count(t.app.db, filter));
          }
        }
      }
    };
    await check();
    // the cheapest order now costs the most: every range counted afresh
    const cheapest = rows.find((r) => r.cents === amounts[0])!;
    await t.app.db
      .update(orders)
      .set({ totalCents: amounts.at(-1)! + 500 })
      .where(eq(orders.id, cheapest.id));
    try {
      expect(await totalOf(`minTotal=${(amounts.at(-1)! + 1) / 100}`)).toBe(1);
      await check();
    } finally {
      await t.app.db.update(orders).set({ totalCents: cheapest.cents }).where(eq(orders.id, cheapest.id));
    }
  });

  it('gives the same totals from kept amounts and from counts, a filter set with more orders than are kept counted directly', async () => {
    // at most 2 orders' totals per filter set: "paid" (4 orders) is too broad, "cancelled" (1) is kept
    const kept = memoizedOrderList(t.app.db, 2000, { sets: 4, maxValues: 2, budget: 100 });
    const amounts = (await t.app.db.select({ cents: orders.totalCents }).from(orders)).map((r) => r.cents);
    for (const flags of [{ paid: 'yes' }, { cancelled: 'yes' }, { paid: 'no' }, {}] as const)
      for (const cents of [undefined, ...amounts]) {
        const q = orderListQuerySchema.parse({ ...flags, ...(cents === undefined ? {} : { minTotal: cents / 100 }) });
        const label = JSON.stringify(q);
        // twice: the first range reads the values, the next is counted from them
        for (let round = 0; round < 2; round++)
          expect((await kept(q)).total, label).toBe((await listOrders(t.app.db, q)).total);
      }
  });

  it('marks delivered only by admins', async () => {
    expect((await bulkDeliver([ids.a!], { headers: {} })).statusCode).toBe(401);
    const refused = await bulkDeliver([ids.a!], shopper);
    expect(refused.statusCode).toBe(403);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, ids.a!));
    expect(row!.isDelivered).toBe(false);
  });

  it('marks every selected order delivered or none: one that is not shipped refuses the lot', async () => {
    for (const blocker of ['b', 'c', 'd', 'e']) {
      const res = await bulkDeliver([ids.a!, ids.f!, ids[blocker]!]);
      expect(res.statusCode, blocker).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
      expect(res.json().message).toMatch(/^Only shipped orders can be marked delivered; nothing was changed\. #\d+ \(/);
    }
    const why = (await bulkDeliver([ids.a!, ids.b!, ids.c!, ids.d!])).json().message as string;
    expect(why).toContain('(not shipped yet)');
    expect(why).toContain('(already delivered)');
    expect(why).toContain('(cancelled)');
    const rows = await t.app.db
      .select()
      .from(orders)
      .where(inArray(orders.id, [ids.a!, ids.f!]));
    expect(rows.map((r) => r.isDelivered)).toEqual([false, false]);
    const delivered = () =>
      t.app.db
        .select()
        .from(orderEvents)
        .where(and(inArray(orderEvents.orderId, [ids.a!, ids.f!]), eq(orderEvents.event, 'delivered')));
    expect(await delivered()).toEqual([]);

    const unknown = await bulkDeliver([ids.a!, '0123456789abcdef01234567']);
    expect(unknown.statusCode).toBe(404);
    for (const bad of [[], ['nope'], Array.from({ length: 101 }, () => ids.a!)]) {
      expect((await bulkDeliver(bad)).statusCode, JSON.stringify(bad).slice(0, 40)).toBe(400);
    }

    const ok = await bulkDeliver([ids.a!, ids.f!, ids.a!]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ delivered: 2 });
    const after = await t.app.db
      .select()
      .from(orders)
      .where(inArray(orders.id, [ids.a!, ids.f!]));
    for (const r of after) {
      expect(r.isDelivered).toBe(true);
      expect(r.deliveredAt).toBeInstanceOf(Date);
    }
    const events = await delivered();
    expect(events.map((e) => e.orderId).sort()).toEqual([ids.a!, ids.f!].sort());
    // done once: a second try is refused, naming them as delivered
    const again = await bulkDeliver([ids.a!]);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('(already delivered)');
  });

  it('exports only the selected orders when ids are given', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/orders/export?ids=${ids.b},${ids.e}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = parse(res.body, { columns: true }) as { _id: string }[];
    expect(rows.map((r) => r._id)).toEqual([ids.e, ids.b]);
    // the filters still apply to a selection
    const paidOnly = await t.app.inject({
      method: 'GET',
      url: `/api/orders/export?ids=${ids.b},${ids.e}&paid=yes`,
      headers: admin.headers,
    });
    expect((parse(paidOnly.body, { columns: true }) as { _id: string }[]).map((r) => r._id)).toEqual([ids.e]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/orders/export?ids=zzz', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
  });
});
