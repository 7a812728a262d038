import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captchaUses } from '#server/db/schema/index.ts';
import { createCaptcha } from '#server/lib/captcha.ts';
import { NO_WORKER } from '#test/accounts.ts';
import { widgetPayload } from '#test/captcha.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

const FAILED = { statusCode: 400, message: 'Captcha verification failed', code: 'CAPTCHA_FAILED' };
const REQUIRED = { statusCode: 400, message: 'Captcha required', code: 'CAPTCHA_REQUIRED' };

async function rejection(p: Promise<unknown>) {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { statusCode?: number; message?: string; code?: string } | null;
  return err && { statusCode: err.statusCode, message: err.message, code: err.code };
}

describe('ALTCHA (the default provider)', () => {
  let t: TestContext;
  const challenge = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' })).json() as Challenge;
  const solved = async (c?: Challenge) => {
    const ch = c ?? (await challenge());
    return { challenge: ch, payload: widgetPayload(ch, await solveChallenge({ challenge: ch, deriveKey })) };
  };

  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the web app which widget to show', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config/captcha' });
    expect(res.json()).toEqual({ provider: 'altcha', challengeUrl: '/api/captcha/challenge' });
  });

  it('hands out signed challenges that expire in ten minutes and are never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const c = res.json() as Challenge;
    expect(c.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 50 });
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(c.parameters.expiresAt! * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(c.parameters.expiresAt! * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const t0 = performance.now();
    await solveChallenge({ challenge: c, deriveKey });
    expect(performance.now() - t0).toBeLessThan(1_000);
  });

  it('accepts a solved challenge once, and refuses the replay', async () => {
    const { payload } = await solved();
    await expect(t.app.captcha.verify(payload)).resolves.toBeUndefined();
    expect(await rejection(t.app.captcha.verify(payload))).toEqual(FAILED);
    const guest = await t.app.inject({ method: 'POST', url: '/api/users/guest', payload: { grecaptcha: payload } });
    expect(guest.statusCode).toBe(400);
    expect(guest.json()).toEqual({ message: 'Captcha verification failed', code: 'CAPTCHA_FAILED' });
  });

  it('refuses missing, malformed, tampered, test-mode and foreign payloads', async () => {
    expect(await rejection(t.app.captcha.verify(undefined))).toEqual(REQUIRED);
    expect(await rejection(t.app.captcha.verify('  '))).toEqual(REQUIRED);
    expect(await rejection(t.app.captcha.verify('%%% not base64 %%%'))).toEqual(FAILED);
    // the widget's own test mode: { challenge: null, solution: null, test: true }
    const testMode = Buffer.from(JSON.stringify({ challenge: null, solution: null, test: true })).toString('base64');
    expect(await rejection(t.app.captcha.verify(testMode))).toEqual(FAILED);

    const c = await challenge();
    const solution = await solveChallenge({ challenge: c, deriveKey });
    const wrongKey = widgetPayload(c, { ...solution, derivedKey: '00'.repeat(32) });
    expect(await rejection(t.app.captcha.verify(wrongKey))).toEqual(FAILED);
    // parameters changed after signing (a cheaper cost): the signature no longer matches
    const cheaper = widgetPayload({ ...c, parameters: { ...c.parameters, cost: 1 } }, solution);
    expect(await rejection(t.app.captcha.verify(cheaper))).toEqual(FAILED);
    await expect(t.app.captcha.verify(widgetPayload(c, solution))).resolves.toBeUndefined();

    // signed with another server's secret
    const other = createCaptcha(
      { ...t.config, jwtSecret: 'another-secret-another-secret-another-1' },
      t.database.db,
      t.app.log,
    );
    const foreign = await solved(await other.challenge());
    expect(await rejection(t.app.captcha.verify(foreign.payload))).toEqual(FAILED);
  });

  it('refuses a challenge solved after it expired', async () => {
    const { payload } = await solved();
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 11 * 60_000);
    expect(await rejection(t.app.captcha.verify(payload))).toEqual(FAILED);
  });

  it('forgets spent challenges once they could not be used anyway', async () => {
    const db = t.database.db;
    await db.insert(captchaUses).values({ signature: 'stale', expiresAt: new Date(Date.now() - 60_000) });
    const fresh = createCaptcha(t.config, db, t.app.log);
    await fresh.verify((await solved()).payload);
    const left = await db.select().from(captchaUses);
    expect(left.map((r) => r.signature)).not.toContain('stale');
    expect(left.length).toBeGreaterThan(0);
  });
});

describe('reCAPTCHA (CAPTCHA_PROVIDER=recaptcha), against a local stand-in for Google', () => {
  let t: TestContext;
  let google: Server;
  const seen: { contentType?: string; form: URLSearchParams; path?: string }[] = [];

  beforeAll(async () => {
    // answers as https://developers.google.com/recaptcha/docs/verify documents
    google = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push({ contentType: req.headers['content-type'], form, path: req.url });
        const ok =
          req.method === 'POST' &&
          req.url === '/recaptcha/api/siteverify' &&
          form.get('secret') === 'server-secret' &&
          form.get('response') === 'good-token';
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify(
            ok
              ? { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost' }
              : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => google.listen(0, '127.0.0.1', resolve));
    const { port } = google.address() as AddressInfo;
    t = await createTestApp(
      {
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SECRET: 'server-secret',
        RECAPTCHA_SITE_KEY: 'site-key',
        RECAPTCHA_API_BASE: `http://127.0.0.1:${port}`,
      },
      NO_WORKER,
    );
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => google?.close(resolve));
  });

  const guest = (grecaptcha?: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/guest', payload: grecaptcha ? { grecaptcha } : {} });

  it('gives the site key to the web app and no ALTCHA challenge', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/config/captcha' })).json()).toMatchObject({
      provider: 'recaptcha',
      siteKey: 'site-key',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' })).statusCode).toBe(404);
  });

  it('asks siteverify with the secret, the answer and the client address, form-encoded', async () => {
    expect((await guest('good-token')).statusCode).toBe(201);
    const last = seen.at(-1)!;
    expect(last.path).toBe('/recaptcha/api/siteverify');
    expect(last.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(last.form)).toEqual({
      secret: 'server-secret',
      response: 'good-token',
      remoteip: '127.0.0.1',
    });
  });

  it('refuses what Google refuses, and a missing answer', async () => {
    expect((await guest('bad-token')).json()).toEqual({
      message: 'Captcha verification failed',
      code: 'CAPTCHA_FAILED',
    });
    expect((await guest()).json()).toEqual({ message: 'Captcha required', code: 'CAPTCHA_REQUIRED' });
  });
});

describe('no captcha (CAPTCHA_PROVIDER=none, never in production)', () => {
  it('accepts any answer, even none', async () => {
    const t = await createTestApp({ CAPTCHA_PROVIDER: 'none' }, NO_WORKER);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/config/captcha' })).json().provider).toBe('none');
      expect((await t.app.inject({ method: 'POST', url: '/api/users/guest', payload: {} })).statusCode).toBe(201);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/users/guest', payload: { grecaptcha: 'anything' } }))
          .statusCode,
      ).toBe(201);
    } finally {
      await t.close();
    }
  });
});
