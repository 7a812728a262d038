import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, orderBody, placeOrder, signedIn, type Auth } from '#test/orders-support.ts';

let t: TestContext;
let owner: Awaited<ReturnType<typeof signedIn>>;
let other: Awaited<ReturnType<typeof signedIn>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let guestOwner: Awaited<ReturnType<typeof guest>>;
let orderId: string;
let guestOrderId: string;
const get = (url: string, auth: Auth = { headers: {} }) => t.app.inject({ method: 'GET', url, headers: auth.headers });

describe('who may see which order', () => {
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedIn(t.app, { username: 'owner_one' });
    other = await signedIn(t.app, { username: 'someone_else' });
    admin = await signedIn(t.app, { isAdmin: true, username: 'the_admin' });
    guestOwner = await guest(t.app.db, 'g@example.com');
    const p = await createProduct(t.app.db, { countInStock: 100, priceCents: 1000 });
    orderId = (await placeOrder(t.app, owner, orderBody([{ product: p.id, qty: 1 }]))).json()._id;
    guestOrderId = (await placeOrder(t.app, guestOwner, orderBody([{ product: p.id, qty: 2 }]))).json()._id;
    await placeOrder(t.app, other, orderBody([{ product: p.id, qty: 5 }]));
  });
  afterAll(async () => t?.close());

  it('shows an order to its owner and to an admin', async () => {
    expect((await get(`/api/orders/${orderId}`, owner)).statusCode).toBe(200);
    expect((await get(`/api/orders/${orderId}`, admin)).json()._id).toBe(orderId);
    expect((await get(`/api/orders/${guestOrderId}`, guestOwner)).json().user.isGuest).toBe(true);
  });

  it('refuses everyone else without showing anything of the order', async () => {
    const res = await get(`/api/orders/${orderId}`, other);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Not authorized to view this order', code: 'FORBIDDEN' });
    const otherGuest = await guest(t.app.db, 'x@example.com');
    expect((await get(`/api/orders/${guestOrderId}`, otherGuest)).statusCode).toBe(403);
    expect((await get(`/api/orders/${orderId}`, guestOwner)).statusCode).toBe(403);
    expect((await get(`/api/orders/${orderId}`)).statusCode).toBe(401);
    expect(
      (await get(`/api/orders/${orderId}`, { headers: { authorization: 'Bearer nonsense' } })).json().message,
    ).toBe('Not authorized, token failed');
    expect((await get(`/api/orders/${'0'.repeat(24)}`, owner)).statusCode).toBe(404);
    expect((await get('/api/orders/not-an-id', owner)).statusCode).toBe(404);
  });

  it('lists my orders only', async () => {
    const mine = (await get('/api/orders/myorders', owner)).json();
    expect(mine.map((o: { _id: string }) => o._id)).toEqual([orderId]);
    expect(mine[0]).toMatchObject({ totalPrice: 11.5, isPaid: false, isShipped: false, isDelivered: false });
    expect((await get('/api/orders/myorders', guestOwner)).json().map((o: { _id: string }) => o._id)).toEqual([
      guestOrderId,
    ]);
    expect((await get('/api/orders/myorders')).statusCode).toBe(401);
  });

  it('lists all orders to admins only', async () => {
    expect((await get('/api/orders', owner)).json().message).toBe('Not authorized as an admin');
    expect((await get('/api/orders', guestOwner)).statusCode).toBe(401);
    const all = (await get('/api/orders', admin)).json();
    expect(all).toMatchObject({ page: 1, pages: 1, total: 3 });
    expect(all.orders[0].user.username).toBe(other.user.username); // newest first
  });

  it('filters the admin list by id, username, dates, totals and states, in pages', async () => {
    const list = async (q: string) => (await get(`/api/orders?${q}`, admin)).json();
    expect((await list(`id=${orderId.slice(0, 20)}`)).orders.map((o: { _id: string }) => o._id)).toContain(orderId);
    expect((await list(`id=${orderId}`)).total).toBe(1);
    expect((await list('id=zz')).total).toBe(0);
    expect((await list('username=OWNER')).orders.map((o: { _id: string }) => o._id)).toEqual([orderId]);
    // invisible and control characters (a NUL byte PostgreSQL cannot take) are dropped before the search
    expect((await list('username=%00OWN%E2%80%8BER')).orders.map((o: { _id: string }) => o._id)).toEqual([orderId]);
    expect((await list('minTotal=20&maxTotal=30')).total).toBe(1); // the guest's 2 × $10 + tax = $23
    expect((await list('minTotal=50')).total).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`dateFrom=${today}&dateTo=${today}`)).total).toBe(3);
    expect((await list('dateTo=2000-01-01')).total).toBe(0);
    expect((await get('/api/orders?dateFrom=yesterday', admin)).statusCode).toBe(400);
    await t.app.db.update(orders).set({ isPaid: true, paidAt: new Date() }).where(eq(orders.id, orderId));
    expect((await list('paid=yes')).orders.map((o: { _id: string }) => o._id)).toEqual([orderId]);
    expect((await list('paid=no')).total).toBe(2);
    expect((await list('paid=yes&shipped=no&delivered=no')).total).toBe(1);
    expect((await list('shipped=yes')).total).toBe(0);
    const page2 = await list('pageSize=2&pageNumber=2');
    expect(page2).toMatchObject({ page: 2, pages: 2, total: 3 });
    expect(page2.orders).toHaveLength(1);
  });

  it('takes total filters up to the largest total an order can hold, and says so past it', async () => {
    expect((await get('/api/orders?minTotal=0&maxTotal=21474836.47', admin)).json().total).toBe(3);
    for (const [q, message] of [
      ['minTotal=1000000000', 'minTotal: must be at most 21474836.47'],
      ['maxTotal=21474836.48', 'maxTotal: must be at most 21474836.47'],
      ['maxTotal=-5', 'maxTotal: must be 0 or more'],
      ['minTotal=lots', 'minTotal: must be a number'],
    ]) {
      const res = await get(`/api/orders?${q}`, admin);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toEqual({ message, code: 'BAD_REQUEST' });
    }
  });

  it('takes any date filter from year 1 to 9999, to the last day and the last millisecond', async () => {
    const list = async (q: string) => {
      const res = await get(`/api/orders?${q}`, admin);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
      return res.json().total;
    };
    expect(await list('dateTo=9999-12-31')).toBe(3);
    expect(await list('dateFrom=9999-12-31')).toBe(0);
    expect(await list(`dateTo=${encodeURIComponent('9999-12-31T23:59:59.999Z')}`)).toBe(3);
    expect(await list(`dateFrom=${encodeURIComponent('9999-12-31T23:59:59.999Z')}`)).toBe(0);
    expect(await list('dateFrom=0001-01-01&dateTo=0001-01-01')).toBe(0);
    expect(await list(`dateFrom=${encodeURIComponent('0001-01-01T00:00:00Z')}`)).toBe(3);
    expect(await list(`dateFrom=${encodeURIComponent('2000-01-01T00:00:00+02:00')}`)).toBe(3);
  });

  it('refuses dates outside years 1 to 9999 and unreadable dates with a 400 that says so', async () => {
    const outside = [
      '0000-01-01',
      '10000-01-01',
      '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00.000Z',
      '+010000-01-01',
      '0001-01-01T00:00:00+01:00', // the last hour of year 0 in UTC
      '9999-12-31T23:59:59.999-01:00', // the first hour of year 10000 in UTC
    ];
    for (const key of ['dateFrom', 'dateTo'])
      for (const value of outside) {
        const res = await get(`/api/orders?${key}=${encodeURIComponent(value)}`, admin);
        expect(res.statusCode, `${key}=${value}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ message: `${key}: dates must be between years 1 and 9999`, code: 'BAD_REQUEST' });
      }
    for (const key of ['dateFrom', 'dateTo'])
      for (const value of [
        'yesterday',
        '2024-02-30',
        '2024-13-01',
        '2024-1-5',
        '1',
        '2024-05-01T25:00:00Z',
        '2024-05-01T12:00:00', // no time zone: an instant needs one
      ]) {
        const res = await get(`/api/orders?${key}=${encodeURIComponent(value)}`, admin);
        expect(res.statusCode, `${key}=${value}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({
          message: `${key}: not a date; use YYYY-MM-DD or an ISO date-time such as 2025-01-31T12:00:00Z`,
          code: 'BAD_REQUEST',
        });
      }
  });
});
