import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin, isBrandNew } from '#server/db/seed/admin.ts';
import { orderAccessTokens, users } from '#server/db/schema/index.ts';
import { hashToken, randomToken } from '#server/lib/tokens.ts';
import { NO_WORKER, PASSWORD, createAccount, lastMailTo } from '../accounts.ts';
import { solveCaptcha } from '../captcha.ts';
import { createProduct } from '../factories.ts';
import { createTestApp, type TestContext } from '../helpers.ts';
import { guest, orderBody, placeOrder, signedIn } from '../orders-support.ts';
import { linkToken } from '../smtp.ts';

/**
 * The account-takeover chain a security review found, one link per test: an ordinary account must never
 * become admin through start-up, a session must end where the shopper ended it, and guest access opens
 * guest orders only.
 */
let t: TestContext;
const asAdmin = (headers: Record<string, string>) => t.app.inject({ url: '/api/users/count', headers });
const row = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email))).filter((u) => !u.isGuest);

describe('start-up admin step', () => {
  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('never promotes an account that took the admin’s old address, and its token stays an ordinary one', async () => {
    // the admin moves to a new address through the confirmed change …
    const admin = await createAccount(t, { isAdmin: true, email: 'boss@shop.example' });
    const moved = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: admin.headers,
      payload: { firstName: 'Boss', lastName: 'Admin', email: 'boss.new@shop.example', currentPassword: PASSWORD },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const link = linkToken((await lastMailTo(t.database.db, 'boss.new@shop.example'))!, '/user/confirm-email');
    expect((await t.app.inject({ method: 'POST', url: `/api/users/confirm-email/${link}` })).statusCode).toBe(200);
    // … an attacker's account takes the old one, then the store restarts with the old ADMIN_EMAIL
    const attacker = await createAccount(t, { email: 'boss@shop.example' });
    const result = await ensureAdmin(
      t.database.db,
      { ...t.config, adminEmail: 'boss@shop.example', adminPassword: 'Env-admin-pass-1' },
      { brandNew: false },
    );
    expect(result).toEqual({ skipped: expect.stringMatching(/^ADMIN_EMAIL: boss@shop\.example belongs to an/) });
    expect((await row('boss@shop.example'))[0]).toMatchObject({ isAdmin: false, tokenVersion: 0 });
    expect((await asAdmin(attacker.headers)).statusCode).toBe(403);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'boss@shop.example', password: 'Env-admin-pass-1', grecaptcha: await solveCaptcha(t.app) },
    });
    expect(login.statusCode).toBe(401);
  });

  it('creates the admin when no account uses the address', async () => {
    const result = await ensureAdmin(
      t.database.db,
      { ...t.config, adminEmail: 'owner@shop.example', adminPassword: 'Env-admin-pass-1' },
      { brandNew: false },
    );
    expect(result).toEqual({ email: 'owner@shop.example', source: 'env' });
    expect((await row('owner@shop.example'))[0]).toMatchObject({ isAdmin: true, isActive: true });
  });

  it('brings an existing admin back to ADMIN_PASSWORD and ends its sessions and links', async () => {
    const admin = await createAccount(t, { isAdmin: true, email: 'reset@shop.example' });
    expect((await asAdmin(admin.headers)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/users/fpw', payload: { email: 'reset@shop.example' } });
    const reset = linkToken((await lastMailTo(t.database.db, 'reset@shop.example'))!, '/users/resetpw');
    await ensureAdmin(
      t.database.db,
      { ...t.config, adminEmail: 'reset@shop.example', adminPassword: 'Env-admin-pass-1' },
      { brandNew: false },
    );
    expect((await asAdmin(admin.headers)).statusCode).toBe(401);
    const used = await t.app.inject({
      method: 'POST',
      url: `/api/users/resetpw/${reset}`,
      payload: { newPassword: 'Attacker-pass-1' },
    });
    expect(used.statusCode).toBe(400);
  });

  it('leaves an admin whose password already matches, and its sessions, as they are', async () => {
    const admin = await createAccount(t, { isAdmin: true, email: 'same@shop.example' });
    await ensureAdmin(
      t.database.db,
      { ...t.config, adminEmail: 'same@shop.example', adminPassword: PASSWORD },
      { brandNew: false },
    );
    expect((await asAdmin(admin.headers)).statusCode).toBe(200);
  });

  it('makes a demo admin only on a brand-new database outside production', async () => {
    const embedded = { ...t.config, databaseUrl: undefined, adminEmail: undefined, adminPassword: undefined };
    expect(await isBrandNew(t.database.db)).toBe(false);
    expect(await ensureAdmin(t.database.db, { ...embedded, isProduction: true }, { brandNew: true })).toBeUndefined();
    expect(await ensureAdmin(t.database.db, embedded, { brandNew: false })).toBeUndefined();
    expect(await row('admin@store.local')).toEqual([]);
    const demo = await ensureAdmin(t.database.db, embedded, { brandNew: true });
    expect(demo).toMatchObject({ email: 'admin@store.local', source: 'demo', password: expect.any(String) });
  });
});

describe('guest sessions and guest order access', () => {
  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('ends the guest session on the server at logout: the same cookie reads nothing afterwards', async () => {
    const g = await guest(t.database.db, 'leaving@example.com');
    const product = await createProduct(t.database.db, { countInStock: 5 });
    const order = await placeOrder(t.app, g, orderBody([{ product: product.id, qty: 1 }]));
    expect(order.statusCode, order.body).toBe(201);
    expect((await t.app.inject({ url: '/api/users/session', headers: g.headers })).statusCode).toBe(200);

    const out = await t.app.inject({ method: 'POST', url: '/api/users/logout', headers: g.headers });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'guestToken')?.value).toBe('');

    expect((await t.app.inject({ url: '/api/users/session', headers: g.headers })).statusCode).toBe(404);
    const read = await t.app.inject({ url: `/api/orders/${order.json()._id}`, headers: g.headers });
    expect(read.statusCode).toBe(401);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: g.headers,
      payload: { shippingAddress: orderBody([]).shippingAddress },
    });
    expect(saved.statusCode).toBe(401);
  });

  it('opens no registered account’s order with an order id, an e-mail and a postal code', async () => {
    const shopper = await signedIn(t.app, { email: 'member@example.com' });
    const product = await createProduct(t.database.db, { countInStock: 5 });
    const placed = await placeOrder(t.app, shopper, orderBody([{ product: product.id, qty: 1 }]));
    expect(placed.statusCode, placed.body).toBe(201);
    const id = placed.json()._id as string;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${id}/guest-access`,
      payload: { email: 'member@example.com', postalCode: '62701' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Verification failed', code: 'FORBIDDEN' });

    // an access token issued before this rule (still in the table) opens nothing either
    const token = randomToken();
    await t.database.db
      .insert(orderAccessTokens)
      .values({ orderId: id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 3_600_000) });
    const read = await t.app.inject({ url: `/api/orders/${id}/guest?accessToken=${token}` });
    expect(read.statusCode).toBe(403);
    const pay = await t.app.inject({ method: 'PUT', url: `/api/orders/${id}/pay?accessToken=${token}`, payload: {} });
    expect([401, 403]).toContain(pay.statusCode);
    expect((await t.app.inject({ url: `/api/orders/${id}`, headers: shopper.headers })).json().isPaid).toBe(false);
  });
});
