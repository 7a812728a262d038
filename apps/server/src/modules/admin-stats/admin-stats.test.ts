import { STATS_MAX_DAYS, STATS_MESSAGES, type Stats } from '@store/shared';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, orders, products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, signedIn, usAddress } from '#test/orders-support.ts';
import { adminStatsRepository } from './admin-stats.repository.ts';

type Auth = { headers: Record<string, string> };
let t: TestContext;
let admin: Auth;
const stats = (query = '', auth: Auth = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/stats${query}`, headers: auth.headers });
const bad = (message: string) => ({ message, code: 'BAD_REQUEST' });
const RANGE = '?from=2026-03-01&to=2026-03-05';

interface Line {
  productId: string | null;
  name: string;
  priceCents: number;
  qty: number;
}
/** An order written straight into the database, its total the sum of its lines (no tax, shipping or discount). */
async function order(o: {
  createdAt: string;
  paidAt?: string;
  isShipped?: boolean;
  isCancelled?: boolean;
  lines: Line[];
}): Promise<string> {
  const total = o.lines.reduce((s, l) => s + l.priceCents * l.qty, 0);
  const [row] = await t.database.db
    .insert(orders)
    .values({
      email: 'stats@example.com',
      shippingAddress: usAddress,
      itemsCents: total,
      taxCents: 0,
      shippingCents: 0,
      totalCents: total,
      createdAt: new Date(o.createdAt),
      isPaid: o.paidAt !== undefined,
      paidAt: o.paidAt ? new Date(o.paidAt) : null,
      isShipped: o.isShipped ?? false,
      shippedAt: o.isShipped ? new Date(o.paidAt!) : null,
      isCancelled: o.isCancelled ?? false,
      cancelledAt: o.isCancelled ? new Date(o.createdAt) : null,
    })
    .returning({ id: orders.id });
  await t.database.db.insert(orderItems).values(o.lines.map((l) => ({ ...l, orderId: row!.id })));
  return row!.id;
}

let lamp: string;
let chair: string;
let shirt: string;
let mug: string;
let hat: string;
let empty: string;

/** The overview of 2026-03-01..2026-03-05, every figure known by construction (see beforeAll). */
const expected = (): Stats => ({
  from: '2026-03-01',
  to: '2026-03-05',
  // placed in the range: ①②③④⑤⑦ (② at 23:59:59 on the 1st, ③ at 00:00:00 on the 2nd)
  orders: 6,
  // paid in the range: ⑥ 12.34, ① 100.00, ② 50.50, ⑤ 43.33
  revenue: 206.17,
  paidOrders: 4,
  // 206.17 / 4 = 51.5425
  averageOrderValue: 51.54,
  refunded: 0,
  byDay: [
    { date: '2026-03-01', orders: 2, revenue: 112.34 },
    { date: '2026-03-02', orders: 2, revenue: 50.5 },
    { date: '2026-03-03', orders: 0, revenue: 0 },
    { date: '2026-03-04', orders: 1, revenue: 43.33 },
    { date: '2026-03-05', orders: 1, revenue: 0 },
  ],
  topProducts: [
    { _id: chair, name: 'Beta Chair', qty: 2, revenue: 90.5 },
    // the name of its latest line paid in the range (an earlier one had the old name)
    { _id: lamp, name: 'Alpha Lamp', qty: 3, revenue: 72.34 },
    // deleted products: each by its own name
    { _id: null, name: 'Gamma Rug', qty: 1, revenue: 33.33 },
    { _id: null, name: 'Delta Vase', qty: 2, revenue: 10 },
  ],
  lowStock: [
    { _id: empty, name: 'Epsilon Empty', variant: '', countInStock: 0 },
    { _id: mug, name: 'Mug', variant: 'Large', countInStock: 1 },
    { _id: shirt, name: 'Shirt', variant: 'Red', countInStock: 2 },
    { _id: chair, name: 'Beta Chair', variant: '', countInStock: 3 },
    { _id: mug, name: 'Mug', variant: '', countInStock: 4 },
  ],
  // ②, ⑤, ⑦ and ⑨ (paid long ago)
  toShip: 4,
  lowStockThreshold: 5,
});

describe('GET /api/admin/stats (sales overview)', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
    const db = t.database.db;
    lamp = (await createProduct(db, { name: 'Alpha Lamp', countInStock: 50 })).id;
    chair = (await createProduct(db, { name: 'Beta Chair', countInStock: 3 })).id;
    const rug = (await createProduct(db, { name: 'Gamma Rug', countInStock: 1 })).id;
    const vase = (await createProduct(db, { name: 'Delta Vase', countInStock: 1 })).id;
    empty = (await createProduct(db, { name: 'Epsilon Empty', countInStock: 0 })).id;
    // every variant has stock of its own: the product's own 0 is sold by none of them
    const s = await createProduct(db, {
      name: 'Shirt',
      countInStock: 0,
      variants: [
        { name: 'Red', countInStock: 2 },
        { name: 'Blue', countInStock: 9 },
      ],
    });
    shirt = s.id;
    expect(s.variantRows.map((v) => v.countInStock)).toEqual([2, 9]);
    // Small draws on the product's 4; Large has 1 of its own
    mug = (
      await createProduct(db, {
        name: 'Mug',
        countInStock: 4,
        variants: [
          { name: 'Small', countInStock: null },
          { name: 'Large', countInStock: 1 },
        ],
      })
    ).id;
    hat = (await createProduct(db, { name: 'Hat', countInStock: 7, variants: [{ name: 'One size' }] })).id;

    // ⑥ placed the day before the range, paid at its first instant: revenue of the 1st, not an order of it
    await order({
      createdAt: '2026-02-28T23:59:59Z',
      paidAt: '2026-03-01T00:00:00Z',
      isShipped: true,
      lines: [{ productId: lamp, name: 'Alpha Lamp (old name)', priceCents: 1234, qty: 1 }],
    });
    // ① placed and paid on the 1st, shipped
    await order({
      createdAt: '2026-03-01T10:00:00Z',
      paidAt: '2026-03-01T10:05:00Z',
      isShipped: true,
      lines: [
        { productId: lamp, name: 'Alpha Lamp', priceCents: 3000, qty: 2 },
        { productId: chair, name: 'Beta Chair', priceCents: 4000, qty: 1 },
      ],
    });
    // ② placed at the last second of the 1st, paid at the first instant of the 2nd
    await order({
      createdAt: '2026-03-01T23:59:59Z',
      paidAt: '2026-03-02T00:00:00Z',
      lines: [{ productId: chair, name: 'Beta Chair', priceCents: 5050, qty: 1 }],
    });
    // ③ placed at the first instant of the 2nd, never paid
    await order({
      createdAt: '2026-03-02T00:00:00Z',
      lines: [{ productId: lamp, name: 'Alpha Lamp', priceCents: 7000, qty: 1 }],
    });
    // ④ placed on the 2nd, cancelled unpaid
    await order({
      createdAt: '2026-03-02T12:00:00Z',
      isCancelled: true,
      lines: [{ productId: chair, name: 'Beta Chair', priceCents: 2000, qty: 1 }],
    });
    // nothing on the 3rd
    // ⑤ placed and paid on the 4th: two products deleted since
    await order({
      createdAt: '2026-03-04T08:00:00Z',
      paidAt: '2026-03-04T09:00:00Z',
      lines: [
        { productId: rug, name: 'Gamma Rug', priceCents: 3333, qty: 1 },
        { productId: vase, name: 'Delta Vase', priceCents: 500, qty: 2 },
      ],
    });
    // ⑦ placed at the last second of the range, paid just after it
    await order({
      createdAt: '2026-03-05T23:59:59Z',
      paidAt: '2026-03-06T00:00:00Z',
      lines: [{ productId: chair, name: 'Beta Chair', priceCents: 9999, qty: 1 }],
    });
    // ⑧ placed just after the range
    await order({
      createdAt: '2026-03-06T00:00:00Z',
      lines: [{ productId: lamp, name: 'Alpha Lamp', priceCents: 100, qty: 1 }],
    });
    // ⑨ paid long ago, never shipped
    await order({
      createdAt: '2025-01-10T10:00:00Z',
      paidAt: '2025-01-10T10:01:00Z',
      lines: [{ productId: lamp, name: 'Alpha Lamp', priceCents: 800, qty: 1 }],
    });
    await db.delete(products).where(inArray(products.id, [rug, vase]));
  });
  afterAll(async () => t?.close());

  it('answers every figure of a range of days exactly', async () => {
    const res = await stats(RANGE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(expected());
  });

  it('counts days in UTC whatever the time zone of the database session', async () => {
    const range = { from: '2026-03-01', to: '2026-03-05' };
    const want = expected();
    for (const zone of ['Pacific/Kiritimati', 'Etc/GMT+12']) {
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local time zone '${zone}'`));
        // one query at a time: a transaction is one connection
        const { totals, days } = await adminStatsRepository.byDay(tx, range);
        const top = await adminStatsRepository.topProducts(tx, range, 10);
        expect(totals, zone).toEqual({ orders: 6, paidOrders: 4, grossCents: 20617, refundedCents: 0 });
        expect(
          days.map((d) => ({ date: d.date, orders: d.orders, revenue: d.grossCents / 100 })),
          zone,
        ).toEqual(want.byDay);
        expect(
          top.map((p) => ({ _id: p.id, name: p.name, qty: p.qty, revenue: p.revenueCents / 100 })),
          zone,
        ).toEqual(want.topProducts);
      });
    }
    // the first zone's calendar is 14 hours ahead: there a naive cast of 23:59:59 UTC lands on the next day
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Pacific/Kiritimati'`);
      const naive = await tx.execute<{ d: string }>(sql`select (timestamptz '2026-03-01T23:59:59Z')::date::text as d`);
      expect(naive.rows[0]!.d).toBe('2026-03-02');
    });
  });

  it('answers a single day, and a range with nothing in it as zeros', async () => {
    const day = (await stats('?from=2026-03-02&to=2026-03-02')).json();
    expect(day).toMatchObject({
      orders: 2,
      revenue: 50.5,
      paidOrders: 1,
      averageOrderValue: 50.5,
      byDay: [{ date: '2026-03-02', orders: 2, revenue: 50.5 }],
      topProducts: [{ _id: chair, name: 'Beta Chair', qty: 1, revenue: 50.5 }],
    });
    const none = (await stats('?from=2026-02-01&to=2026-02-03')).json();
    expect(none).toMatchObject({
      orders: 0,
      revenue: 0,
      paidOrders: 0,
      averageOrderValue: 0,
      refunded: 0,
      topProducts: [],
      byDay: [
        { date: '2026-02-01', orders: 0, revenue: 0 },
        { date: '2026-02-02', orders: 0, revenue: 0 },
        { date: '2026-02-03', orders: 0, revenue: 0 },
      ],
      toShip: 4,
    });
  });

  it('lists the stock at or under the threshold: variants with their own stock, products that sell theirs', async () => {
    const at = (n: number) => stats(`${RANGE}&lowStock=${n}`).then((r) => r.json() as Stats);
    const ten = await at(10);
    expect(ten.lowStockThreshold).toBe(10);
    expect(ten.lowStock).toEqual([
      ...expected().lowStock,
      { _id: hat, name: 'Hat', variant: '', countInStock: 7 },
      { _id: shirt, name: 'Shirt', variant: 'Blue', countInStock: 9 },
    ]);
    const zero = await at(0);
    expect(zero.lowStockThreshold).toBe(0);
    expect(zero.lowStock).toEqual([{ _id: empty, name: 'Epsilon Empty', variant: '', countInStock: 0 }]);
    // at most 20, lowest first
    const db = t.database.db;
    for (let i = 0; i < 25; i++)
      await createProduct(db, { name: `Bulk ${String(i).padStart(2, '0')}`, countInStock: 1 });
    const many = (await at(10)).lowStock;
    expect(many).toHaveLength(20);
    expect(many.map((s) => s.countInStock)).toEqual([0, ...Array(19).fill(1)]);
    expect(many.slice(0, 3).map((s) => `${s.name}/${s.variant}`)).toEqual(['Epsilon Empty/', 'Bulk 00/', 'Bulk 01/']);
    await db.delete(products).where(sql`${products.name} like 'Bulk %'`);
    expect((await at(5)).lowStock).toEqual(expected().lowStock);
  });

  it('defaults to the 30 days ending today (UTC), and to the 30 days ending `to`', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000);
    // an order of today, shipped (the range's only one), and one placed 30 days ago (just outside)
    const id = await order({
      createdAt: new Date().toISOString(),
      paidAt: new Date().toISOString(),
      isShipped: true,
      lines: [{ productId: lamp, name: 'Alpha Lamp', priceCents: 1500, qty: 1 }],
    });
    const before = await order({
      createdAt: new Date(day(-29).getTime() - 1000).toISOString(),
      lines: [{ productId: lamp, name: 'Alpha Lamp', priceCents: 100, qty: 1 }],
    });
    const body = (await stats()).json() as Stats;
    expect(body.to).toBe(today);
    expect(body.from).toBe(day(-29).toISOString().slice(0, 10));
    expect(body.byDay).toHaveLength(30);
    expect(body.byDay[0]!.date).toBe(body.from);
    expect(body.byDay.at(-1)).toEqual({ date: today, orders: 1, revenue: 15 });
    expect(body).toMatchObject({ orders: 1, revenue: 15, paidOrders: 1, averageOrderValue: 15, toShip: 4 });
    expect(body.lowStockThreshold).toBe(5);
    await t.database.db.delete(orders).where(inArray(orders.id, [id, before]));

    const ending = (await stats('?to=2026-03-05')).json() as Stats;
    expect(ending.from).toBe('2026-02-04');
    expect(ending.byDay).toHaveLength(30);
    // ⑥ was placed on 2026-02-28, within these 30 days
    expect(ending).toMatchObject({ to: '2026-03-05', orders: 7, revenue: 206.17 });
  });

  it(`answers ranges of up to ${STATS_MAX_DAYS} days, one entry per day`, async () => {
    const year = (await stats('?from=2024-01-01&to=2024-12-31')).json() as Stats;
    expect(year.byDay).toHaveLength(366);
    expect(year.byDay[59]!.date).toBe('2024-02-29');
    const longest = await stats('?from=2025-03-01&to=2026-03-01');
    expect(longest.statusCode, longest.body).toBe(200);
    expect((longest.json() as Stats).byDay).toHaveLength(366);
    // the ends of the calendar the database shares with JavaScript: years 1 and 9999
    const first = (await stats('?to=0001-01-05')).json() as Stats;
    expect(first).toMatchObject({ from: '0001-01-01', to: '0001-01-05', orders: 0, revenue: 0 });
    expect(first.byDay).toHaveLength(5);
    const last = (await stats('?from=9999-12-31&to=9999-12-31')).json() as Stats;
    expect(last.byDay).toEqual([{ date: '9999-12-31', orders: 0, revenue: 0 }]);
  });

  it('refuses a bad query with 400 and the reason', async () => {
    const cases: [string, string][] = [
      ['?from=2026-03-05&to=2026-03-01', STATS_MESSAGES.order],
      ['?from=2025-03-01&to=2026-03-02', STATS_MESSAGES.tooLong],
      ['?from=2000-01-01', STATS_MESSAGES.tooLong],
      [`?from=${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}`, STATS_MESSAGES.order],
      ['?from=2026-3-1&to=2026-03-05', STATS_MESSAGES.day('from')],
      ['?from=2026-02-30&to=2026-03-05', STATS_MESSAGES.day('from')],
      ['?from=0000-01-01&to=0000-01-02', STATS_MESSAGES.day('from')],
      ['?from=2026-03-01T00:00:00Z', STATS_MESSAGES.day('from')],
      ['?to=yesterday', STATS_MESSAGES.day('to')],
      ['?from=2026-03-01&from=2026-03-02', 'from: Invalid input: expected string, received array'],
      [`${RANGE}&lowStock=-1`, STATS_MESSAGES.lowStock],
      [`${RANGE}&lowStock=1.5`, STATS_MESSAGES.lowStock],
      [`${RANGE}&lowStock=lots`, STATS_MESSAGES.lowStock],
      [`${RANGE}&lowStock=1000001`, STATS_MESSAGES.lowStock],
    ];
    for (const [query, message] of cases) {
      const res = await stats(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual(bad(message));
    }
  });

  it('is for admins only: 401 without a token (a guest too), 403 for a signed-in user', async () => {
    for (const who of [{ headers: {} }, await guest(t.database.db, 'stats.guest@example.com')]) {
      const res = await stats(RANGE, who);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Not authorized, no token', code: 'NO_TOKEN' });
    }
    const res = await stats(RANGE, await signedIn(t.app));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Not authorized as an admin', code: 'FORBIDDEN' });
    // refused before the query is read
    expect((await stats('?from=nonsense', { headers: {} })).statusCode).toBe(401);
  });
});
