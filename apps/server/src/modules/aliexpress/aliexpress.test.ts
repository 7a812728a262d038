import { createHash, createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthStates, settings } from '#server/db/schema/index.ts';
import { unseal, type Sealed } from '#server/lib/secret-box.ts';
import { createAccount } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { standIn } from '#test/orders-support.ts';
import { tokenKey } from './aliexpress.service.ts';

const APP_KEY = '500123';
const SECRET = 'app-secret-for-tests';
const CALLBACK = 'https://shop.example.com/api/aliexpress/oauth/callback';
type Auth = { headers: Record<string, string> };
let t: TestContext;
let admin: Auth;
let shopper: Auth;
let ali: Awaited<ReturnType<typeof standIn>>;

/**
 * A local stand-in for AliExpress's /rest/auth/token/create: checks the signature the way AliExpress documents
 * it (HMAC-SHA256 keyed with the app secret over the API path and the sorted name+value pairs, upper-case hex)
 * and answers the token, or an error code for an unknown code.
 */
function aliexpress() {
  return standIn((req, raw) => {
    if (req.method !== 'POST' || req.url !== '/rest/auth/token/create') return { status: 404, body: {} };
    const params = Object.fromEntries(new URLSearchParams(raw));
    const { sign, ...rest } = params;
    const text =
      '/auth/token/create' +
      Object.keys(rest)
        .sort()
        .map((k) => `${k}${rest[k]}`)
        .join('');
    const expected = createHmac('sha256', SECRET).update(text).digest('hex').toUpperCase();
    if (sign !== expected || rest.app_key !== APP_KEY || rest.sign_method !== 'sha256')
      return {
        status: 200,
        body: { code: 'IncompleteSignature', message: 'The request signature does not conform', request_id: 'r1' },
      };
    if (rest.code !== 'good-code')
      return { status: 200, body: { code: 'InvalidCode', message: 'Invalid authorization code', request_id: 'r2' } };
    return {
      status: 200,
      body: {
        code: '0',
        access_token: '50000600a12SECRETACCESS',
        refresh_token: '50001600b34SECRETREFRESH',
        expire_time: Date.parse('2026-12-01T00:00:00Z'),
        refresh_token_valid_time: Date.parse('2027-01-01T00:00:00Z'),
        expires_in: 2592000,
        refresh_expires_in: 5184000,
        user_nick: 'store_seller',
        seller_id: '2210001',
        account: 'seller@example.com',
        account_platform: 'buyerApp',
        request_id: 'r3',
      },
    };
  });
}

const get = (url: string, auth: Auth = { headers: {} }) => t.app.inject({ method: 'GET', url, headers: auth.headers });
const newState = async () =>
  new URL((await get('/api/aliexpress/oauth/url', admin)).json().authURL).searchParams.get('state')!;
const callback = (q: Record<string, string>) => get(`/api/aliexpress/oauth/callback?${new URLSearchParams(q)}`);

describe('AliExpress connection', () => {
  beforeAll(async () => {
    ali = await aliexpress();
    t = await createTestApp({
      ALIEXPRESS_APP_KEY: APP_KEY,
      ALIEXPRESS_APP_SECRET: SECRET,
      ALIEXPRESS_CALLBACK_URL: CALLBACK,
      ALIEXPRESS_API_BASE: ali.url,
    });
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await ali?.close();
  });

  it('gives the authorise address to admins only', async () => {
    expect((await get('/api/aliexpress/oauth/url')).statusCode).toBe(401);
    expect((await get('/api/aliexpress/oauth/url', shopper)).statusCode).toBe(403);
    expect((await get('/api/aliexpress/status', shopper)).statusCode).toBe(403);
    const res = await get('/api/aliexpress/oauth/url', admin);
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().authURL);
    expect(`${url.origin}${url.pathname}`).toBe(`${ali.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      force_auth: 'true',
      redirect_uri: CALLBACK,
      client_id: APP_KEY,
    });
    const state = url.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    // kept only as its hash
    const rows = await t.app.db.select().from(oauthStates);
    expect(rows.some((r) => r.stateHash === createHash('sha256').update(state).digest('hex'))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(state);
  });

  it('exchanges the code with a signed request, stores the token sealed and sends the admin back', async () => {
    const state = await newState();
    const res = await callback({ code: 'good-code', state });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/admin/productlist?aliexpress=connected');
    const call = ali.calls.at(-1)!;
    const sent = Object.fromEntries(new URLSearchParams(call.body));
    expect(sent).toMatchObject({ app_key: APP_KEY, code: 'good-code', sign_method: 'sha256' });
    expect(sent.sign).toMatch(/^[0-9A-F]{64}$/);
    const [row] = await t.app.db.select().from(settings).where(eq(settings.key, 'aliexpress.token'));
    expect(JSON.stringify(row!.value)).not.toMatch(/SECRETACCESS|SECRETREFRESH/);
    const stored = row!.value as { sealed: Sealed; account: string };
    expect(JSON.parse(unseal(tokenKey(t.config), stored.sealed))).toEqual({
      accessToken: '50000600a12SECRETACCESS',
      refreshToken: '50001600b34SECRETREFRESH',
    });
    expect((await get('/api/aliexpress/status', admin)).json()).toMatchObject({
      configured: true,
      connected: true,
      account: 'store_seller',
      expiresAt: '2026-12-01T00:00:00.000Z',
    });
  });

  it('takes each state once, and never an unknown or expired one', async () => {
    const state = await newState();
    expect((await callback({ code: 'good-code', state })).headers.location).toBe(
      '/admin/productlist?aliexpress=connected',
    );
    const calls = ali.calls.length;
    expect((await callback({ code: 'good-code', state })).headers.location).toBe('/admin/productlist?aliexpress=error');
    expect((await callback({ code: 'good-code', state: 'made-up-state' })).headers.location).toBe(
      '/admin/productlist?aliexpress=error',
    );
    expect((await callback({ code: 'good-code' })).headers.location).toBe('/admin/productlist?aliexpress=error');
    const old = 'an-expired-state-value-0123456789abcdef';
    await t.app.db.insert(oauthStates).values({
      stateHash: createHash('sha256').update(old).digest('hex'),
      provider: 'aliexpress',
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await callback({ code: 'good-code', state: old })).headers.location).toBe(
      '/admin/productlist?aliexpress=error',
    );
    expect(ali.calls.length).toBe(calls); // none of these reached AliExpress
  });

  it('reports a refused code or a denied authorisation as an error', async () => {
    expect((await callback({ code: 'bad-code', state: await newState() })).headers.location).toBe(
      '/admin/productlist?aliexpress=error',
    );
    const denied = await newState();
    expect((await callback({ error: 'access_denied', state: denied })).headers.location).toBe(
      '/admin/productlist?aliexpress=error',
    );
    expect((await callback({ code: 'good-code', state: denied })).headers.location).toBe(
      '/admin/productlist?aliexpress=error',
    );
  });

  it("answers 'AliExpress is not configured' without an app key and secret", async () => {
    const bare = await createTestApp();
    try {
      const boss = await createAccount(bare, { isAdmin: true });
      const res = await bare.app.inject({ method: 'GET', url: '/api/aliexpress/oauth/url', headers: boss.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'AliExpress is not configured', code: 'BAD_REQUEST' });
      const cb = await bare.app.inject({ method: 'GET', url: '/api/aliexpress/oauth/callback?code=x&state=y' });
      expect(cb.json()).toEqual({ message: 'AliExpress is not configured', code: 'BAD_REQUEST' });
      const status = await bare.app.inject({ method: 'GET', url: '/api/aliexpress/status', headers: boss.headers });
      expect(status.json()).toMatchObject({ configured: false, connected: false });
    } finally {
      await bare.close();
    }
  });
});
