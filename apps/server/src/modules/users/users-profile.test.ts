import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestSessions, users } from '#server/db/schema/index.ts';
import { NO_WORKER, PASSWORD, createAccount } from '#test/accounts.ts';
import { solveCaptcha } from '#test/captcha.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
const profile = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/users/profile', headers, payload });
const address = {
  shipToFirstName: 'Ada',
  shipToLastName: 'Lovelace',
  address1: '1 Main  St',
  address2: '',
  city: 'Springfield',
  state: 'il',
  postalCode: '62701',
  country: 'US',
};

async function newGuest() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/guest',
    payload: { grecaptcha: await solveCaptcha(t.app) },
  });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = res.cookies.find((c) => c.name === 'guestToken')!;
  return { res, cookie, headers: { cookie: `guestToken=${cookie.value}` } };
}

describe('profile, guests and sessions', () => {
  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('updates names and e-mail, counts the updates and asks for a captcha from the second on', async () => {
    const { user, headers } = await createAccount(t);
    const first = await profile(headers, {
      firstName: '  Ada   May ',
      lastName: 'King',
      email: user.email!.toUpperCase(),
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      firstName: 'Ada May',
      lastName: 'King',
      email: user.email,
      profileUpdateCount: 1,
    });
    expect(first.json().token).toBeTruthy();
    // a new address needs the password and waits for its link: the sign-in address stays until then
    const second = await profile(headers, {
      firstName: 'Ada',
      lastName: 'King',
      email: 'ada.king@example.com',
      currentPassword: PASSWORD,
    });
    expect(second.json()).toMatchObject({
      profileUpdateCount: 2,
      email: user.email,
      pendingEmail: 'ada.king@example.com',
    });

    const third = await profile(headers, { firstName: 'Ada', lastName: 'Byron', email: 'ada.king@example.com' });
    expect(third.statusCode).toBe(400);
    expect(third.json()).toEqual({ message: 'Captcha required', code: 'CAPTCHA_REQUIRED' });
    const withCaptcha = await profile(headers, {
      firstName: 'Ada',
      lastName: 'Byron',
      email: 'ada.king@example.com',
      grecaptcha: await solveCaptcha(t.app),
    });
    expect(withCaptcha.statusCode).toBe(200);
    expect(withCaptcha.json()).toMatchObject({ lastName: 'Byron', profileUpdateCount: 3 });
  });

  it('gives the exact messages', async () => {
    const { headers } = await createAccount(t);
    const cases: [object, string][] = [
      [{ firstName: '', lastName: 'X', email: 'a@b.co' }, 'Required'],
      [{ firstName: '<script>', lastName: 'X', email: 'a@b.co' }, 'Invalid'],
      [{ firstName: 'A', lastName: 'X', email: 'nope' }, 'Invalid format'],
    ];
    for (const [payload, message] of cases) {
      const res = await profile(headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, code: 'BAD_REQUEST' });
    }
  });

  it('saves a shipping address for an account without counting it as a profile update', async () => {
    const { user, headers } = await createAccount(t);
    const res = await profile(headers, { shippingAddress: address, email: 'ignored@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      email: user.email,
      profileUpdateCount: 0,
      shippingAddress: { ...address, address1: '1 Main St', state: 'IL' },
    });
    const bad = await profile(headers, { shippingAddress: { ...address, city: '' } });
    expect(bad.json()).toEqual({ message: 'City is required', code: 'BAD_REQUEST' });
  });

  it('creates a guest behind an http-only cookie and restores it from the cookie', async () => {
    const { res, cookie, headers } = await newGuest();
    expect(res.json()).toMatchObject({ isGuest: true, isActive: true, isAdmin: false, email: '' });
    expect(res.json().token).toBeUndefined();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.maxAge).toBe(30 * 24 * 60 * 60);
    const [stored] = await t.database.db.select().from(guestSessions).where(eq(guestSessions.userId, res.json()._id));
    expect(stored!.tokenHash).not.toBe(cookie.value);

    const session = await t.app.inject({ method: 'GET', url: '/api/users/session', headers });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ _id: res.json()._id, isGuest: true });

    const saved = await profile(headers, { shippingAddress: address, email: ' Guest@Example.COM ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      isGuest: true,
      email: 'guest@example.com',
      shippingAddress: { city: 'Springfield' },
    });
    expect(saved.json().token).toBeUndefined();
    // guests may share an address with each other and with an account
    expect(
      (await profile((await newGuest()).headers, { shippingAddress: address, email: 'guest@example.com' })).statusCode,
    ).toBe(200);

    const names = await profile(headers, { firstName: 'G', lastName: 'H', email: 'g@example.com' });
    expect(names.statusCode).toBe(400);
    expect(names.json()).toEqual({ message: 'Guest accounts cannot update the profile.', code: 'BAD_REQUEST' });
  });

  it('answers 401 without a guest cookie and 404 (clearing it) for an unknown or expired one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/users/session' });
    expect(none.statusCode).toBe(401);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/users/session',
      headers: { cookie: 'guestToken=made-up' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Guest session not found', code: 'NOT_FOUND' });
    expect(unknown.cookies.find((c) => c.name === 'guestToken')?.value).toBe('');

    const { res, headers } = await newGuest();
    await t.database.db
      .update(guestSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(guestSessions.userId, res.json()._id));
    expect((await t.app.inject({ method: 'GET', url: '/api/users/session', headers })).statusCode).toBe(404);
    expect((await profile(headers, { shippingAddress: address })).statusCode).toBe(401);
  });

  it('needs a captcha to create a guest', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/guest', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Captcha required', code: 'CAPTCHA_REQUIRED' });
  });

  it('refuses the profile without credentials, with a bad token, and for a deleted or deactivated user', async () => {
    const anonymous = await profile({}, { shippingAddress: address });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Not authorized, no token', code: 'NO_TOKEN' });
    const garbage = await profile({ authorization: 'Bearer abc.def.ghi' }, { shippingAddress: address });
    expect(garbage.json()).toEqual({ message: 'Not authorized, token failed', code: 'TOKEN_FAILED' });

    const deactivated = await createAccount(t);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, deactivated.user.id));
    expect((await profile(deactivated.headers, { shippingAddress: address })).json()).toEqual({
      message: 'Not authorized, token failed',
      code: 'TOKEN_FAILED',
    });
    const deleted = await createAccount(t);
    await t.database.db.delete(users).where(eq(users.id, deleted.user.id));
    expect((await profile(deleted.headers, { shippingAddress: address })).json()).toEqual({
      message: 'Not authorized, token failed',
      code: 'TOKEN_FAILED',
    });
  });
});
