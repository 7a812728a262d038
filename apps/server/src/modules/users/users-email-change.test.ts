import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '#server/db/schema/index.ts';
import { hashToken } from '#server/lib/tokens.ts';
import { NO_WORKER, PASSWORD, createAccount, lastMailTo, mailCount } from '#test/accounts.ts';
import { solveCaptcha } from '#test/captcha.ts';
import { linkToken } from '#test/smtp.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

/**
 * Changing the sign-in address: it needs the current password and the new address's consent (a link
 * sent there), the old address is told, and every link is bound to the address it was sent to, so a
 * reset link outlives neither a password change nor an address change.
 */
let t: TestContext;
const PUBLIC_URL = 'https://shop.example.test';
const post = (url: string, payload: object = {}) => t.app.inject({ method: 'POST', url, payload });
const profile = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/users/profile', headers, payload });
const login = async (email: string, password = PASSWORD) =>
  post('/api/users/login', { email, password, grecaptcha: await solveCaptcha(t.app) });
let n = 0;
const fresh = () => `moved.${Date.now().toString(36)}.${++n}@example.com`;

const changeLink = async (email: string) =>
  linkToken((await lastMailTo(t.database.db, email))!, `${PUBLIC_URL}/user/confirm-email`);
const resetLink = async (email: string) => {
  expect((await post('/api/users/fpw', { email })).statusCode).toBe(200);
  return linkToken((await lastMailTo(t.database.db, email))!, `${PUBLIC_URL}/users/resetpw`);
};
const askChange = (headers: Record<string, string>, email: string, extra: object = { currentPassword: PASSWORD }) =>
  profile(headers, { firstName: 'Ada', lastName: 'King', email, ...extra });
const row = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;

describe('changing the sign-in address', () => {
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL }, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('needs the current password: a stolen token alone cannot move the account', async () => {
    const { user, headers } = await createAccount(t);
    const target = fresh();
    const missing = await askChange(headers, target, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      message: 'Enter your current password to change your e-mail address',
      code: 'BAD_REQUEST',
    });
    const wrong = await askChange(headers, target, { currentPassword: 'Not-my-pass-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Current password is incorrect', code: 'BAD_REQUEST' });
    expect(await row(user.id)).toMatchObject({ email: user.email, pendingEmail: null, firstName: user.firstName });
    expect(await mailCount(t.database.db, target)).toBe(0);
  });

  it('switches only when the link sent to the new address is used, and tells the old address', async () => {
    const { user, headers } = await createAccount(t);
    const target = fresh();
    const res = await askChange(headers, target.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      email: user.email,
      pendingEmail: target,
      firstName: 'Ada',
      message: `We sent a confirmation link to ${target}. Your e-mail address changes when you open it.`,
    });
    const notice = await lastMailTo(t.database.db, user.email!);
    expect(notice!.subject).toMatch(/^A change of your e-mail address was requested/);
    expect(notice!.text).toContain(target);

    // until the link is used the account signs in with its old address only
    expect((await login(target)).statusCode).toBe(401);
    expect((await login(user.email!)).statusCode).toBe(200);

    const token = await changeLink(target);
    const done = await post(`/api/users/confirm-email/${token}`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      message: 'Your e-mail address has been changed. Sign in with the new address from now on.',
      email: target,
    });
    expect(await row(user.id)).toMatchObject({ email: target, pendingEmail: null });
    expect((await login(target)).statusCode).toBe(200);
    expect((await login(user.email!)).statusCode).toBe(401);
    expect((await lastMailTo(t.database.db, user.email!))!.subject).toMatch(/^Your e-mail address was changed/);
    // single use
    expect((await post(`/api/users/confirm-email/${token}`)).json()).toEqual({
      message: 'Invalid or expired confirmation link',
      code: 'BAD_REQUEST',
    });
  });

  it('answers alike when the new address has an account, and only its owner learns of it', async () => {
    const { headers } = await createAccount(t);
    const { user: owner } = await createAccount(t);
    const before = await mailCount(t.database.db, owner.email!);
    const res = await askChange(headers, owner.email!.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      `We sent a confirmation link to ${owner.email}. Your e-mail address changes when you open it.`,
    );
    expect(res.json().pendingEmail).toBe(owner.email);
    expect(await mailCount(t.database.db, owner.email!)).toBe(before + 1);
    const mail = await lastMailTo(t.database.db, owner.email!);
    expect(mail!.subject).toMatch(/^Your address was offered for another account/);
    expect(mail!.text).not.toContain('/user/confirm-email/');
  });

  it('refuses the link when the address found an owner in the meantime', async () => {
    const { headers } = await createAccount(t);
    const target = fresh();
    await askChange(headers, target);
    const token = await changeLink(target);
    await createAccount(t, { email: target });
    const res = await post(`/api/users/confirm-email/${token}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'This e-mail address is no longer available', code: 'BAD_REQUEST' });
  });

  it('withdraws a pending change when the current address is saved again, and a newer request replaces it', async () => {
    const { user, headers } = await createAccount(t);
    const first = fresh();
    await askChange(headers, first);
    const firstLink = await changeLink(first);
    const second = fresh();
    await askChange(headers, second);
    expect((await post(`/api/users/confirm-email/${firstLink}`)).statusCode).toBe(400);
    const secondLink = await changeLink(second);
    const back = await profile(headers, {
      firstName: 'Ada',
      lastName: 'King',
      email: user.email!,
      grecaptcha: await solveCaptcha(t.app),
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().pendingEmail).toBeUndefined();
    expect((await post(`/api/users/confirm-email/${secondLink}`)).statusCode).toBe(400);
    expect((await row(user.id)).email).toBe(user.email);
  });

  it('ends a reset link sent to the old address once the address changes', async () => {
    const { user, headers } = await createAccount(t);
    const reset = await resetLink(user.email!);
    const target = fresh();
    await askChange(headers, target);
    expect((await post(`/api/users/confirm-email/${await changeLink(target)}`)).statusCode).toBe(200);
    const res = await post(`/api/users/resetpw/${reset}`, { newPassword: 'Brand-new-pass9' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid or expired password reset link', code: 'BAD_REQUEST' });
  });

  it('binds each link to its address even when an admin changes the address', async () => {
    const { user } = await createAccount(t);
    const admin = await createAccount(t, { isAdmin: true });
    const reset = await resetLink(user.email!);
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.headers,
      payload: { email: fresh() },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await post(`/api/users/resetpw/${reset}`, { newPassword: 'Brand-new-pass9' })).statusCode).toBe(400);
  });

  it('ends reset and address-change links on a password change', async () => {
    const { user, headers } = await createAccount(t);
    const reset = await resetLink(user.email!);
    const target = fresh();
    await askChange(headers, target);
    const change = await changeLink(target);
    const changed = await profile(headers, { currentPassword: PASSWORD, password: 'Changed-pass-1' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().pendingEmail).toBeUndefined();
    expect((await post(`/api/users/resetpw/${reset}`, { newPassword: 'Brand-new-pass9' })).statusCode).toBe(400);
    expect((await post(`/api/users/confirm-email/${change}`)).statusCode).toBe(400);
    expect((await row(user.id)).email).toBe(user.email);
  });

  it('ends every outstanding link when an admin deactivates the account', async () => {
    const { user } = await createAccount(t);
    const admin = await createAccount(t, { isAdmin: true });
    const reset = await resetLink(user.email!);
    const off = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.headers,
      payload: { isActive: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const open = await t.database.db.select().from(authTokens).where(eq(authTokens.userId, user.id));
    expect(open.filter((tok) => tok.usedAt === null && tok.purpose !== 'signup')).toEqual([]);
    // even if an admin switches the account back on, the old link stays dead
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: admin.headers,
      payload: { isActive: true },
    });
    expect((await post(`/api/users/resetpw/${reset}`, { newPassword: 'Brand-new-pass9' })).statusCode).toBe(400);
  });

  it('ends an older address-change link when a reset sets a new password', async () => {
    const { user, headers } = await createAccount(t);
    const target = fresh();
    await askChange(headers, target);
    const change = await changeLink(target);
    const reset = await resetLink(user.email!);
    expect((await post(`/api/users/resetpw/${reset}`, { newPassword: 'Brand-new-pass9' })).statusCode).toBe(200);
    expect((await post(`/api/users/confirm-email/${change}`)).statusCode).toBe(400);
    expect(await row(user.id)).toMatchObject({ email: user.email, pendingEmail: null });
  });

  it('refuses a weak new password on reset, as registration does', async () => {
    const { user } = await createAccount(t);
    const reset = await resetLink(user.email!);
    const weak = await post(`/api/users/resetpw/${reset}`, { newPassword: 'aaaaaaaa' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ message: 'Min 8 chars, upper, lower, digit, special', code: 'BAD_REQUEST' });
    // the link was not used up by the refused attempt
    expect((await post(`/api/users/resetpw/${reset}`, { newPassword: 'Strong-pass-9' })).statusCode).toBe(200);
  });

  it('stores only the hash of an address-change link, with the address it was sent to', async () => {
    const { user, headers } = await createAccount(t);
    const target = fresh();
    await askChange(headers, target);
    const token = await changeLink(target);
    const [stored] = await t.database.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(token)));
    expect(stored).toMatchObject({ userId: user.id, purpose: 'email', email: target, usedAt: null });
  });
});
