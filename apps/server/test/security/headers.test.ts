import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_WORKER } from '../accounts.ts';
import { solveCaptcha } from '../captcha.ts';
import { createProduct } from '../factories.ts';
import { createTestApp, type TestContext } from '../helpers.ts';
import { standIn } from '../orders-support.ts';
import { INLINE_SCRIPT, tinyWebDist } from './routes.ts';

/** Security headers on pages and API answers, and the attributes of every cookie the server sets. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const setCookies = (res: LightMyRequestResponse): string[] => [res.headers['set-cookie'] ?? []].flat().map(String);

let web: ReturnType<typeof tinyWebDist>;
let recaptcha: Awaited<ReturnType<typeof standIn>>;
let dev: TestContext;
let prod: TestContext;

describe('security headers and cookies', () => {
  beforeAll(async () => {
    web = tinyWebDist();
    // reCAPTCHA through a local stand-in lets a production-configured app create guests without a proof of work
    recaptcha = await standIn(() => ({ status: 200, body: { success: true } }));
    dev = await createTestApp({}, { ...NO_WORKER, webDist: web.dir });
    prod = await createTestApp(
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'production-secret-production-secret-0123456789',
        CAPTCHA_DIFFICULTY: 'normal',
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SECRET: 'secret',
        RECAPTCHA_SITE_KEY: 'site-key',
        RECAPTCHA_API_BASE: recaptcha.url,
        PUBLIC_URL: 'https://store.example.com',
      },
      { ...NO_WORKER, webDist: web.dir },
    );
  });
  afterAll(async () => {
    await dev?.close();
    await prod?.close();
    await recaptcha?.close();
    web?.remove();
  });

  it('allows only the page’s own inline script, by hash: no unsafe-inline, no unsafe-eval', async () => {
    for (const t of [dev, prod]) {
      const product = await createProduct(t.database.db, { name: 'Header Lamp' });
      for (const url of ['/', `/product/${product.slug}`, '/some/client/route']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        const d = csp(res);
        const scripts = d.get('script-src') ?? [];
        expect(scripts, url).toContain("'self'");
        expect(scripts, url).not.toContain("'unsafe-inline'");
        expect(scripts, url).not.toContain("'unsafe-eval'");
        expect(scripts, url).not.toContain('*');
        const hash = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;
        expect(scripts, url).toContain(hash);
        expect(d.get('default-src')).toEqual(["'self'"]);
        expect(d.get('object-src')).toEqual(["'none'"]);
        expect(d.get('frame-ancestors')).toEqual(["'none'"]);
        expect(d.get('base-uri')).toEqual(["'self'"]);
      }
      // the product page's JSON-LD is data, not script: it needs no hash, and text cannot close its tag
      const page = await t.app.inject({ method: 'GET', url: `/product/${product.slug}` });
      expect(page.body).toContain('<script type="application/ld+json"');
    }
  });

  it('sends nosniff, a strict referrer policy and no framing on pages and API answers', async () => {
    for (const t of [dev, prod]) {
      for (const url of ['/', '/api/products', '/api/orders/myorders', '/api/nothing-here']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['referrer-policy'], url).toMatch(
          /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
        );
        expect(res.headers['x-frame-options'], url).toMatch(/^(DENY|SAMEORIGIN)$/);
        expect(csp(res).get('frame-ancestors'), url).toEqual(["'none'"]);
        expect(res.headers['x-powered-by'], url).toBeUndefined();
      }
    }
  });

  it('sends HSTS (and upgrades insecure requests) in production only', async () => {
    const p = await prod.app.inject({ method: 'GET', url: '/' });
    const hsts = String(p.headers['strict-transport-security'] ?? '');
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(15_552_000); // ≥ 180 days
    expect(hsts).toContain('includeSubDomains');
    expect(csp(p).has('upgrade-insecure-requests')).toBe(true);
    const d = await dev.app.inject({ method: 'GET', url: '/' });
    expect(d.headers['strict-transport-security']).toBeUndefined(); // http://localhost must keep working
  });

  it('sets every cookie HttpOnly, SameSite and path-wide; Secure in production', async () => {
    for (const [t, secure] of [
      [dev, false],
      [prod, true],
    ] as const) {
      const cookies: string[] = [];
      const grecaptcha = secure ? 'answer' : await solveCaptcha(t.app);
      const guest = await t.app.inject({ method: 'POST', url: '/api/users/guest', payload: { grecaptcha } });
      expect(guest.statusCode).toBe(201);
      cookies.push(...setCookies(guest));
      const stale = await t.app.inject({
        method: 'GET',
        url: '/api/users/session',
        headers: { cookie: 'guestToken=stale' },
      });
      expect(stale.statusCode).toBe(404);
      cookies.push(...setCookies(stale));
      cookies.push(...setCookies(await t.app.inject({ method: 'POST', url: '/api/users/logout' })));
      expect(cookies.length).toBe(3);
      for (const c of cookies) {
        const attrs = c.split(';').map((a) => a.trim().toLowerCase());
        expect(attrs, c).toContain('httponly');
        expect(
          attrs.some((a) => /^samesite=(lax|strict)$/.test(a)),
          c,
        ).toBe(true);
        expect(attrs, c).toContain('path=/');
        expect(attrs.includes('secure'), c).toBe(secure);
      }
      // the session cookie lives no longer than a guest session
      const maxAge = Number(/max-age=(\d+)/i.exec(cookies[0]!)?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(31 * 24 * 3600);
    }
  });

  it('never lets a response be cached by shared caches when it carries a session', async () => {
    const guest = await prod.app.inject({ method: 'POST', url: '/api/users/guest', payload: { grecaptcha: 'answer' } });
    expect(String(guest.headers['cache-control'] ?? '')).not.toMatch(/public/);
  });
});
