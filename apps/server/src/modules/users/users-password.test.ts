import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '#server/db/schema/index.ts';
import { hashToken } from '#server/lib/tokens.ts';
import { NO_WORKER, PASSWORD, createAccount, lastMailTo, mailCount } from '#test/accounts.ts';
import { linkToken } from '#test/smtp.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
const PUBLIC_URL = 'https://shop.example.test';
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
const profile = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/users/profile', headers, payload });
const login = (email: string, password: string) => post('/api/users/login', { email, password });

async function resetLink(email: string): Promise<string> {
  const res = await post('/api/users/fpw', { email });
  expect(res.statusCode).toBe(200);
  return linkToken((await lastMailTo(t.database.db, email.toLowerCase()))!, `${PUBLIC_URL}/users/resetpw`);
}

describe('forgotten and changed passwords', () => {
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL, CAPTCHA_PROVIDER: 'none' }, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('answers forgot-password the same whether or not the address has an account', async () => {
    const { user } = await createAccount(t);
    const known = await post('/api/users/fpw', { email: user.email!.toUpperCase() });
    const unknown = await post('/api/users/fpw', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe('If an account uses this email address, a password reset email is on its way.');
    expect(await mailCount(t.database.db, user.email!)).toBe(1);
    expect(await mailCount(t.database.db, 'nobody@example.com')).toBe(0);
    const mail = (await lastMailTo(t.database.db, user.email!))!;
    expect(mail.subject).toContain('Reset your password');
    expect(mail.text).toContain(`${PUBLIC_URL}/users/resetpw/`);
    expect((await post('/api/users/fpw', { email: 'bad' })).json()).toEqual({
      message: 'Invalid email format',
      code: 'BAD_REQUEST',
    });
  });

  it('sends no reset link to an unconfirmed or deactivated account', async () => {
    const { user: pending } = await createAccount(t, { isActive: false, emailConfirmedAt: null });
    const { user: off } = await createAccount(t, { isActive: false });
    for (const u of [pending, off]) {
      expect((await post('/api/users/fpw', { email: u.email! })).statusCode).toBe(200);
      expect(await mailCount(t.database.db, u.email!)).toBe(0);
    }
  });

  it('resets the password once with the link and ends older sessions', async () => {
    const { user, headers } = await createAccount(t);
    const token = await resetLink(user.email!);
    const short = await post(`/api/users/resetpw/${token}`, { newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: 'New password must be at least 8 characters', code: 'BAD_REQUEST' });

    const res = await post(`/api/users/resetpw/${token}`, { newPassword: 'Brand-new-pass9' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been reset. You can now sign in.' });
    const reused = await post(`/api/users/resetpw/${token}`, { newPassword: 'Another-pass9' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: 'Invalid or expired password reset link', code: 'BAD_REQUEST' });

    const old = await profile(headers, { firstName: 'A', lastName: 'B', email: user.email! });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({ message: 'Not authorized, token failed', code: 'TOKEN_FAILED' });
    expect((await login(user.email!, PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email!, 'Brand-new-pass9')).statusCode).toBe(200);
  });

  it('refuses an expired reset link and a superseded one', async () => {
    const { user } = await createAccount(t);
    const first = await resetLink(user.email!);
    const second = await resetLink(user.email!);
    expect((await post(`/api/users/resetpw/${first}`, { newPassword: 'Brand-new-pass9' })).statusCode).toBe(400);
    await t.database.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(authTokens.tokenHash, hashToken(second)));
    const expired = await post(`/api/users/resetpw/${second}`, { newPassword: 'Brand-new-pass9' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('Invalid or expired password reset link');
  });

  it('changes the password on the profile with the exact messages', async () => {
    const { user, headers } = await createAccount(t);
    const cases: [object, string][] = [
      [{ currentPassword: '', password: 'Longenough1' }, 'All fields are required'],
      [{ currentPassword: PASSWORD }, 'All fields are required'],
      [{ currentPassword: PASSWORD, password: 'short' }, 'New password must be at least 8 characters'],
      // the same strength rule as a new account's password
      [{ currentPassword: PASSWORD, password: 'aaaaaaaa' }, 'Min 8 chars, upper, lower, digit, special'],
      [{ currentPassword: PASSWORD, password: 'Longenough1' }, 'Min 8 chars, upper, lower, digit, special'],
      [{ currentPassword: 'Not-my-pass1', password: 'Longenough-1' }, 'Current password is incorrect'],
    ];
    for (const [payload, message] of cases) {
      const res = await profile(headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, code: 'BAD_REQUEST' });
    }
    const res = await profile(headers, { currentPassword: PASSWORD, password: 'Longenough-1', id: user.id });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Password updated successfully');
    expect(body.token).toBeTruthy();
    // the old token ends with the old password; the answer's token carries on
    expect((await profile(headers, { firstName: 'A', lastName: 'B', email: user.email! })).statusCode).toBe(401);
    expect(
      (await profile({ authorization: `Bearer ${body.token}` }, { firstName: 'A', lastName: 'B', email: user.email! }))
        .statusCode,
    ).toBe(200);
    expect((await login(user.email!, 'Longenough-1')).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.profileUpdateCount).toBe(1);
  });

  it('tells a guest it cannot change a password', async () => {
    const guest = await post('/api/users/guest', {});
    const cookie = `guestToken=${guest.cookies.find((c) => c.name === 'guestToken')!.value}`;
    const res = await profile({ cookie }, { currentPassword: 'x', password: 'Longenough-1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Guest accounts cannot change password.', code: 'BAD_REQUEST' });
  });
});
