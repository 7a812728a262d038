import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '#server/db/schema/index.ts';
import { ensureAdmin } from '#server/db/seed/admin.ts';
import { NO_WORKER, createAccount } from '#test/accounts.ts';
import { createUser } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
let admin: Awaited<ReturnType<typeof createAccount>>;
const as = (headers: Record<string, string>) => ({
  get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
  put: (url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers, payload }),
  del: (url: string) => t.app.inject({ method: 'DELETE', url, headers }),
});

describe('admin user management', () => {
  beforeAll(async () => {
    t = await createTestApp({ CAPTCHA_PROVIDER: 'none' }, NO_WORKER);
    admin = await createAccount(t, { isAdmin: true, firstName: 'Root', lastName: 'Admin', username: 'root_admin' });
    const db = t.database.db;
    await createUser(db, { firstName: 'Grace', lastName: 'Hopper', username: 'ghopper', email: 'grace@navy.example' });
    await createUser(db, {
      firstName: 'Alan',
      lastName: 'Turing',
      username: 'aturing',
      email: 'alan@bletchley.example',
      isAdmin: true,
    });
    await createUser(db, { firstName: 'Grace', lastName: 'Kelly', username: 'gkelly', email: 'kelly@monaco.example' });
    for (let i = 0; i < 55; i++)
      await createUser(db, {
        firstName: 'Filler',
        lastName: `Person${i}`,
        username: `filler_${i}`,
        email: `filler${i}@bulk.example`,
      });
    await createUser(db, {
      username: 'guest_abc',
      firstName: 'Guest',
      lastName: '',
      email: 'grace@navy.example',
      isGuest: true,
    });
  });
  afterAll(async () => t?.close());

  it('is for admins only: 401 without a token, 403 for others', async () => {
    const { headers } = await createAccount(t);
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', '/api/users/count'],
      ['GET', `/api/users/${admin.user.id}`],
      ['PUT', `/api/users/${admin.user.id}`],
      ['DELETE', `/api/users/${admin.user.id}`],
    ] as const) {
      const anonymous = await t.app.inject({ method, url, payload: method === 'PUT' ? {} : undefined });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'Not authorized, no token', code: 'NO_TOKEN' });
      const user = await t.app.inject({ method, url, headers, payload: method === 'PUT' ? {} : undefined });
      expect(user.statusCode).toBe(403);
      expect(user.json()).toEqual({ message: 'Not authorized as an admin', code: 'FORBIDDEN' });
    }
  });

  it('filters by id, names, username, e-mail and admin flag, case-insensitively, with a total', async () => {
    const api = as(admin.headers);
    const names = async (qs: string) => {
      const res = await api.get(`/api/users?${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .users.map((u: { username: string }) => u.username)
        .sort();
    };
    expect(await names('firstName=GRAC')).toEqual(['ghopper', 'gkelly']);
    expect(await names('lastName=opp')).toEqual(['ghopper']);
    expect(await names('username=TURING')).toEqual(['aturing']);
    expect(await names('email=navy')).toEqual(['ghopper']);
    expect(await names('isAdmin=true')).toEqual(['aturing', 'root_admin']);
    expect(await names(`id=${admin.user.id.slice(0, 20)}`)).toEqual(['root_admin']);
    expect(await names('firstName=grace&isAdmin=false')).toEqual(['ghopper', 'gkelly']);
    expect(await names('email=100%25')).toEqual([]);

    const page = (await api.get('/api/users?firstName=filler&pageSize=20&pageNumber=3')).json();
    expect(page).toMatchObject({ page: 3, pages: 3, total: 55 });
    expect(page.users).toHaveLength(15);
    expect(page.users[0]).toHaveProperty('createdAt');
    expect(page.users[0]).not.toHaveProperty('passwordHash');
    // guests are not accounts: left out of the list and the count
    const all = (await api.get('/api/users?pageSize=100')).json();
    expect(all.total).toBeGreaterThanOrEqual(59);
    expect(all.users.filter((u: { isGuest: boolean }) => u.isGuest)).toEqual([]);
    expect((await api.get('/api/users/count')).json()).toEqual({ count: all.total });
  });

  it('suggests at most 50 recipients for a search', async () => {
    const res = (await as(admin.headers).get('/api/users?search=bulk&pageSize=100')).json();
    expect(res.users).toHaveLength(50);
    expect(res.total).toBe(55);
    expect(
      (await as(admin.headers).get('/api/users?search=hopper')).json().users.map((u: { email: string }) => u.email),
    ).toEqual(['grace@navy.example']);
  });

  it('shows and edits a user, keeping e-mail addresses unique', async () => {
    const api = as(admin.headers);
    const { user } = await createAccount(t);
    expect((await api.get(`/api/users/${user.id}`)).json()).toMatchObject({ _id: user.id, email: user.email });
    expect((await api.get('/api/users/0123456789abcdef01234567')).statusCode).toBe(404);
    expect((await api.get('/api/users/not-an-id')).json()).toEqual({ message: 'Invalid id', code: 'BAD_REQUEST' });

    const res = await api.put(`/api/users/${user.id}`, {
      firstName: 'mary',
      lastName: 'shelley',
      email: 'Mary@Example.com',
      isAdmin: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Mary',
      lastName: 'Shelley',
      email: 'mary@example.com',
      isAdmin: true,
    });
    const taken = await api.put(`/api/users/${user.id}`, { email: 'GRACE@navy.example' });
    expect(taken.json()).toEqual({ message: 'Email is already in use', code: 'BAD_REQUEST' });
    const nameTaken = await api.put(`/api/users/${user.id}`, { username: 'GHopper' });
    expect(nameTaken.json()).toEqual({ message: 'Username is already taken', code: 'BAD_REQUEST' });
  });

  it('refuses an edit that changes nothing with a 400 that says so', async () => {
    const api = as(admin.headers);
    const { user } = await createAccount(t);
    // unknown fields are dropped, so these carry no change either
    for (const body of [{}, { password: 'Secret-123!' }, { _id: user.id, createdAt: '2020-01-01' }]) {
      const res = await api.put(`/api/users/${user.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ message: 'Nothing to update', code: 'NOTHING_TO_UPDATE' });
    }
    expect((await api.put(`/api/users/${user.id}`, { isActive: true })).statusCode).toBe(200);
  });

  it('will not let an admin demote, deactivate or delete themself', async () => {
    const api = as(admin.headers);
    expect((await api.put(`/api/users/${admin.user.id}`, { isAdmin: false })).json()).toEqual({
      message: 'You cannot remove your own admin rights',
      code: 'BAD_REQUEST',
    });
    expect((await api.put(`/api/users/${admin.user.id}`, { isActive: false })).json()).toEqual({
      message: 'You cannot deactivate your own account',
      code: 'BAD_REQUEST',
    });
    const del = await api.del(`/api/users/${admin.user.id}`);
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({ message: 'You cannot delete your own account', code: 'BAD_REQUEST' });
  });

  it('deactivating a user ends their token at once, and a resend cannot reactivate them', async () => {
    const target = await createAccount(t);
    expect((await as(target.headers).get('/api/users/count')).statusCode).toBe(403);
    expect((await as(admin.headers).put(`/api/users/${target.user.id}`, { isActive: false })).json().isActive).toBe(
      false,
    );
    const after = await as(target.headers).get('/api/users/count');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Not authorized, token failed', code: 'TOKEN_FAILED' });
    await t.app.inject({ method: 'POST', url: '/api/users/resendconfirmation', payload: { email: target.user.email } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: target.user.email, password: 'Secret-123!' },
    });
    expect(login.json().message).toBe('Your account has been deactivated. Please contact support.');
  });

  it('deletes a user, ends their token and keeps their orders readable', async () => {
    const target = await createAccount(t, { firstName: 'Buyer', lastName: 'Gone', username: 'buyer_gone' });
    const [order] = await t.database.db
      .insert(orders)
      .values({
        userId: target.user.id,
        username: 'buyer_gone',
        firstName: 'Buyer',
        lastName: 'Gone',
        email: target.user.email!,
        shippingAddress: {
          shipToFirstName: 'B',
          shipToLastName: 'G',
          address1: '1 A St',
          address2: '',
          city: 'X',
          state: 'NY',
          postalCode: '10001',
          country: 'US',
        },
        itemsCents: 1000,
        taxCents: 150,
        shippingCents: 0,
        totalCents: 1150,
      })
      .returning();
    const res = await as(admin.headers).del(`/api/users/${target.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User removed' });
    expect((await as(admin.headers).del(`/api/users/${target.user.id}`)).statusCode).toBe(404);
    const [kept] = await t.database.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(kept).toMatchObject({ userId: null, username: 'buyer_gone', firstName: 'Buyer', email: target.user.email });
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: target.headers, payload: {} })).json(),
    ).toEqual({
      message: 'Not authorized, token failed',
      code: 'TOKEN_FAILED',
    });
  });

  it('keeps the ADMIN_EMAIL bootstrap working: that admin signs in through the API', async () => {
    // a guest who typed the same address at checkout is not the admin account
    const guest = await createUser(t.database.db, {
      username: 'guest_boss',
      email: 'boss@store.example',
      isGuest: true,
    });
    await ensureAdmin(
      t.database.db,
      { ...t.config, adminEmail: 'boss@store.example', adminPassword: 'Boss-pass-123' },
      { brandNew: false },
    );
    expect((await as(admin.headers).get(`/api/users/${guest.id}`)).json()).toMatchObject({
      isGuest: true,
      isAdmin: false,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'BOSS@store.example', password: 'Boss-pass-123' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ isAdmin: true, isActive: true });
    expect((await as({ authorization: `Bearer ${res.json().token}` }).get('/api/users/count')).statusCode).toBe(200);
  });
});
