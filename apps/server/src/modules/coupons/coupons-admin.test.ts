import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coupons, orders } from '#server/db/schema/index.ts';
import { pgErrorOf } from '#server/lib/sql.ts';
import { createAccount } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, usAddress } from '#test/orders-support.ts';
import { couponsAdminRepository } from './coupons-admin.repository.ts';

type Auth = { headers: Record<string, string> };
let t: TestContext;
let admin: Auth;
let shopper: Auth;
const anon: Auth = { headers: {} };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: Auth = admin, payload?: object) =>
  t.app.inject({ method, url, headers: auth.headers, ...(payload ? { payload } : {}) });

let seq = 0;
/** A code no other test uses. */
const uniqueCode = (prefix = 'C') => `${prefix}${Date.now().toString(36).toUpperCase()}${++seq}`;
const percentBody = (o: Record<string, unknown> = {}) => ({ code: uniqueCode(), type: 'percent', value: 10, ...o });
async function create(body: Record<string, unknown> = percentBody()) {
  const res = await call('POST', '/api/coupons', admin, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const UNKNOWN_ID = '0123456789abcdef01234567';
const notFound = { message: 'Discount code not found', code: 'NOT_FOUND' };
const bad = (message: string) => ({ message, code: 'BAD_REQUEST' });

describe('admin discount codes', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
  });
  afterAll(async () => t?.close());

  // a guest (checkout cookie, no bearer token) has no account to be an admin with: 401 like a visitor
  it('is for admins only: 401 without a token (a guest too), 403 for a signed-in user', async () => {
    const c = await create();
    const g = await guest(t.database.db, 'coupon.guest@example.com');
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['GET', '/api/coupons'],
      ['POST', '/api/coupons', percentBody()],
      ['GET', `/api/coupons/${c._id}`],
      ['PUT', `/api/coupons/${c._id}`, { isActive: false }],
      ['DELETE', `/api/coupons/${c._id}`],
    ];
    for (const [method, url, body] of routes) {
      for (const who of [anon, g]) {
        const res = await call(method, url, who, body);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual({ message: 'Not authorized, no token', code: 'NO_TOKEN' });
      }
      const res = await call(method, url, shopper, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ message: 'Not authorized as an admin', code: 'FORBIDDEN' });
    }
    // nothing was changed or removed by the refused calls
    expect((await call('GET', `/api/coupons/${c._id}`)).json()).toEqual(c);
  });

  it('creates each type: a percentage, a fixed amount in dollars, and free shipping with value 0', async () => {
    const percent = await create({
      code: uniqueCode('PCT'),
      type: 'percent',
      value: 12.5,
      minItemsPrice: 20.05,
      startsAt: '2030-01-01T00:00:00Z',
      endsAt: '2030-02-01T12:30:00.000+02:00',
      usageLimit: 100,
      perCustomerLimit: 1,
      isActive: false,
    });
    expect(percent).toMatchObject({
      type: 'percent',
      value: 12.5,
      minItemsPrice: 20.05,
      startsAt: '2030-01-01T00:00:00.000Z',
      endsAt: '2030-02-01T10:30:00.000Z',
      usageLimit: 100,
      perCustomerLimit: 1,
      isActive: false,
      timesUsed: 0,
    });
    expect(percent._id).toMatch(/^[0-9a-f]{24}$/);
    expect(Date.parse(percent.createdAt)).not.toBeNaN();
    expect(Date.parse(percent.updatedAt)).not.toBeNaN();
    const [row] = await t.database.db.select().from(coupons).where(eq(coupons.id, percent._id));
    // stored in hundredths: of a percent here, of a dollar (cents) for fixed amounts
    expect(row).toMatchObject({ value: 1250, minItemsCents: 2005 });

    const fixed = await create({ code: uniqueCode('FIX'), type: 'fixed', value: '7.99' });
    expect(fixed).toMatchObject({
      type: 'fixed',
      value: 7.99,
      minItemsPrice: 0,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: null,
      isActive: true,
      timesUsed: 0,
    });

    const ship = await create({ code: uniqueCode('SHIP'), type: 'free_shipping', value: 55 });
    expect(ship).toMatchObject({ type: 'free_shipping', value: 0 });
    const [shipRow] = await t.database.db.select().from(coupons).where(eq(coupons.id, ship._id));
    expect(shipRow!.value).toBe(0);
    expect((await create({ code: uniqueCode('SHIP'), type: 'free_shipping' })).value).toBe(0);
  });

  it('stores the code trimmed and upper-case, unique whatever the case', async () => {
    const code = uniqueCode('Save');
    const c = await create({ code: `  ${code.toLowerCase()} `, type: 'fixed', value: 5 });
    expect(c.code).toBe(code.toUpperCase());
    for (const again of [code.toLowerCase(), code.toUpperCase(), ` ${code} `]) {
      const res = await call('POST', '/api/coupons', admin, { code: again, type: 'percent', value: 5 });
      expect(res.statusCode, again).toBe(400);
      expect(res.json()).toEqual({ message: 'A discount code with this code already exists', code: 'DUPLICATE' });
    }
    // an edit cannot take another code's code either, but may re-case its own
    const other = await create();
    const taken = await call('PUT', `/api/coupons/${other._id}`, admin, { code: code.toLowerCase() });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ message: 'A discount code with this code already exists', code: 'DUPLICATE' });
    const recased = await call('PUT', `/api/coupons/${c._id}`, admin, { code: code.toLowerCase() });
    expect(recased.statusCode, recased.body).toBe(200);
    expect(recased.json().code).toBe(code.toUpperCase());
  });

  it('refuses each bad field with its message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'NO WAY' }, 'Code must be 3 to 32 letters, digits, hyphens or underscores'],
      [{ code: 'ÉTÉ10' }, 'Code must be 3 to 32 letters, digits, hyphens or underscores'],
      [{ code: 'AB' }, 'Code must be 3 to 32 letters, digits, hyphens or underscores'],
      [{ code: 'A'.repeat(33) }, 'Code must be 3 to 32 letters, digits, hyphens or underscores'],
      [{ code: 42 }, 'Code must be 3 to 32 letters, digits, hyphens or underscores'],
      [{ type: 'bogo' }, 'Type must be percent, fixed or free_shipping'],
      [{ value: 0 }, 'A percentage must be from 1 to 100, with at most two decimals'],
      [{ value: 101 }, 'A percentage must be from 1 to 100, with at most two decimals'],
      [{ value: 10.125 }, 'A percentage must be from 1 to 100, with at most two decimals'],
      [{ value: undefined }, 'A percentage must be from 1 to 100, with at most two decimals'],
      [{ type: 'fixed', value: 0 }, 'A fixed amount must be more than 0, with at most two decimals'],
      [{ type: 'fixed', value: -5 }, 'A fixed amount must be more than 0, with at most two decimals'],
      [{ type: 'fixed', value: 'ten' }, 'A fixed amount must be more than 0, with at most two decimals'],
      [{ minItemsPrice: -1 }, 'Minimum items price must be 0 or more, with at most two decimals'],
      [{ minItemsPrice: 1.001 }, 'Minimum items price must be 0 or more, with at most two decimals'],
      [{ startsAt: '2030-02-01T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'The end must be after the start'],
      [{ startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'The end must be after the start'],
      [{ startsAt: 'next tuesday' }, 'Start must be a date and time, or empty'],
      [{ endsAt: '2030-13-45' }, 'End must be a date and time, or empty'],
      [{ usageLimit: 0 }, 'Usage limit must be empty or a whole number from 1'],
      [{ usageLimit: 2.5 }, 'Usage limit must be empty or a whole number from 1'],
      [{ perCustomerLimit: 0 }, 'Limit per customer must be empty or a whole number from 1'],
      [{ isActive: 'yes' }, 'Active must be true or false'],
    ];
    const before = (await call('GET', '/api/coupons')).json().length;
    for (const [fields, message] of cases) {
      const res = await call('POST', '/api/coupons', admin, percentBody(fields));
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json(), JSON.stringify(fields)).toEqual(bad(message));
    }
    // none was stored
    expect((await call('GET', '/api/coupons')).json()).toHaveLength(before);
    // the same rules hold for an edit
    const c = await create();
    for (const [fields, message] of cases.filter(([f]) => !('value' in f && f.value === undefined))) {
      const res = await call('PUT', `/api/coupons/${c._id}`, admin, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json(), JSON.stringify(fields)).toEqual(bad(message));
    }
    expect((await call('GET', `/api/coupons/${c._id}`)).json()).toEqual(c);
  });

  it('accepts form text: numbers as text, and empty dates and limits as none', async () => {
    const c = await create({
      code: uniqueCode(),
      type: 'percent',
      value: '15',
      minItemsPrice: '',
      startsAt: '',
      endsAt: null,
      usageLimit: '',
      perCustomerLimit: '3',
    });
    expect(c).toMatchObject({
      value: 15,
      minItemsPrice: 0,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: 3,
    });
  });

  it('lists every code, newest first, and shows one', async () => {
    const first = await create();
    const second = await create({ code: uniqueCode(), type: 'fixed', value: 3 });
    const third = await create({ code: uniqueCode(), type: 'free_shipping' });
    const res = await call('GET', '/api/coupons');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { _id: string }[];
    const ids = list.map((c) => c._id);
    expect(ids.slice(0, 3)).toEqual([third._id, second._id, first._id]);
    expect(list[1]).toEqual(second);

    const one = await call('GET', `/api/coupons/${second._id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(second);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [UNKNOWN_ID, 'not-an-id', 'ABCDEF0123456789ABCDEF01', 'x'.repeat(100)]) {
      for (const [method, body] of [['GET'], ['PUT', { isActive: false }], ['DELETE']] as const) {
        const res = await call(method, `/api/coupons/${id}`, admin, body);
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toEqual(notFound);
      }
    }
  });

  it('edits only the given fields and keeps the rest', async () => {
    const c = await create({
      code: uniqueCode(),
      type: 'percent',
      value: 20,
      minItemsPrice: 50,
      startsAt: '2030-01-01T00:00:00.000Z',
      endsAt: '2031-01-01T00:00:00.000Z',
      usageLimit: 10,
      perCustomerLimit: 2,
    });
    const res = await call('PUT', `/api/coupons/${c._id}`, admin, { isActive: false });
    expect(res.statusCode, res.body).toBe(200);
    const { isActive, updatedAt, ...rest } = res.json();
    expect(isActive).toBe(false);
    expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));
    const { isActive: _wasActive, updatedAt: _wasUpdated, ...before } = c;
    expect(rest).toEqual(before);
    expect((await call('GET', `/api/coupons/${c._id}`)).json()).toEqual(res.json());

    // empty dates and limits clear them; the read-only fields and unknown ones are ignored
    const cleared = await call('PUT', `/api/coupons/${c._id}`, admin, {
      startsAt: null,
      endsAt: '',
      usageLimit: null,
      timesUsed: 99,
      _id: UNKNOWN_ID,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({
      _id: c._id,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: 2,
      timesUsed: 0,
      value: 20,
      minItemsPrice: 50,
    });

    // a body that changes nothing is refused
    for (const body of [{}, { timesUsed: 3 }, { _id: c._id }]) {
      const empty = await call('PUT', `/api/coupons/${c._id}`, admin, body);
      expect(empty.statusCode, JSON.stringify(body)).toBe(400);
      expect(empty.json()).toEqual({ message: 'Nothing to update', code: 'NOTHING_TO_UPDATE' });
    }
  });

  it('changes the type: percent to fixed with a new value, and to free shipping with value 0', async () => {
    const c = await create(percentBody({ value: 15 }));
    const fixed = await call('PUT', `/api/coupons/${c._id}`, admin, { type: 'fixed', value: 4.5 });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({ type: 'fixed', value: 4.5, code: c.code });
    const [row] = await t.database.db.select().from(coupons).where(eq(coupons.id, c._id));
    expect(row).toMatchObject({ type: 'fixed', value: 450 });

    // back to percent with a value out of its range (the stored 4.5 would be fine; 150 is not)
    const tooMuch = await call('PUT', `/api/coupons/${c._id}`, admin, { type: 'percent', value: 150 });
    expect(tooMuch.json()).toEqual(bad('A percentage must be from 1 to 100, with at most two decimals'));

    const ship = await call('PUT', `/api/coupons/${c._id}`, admin, { type: 'free_shipping' });
    expect(ship.statusCode, ship.body).toBe(200);
    expect(ship.json()).toMatchObject({ type: 'free_shipping', value: 0 });
    const [shipRow] = await t.database.db.select().from(coupons).where(eq(coupons.id, c._id));
    expect(shipRow!.value).toBe(0);

    // from free shipping, a percentage needs its value
    const noValue = await call('PUT', `/api/coupons/${c._id}`, admin, { type: 'percent' });
    expect(noValue.json()).toEqual(bad('A percentage must be from 1 to 100, with at most two decimals'));
    const back = await call('PUT', `/api/coupons/${c._id}`, admin, { type: 'percent', value: '30' });
    expect(back.json()).toMatchObject({ type: 'percent', value: 30 });
  });

  it('checks an edited end against the stored start, and the reverse', async () => {
    const c = await create(percentBody({ startsAt: '2030-06-01T00:00:00Z', endsAt: '2030-07-01T00:00:00Z' }));
    const early = await call('PUT', `/api/coupons/${c._id}`, admin, { endsAt: '2030-05-01T00:00:00Z' });
    expect(early.json()).toEqual(bad('The end must be after the start'));
    const late = await call('PUT', `/api/coupons/${c._id}`, admin, { startsAt: '2030-08-01T00:00:00Z' });
    expect(late.json()).toEqual(bad('The end must be after the start'));
  });

  it('will not set the usage limit below the times the code was already used', async () => {
    const c = await create(percentBody({ usageLimit: 10 }));
    // set-up: the code was redeemed 5 times
    await t.database.db.update(coupons).set({ timesUsed: 5 }).where(eq(coupons.id, c._id));
    for (const usageLimit of [4, 1]) {
      const res = await call('PUT', `/api/coupons/${c._id}`, admin, { usageLimit });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(bad('Usage limit cannot be below the 5 times this code was already used'));
    }
    const same = await call('PUT', `/api/coupons/${c._id}`, admin, { usageLimit: 5 });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ usageLimit: 5, timesUsed: 5 });
    const unlimited = await call('PUT', `/api/coupons/${c._id}`, admin, { usageLimit: null });
    expect(unlimited.json()).toMatchObject({ usageLimit: null, timesUsed: 5 });
  });

  it('has the database refuse a usage limit below the uses too (an order counted one since the check)', async () => {
    const c = await create(percentBody({ usageLimit: 3 }));
    await t.database.db.update(coupons).set({ timesUsed: 3 }).where(eq(coupons.id, c._id));
    const err = await couponsAdminRepository
      .update(t.database.db, c._id, { code: c.code, type: 'percent', value: 1000, usageLimit: 2 })
      .catch((e: unknown) => e);
    // the constraint the service turns into the same 400 as its own check
    expect(pgErrorOf(err)).toMatchObject({ code: '23514', constraint: 'coupons_usage_within_limit' });
  });

  it('deletes a code: it is gone, and orders that used it keep the code they were placed with', async () => {
    const c = await create();
    const [order] = await t.database.db
      .insert(orders)
      .values({
        email: 'coupon.buyer@example.com',
        shippingAddress: usAddress,
        itemsCents: 1000,
        taxCents: 135,
        shippingCents: 0,
        totalCents: 1035,
        couponId: c._id,
        couponCode: c.code,
        discountCents: 100,
      })
      .returning();

    const res = await call('DELETE', `/api/coupons/${c._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Discount code removed' });
    expect((await call('GET', `/api/coupons/${c._id}`)).json()).toEqual(notFound);
    expect((await call('GET', `/api/coupons/${c._id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/coupons')).json().map((x: { _id: string }) => x._id)).not.toContain(c._id);
    const again = await call('DELETE', `/api/coupons/${c._id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(notFound);

    const [kept] = await t.database.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(kept).toMatchObject({ couponId: null, couponCode: c.code, discountCents: 100 });
    // the code is free again
    expect((await create({ code: c.code, type: 'fixed', value: 1 })).code).toBe(c.code);
  });
});
