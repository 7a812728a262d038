import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Limit, RateLimits } from '../../src/config.ts';
import { CALLBACK_LIMIT } from '../../src/modules/aliexpress/aliexpress.routes.ts';
import { CHALLENGE_LIMIT } from '../../src/modules/captcha/captcha.routes.ts';
import { SUBSCRIBE_LIMIT } from '../../src/modules/mailing-list/mailing-list.routes.ts';
import { GUEST_ACCESS_LIMITS } from '../../src/modules/orders/guest-access.routes.ts';
import { ORDER_LIMIT } from '../../src/modules/orders/orders.routes.ts';
import { REVIEW_LIMIT } from '../../src/modules/reviews/reviews.routes.ts';
import { ADDRESS_VALIDATION_LIMIT } from '../../src/modules/shipping/shipping.routes.ts';
import { CONTACT_LIMIT, MESSAGE_LIMIT } from '../../src/modules/support/support.routes.ts';
import { TRACKING_LIMITS } from '../../src/modules/tracking/tracking.routes.ts';
import { UPLOAD_LIMIT } from '../../src/modules/uploads/uploads.routes.ts';
import { NO_WORKER, createAccount } from '../accounts.ts';
import { createProduct } from '../factories.ts';
import { createTestApp, type TestContext } from '../helpers.ts';

/**
 * Abuse limits (issue 8): every credential, captcha, guest, guest-access, mail-sending, order and upload
 * route is limited per client address; each limit trips (429 with a JSON message and Retry-After) and
 * recovers once its window has passed. The app is configured as in production (where the limits are the
 * real ones; the test environment multiplies most of them); the account limits are set small.
 */
const MINUTE = 60_000;
const small: RateLimits = {
  login: { ip: { max: 3, windowMs: MINUTE }, account: { max: 2, windowMs: MINUTE } },
  register: { ip: { max: 2, windowMs: MINUTE } },
  fpw: { ip: { max: 2, windowMs: MINUTE }, account: { max: 1, windowMs: MINUTE } },
  resend: { ip: { max: 2, windowMs: MINUTE }, account: { max: 1, windowMs: MINUTE } },
  guest: { ip: { max: 2, windowMs: MINUTE } },
  confirmEmail: { ip: { max: 2, windowMs: MINUTE } },
};

type Who = 'anon' | 'user' | 'admin';
interface Case {
  name: string;
  method: 'GET' | 'POST';
  url: () => string;
  who: Who;
  limit: Limit;
  payload?: object | (() => object);
}
const hex = () => randomBytes(12).toString('hex');
let productId = '';

const cases: Case[] = [
  {
    name: 'sign-in',
    method: 'POST',
    url: () => '/api/users/login',
    who: 'anon',
    limit: small.login.ip,
    payload: () => ({ email: `${hex()}@example.com`, password: 'x' }),
  },
  { name: 'registration', method: 'POST', url: () => '/api/users', who: 'anon', limit: small.register.ip, payload: {} },
  {
    name: 'forgot password',
    method: 'POST',
    url: () => '/api/users/fpw',
    who: 'anon',
    limit: small.fpw.ip,
    payload: {},
  },
  {
    name: 'resend confirmation',
    method: 'POST',
    url: () => '/api/users/resendconfirmation',
    who: 'anon',
    limit: small.resend.ip,
    payload: {},
  },
  {
    name: 'guest creation',
    method: 'POST',
    url: () => '/api/users/guest',
    who: 'anon',
    limit: small.guest.ip,
    payload: {},
  },
  {
    name: 'captcha challenge',
    method: 'GET',
    url: () => '/api/captcha/challenge',
    who: 'anon',
    limit: CHALLENGE_LIMIT,
  },
  {
    name: 'guest access (per address, any order)',
    method: 'POST',
    url: () => `/api/orders/${hex()}/guest-access`,
    who: 'anon',
    limit: GUEST_ACCESS_LIMITS.ip,
    payload: { email: 'a@example.com', postalCode: '1' },
  },
  {
    name: 'contact form (mails the admins)',
    method: 'POST',
    url: () => '/api/contact',
    who: 'anon',
    limit: CONTACT_LIMIT,
    payload: {},
  },
  {
    name: 'support message',
    method: 'POST',
    url: () => '/api/messages/send',
    who: 'user',
    limit: MESSAGE_LIMIT,
    payload: {},
  },
  {
    name: 'tracking e-mail',
    method: 'POST',
    url: () => '/api/orders/email/send',
    who: 'admin',
    limit: TRACKING_LIMITS.email,
    payload: {},
  },
  { name: 'order placement', method: 'POST', url: () => '/api/orders', who: 'user', limit: ORDER_LIMIT, payload: {} },
  {
    name: 'image upload',
    method: 'POST',
    url: () => '/api/upload/rate',
    who: 'admin',
    limit: UPLOAD_LIMIT,
    payload: {},
  },
  {
    name: 'review',
    method: 'POST',
    url: () => `/api/products/${productId}/reviews`,
    who: 'user',
    limit: REVIEW_LIMIT,
    payload: {},
  },
  {
    name: 'mailing-list subscription',
    method: 'POST',
    url: () => '/api/mailing-list/subscribe',
    who: 'anon',
    limit: SUBSCRIBE_LIMIT,
    payload: { email: 1 },
  },
  {
    name: 'address validation (carrier API)',
    method: 'POST',
    url: () => '/api/shipping/shippingaddress',
    who: 'anon',
    limit: ADDRESS_VALIDATION_LIMIT,
    payload: { address1: 1 },
  },
  {
    name: 'shipment tracking (carrier API)',
    method: 'POST',
    url: () => '/api/orders/shipments/tracking',
    who: 'anon',
    limit: TRACKING_LIMITS.track,
    payload: {},
  },
  {
    name: 'AliExpress OAuth callback',
    method: 'GET',
    url: () => '/api/aliexpress/oauth/callback',
    who: 'anon',
    limit: CALLBACK_LIMIT,
  },
];

let t: TestContext;
const headers: Record<Who, Record<string, string>> = { anon: {}, user: {}, admin: {} };
let ipSeq = 0;

describe('abuse limits: each one trips and recovers', () => {
  beforeAll(async () => {
    t = await createTestApp(
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'production-secret-production-secret-0123456789',
        CAPTCHA_DIFFICULTY: 'normal',
      },
      { ...NO_WORKER, rateLimits: small },
    );
    headers.user = (await createAccount(t)).headers;
    headers.admin = (await createAccount(t, { isAdmin: true })).headers;
    productId = (await createProduct(t.database.db)).id;
  });
  afterAll(async () => t?.close());
  // the in-process store reads the clock: jump it past the window instead of waiting
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const c of cases) {
    it(`${c.name}: ${c.method} ${c.url().replace(/[0-9a-f]{24}|\/\//, '/:id')} (${c.limit.max} per ${c.limit.windowMs / 1000} s)`, async () => {
      const ip = `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
      const send = (remoteAddress: string) =>
        t.app.inject({
          method: c.method,
          url: c.url(),
          headers: headers[c.who],
          remoteAddress,
          ...(c.payload ? { payload: typeof c.payload === 'function' ? c.payload() : c.payload } : {}),
        });
      for (let i = 0; i < c.limit.max; i++) {
        const res = await send(ip);
        expect(res.statusCode, `request ${i + 1}: ${res.body}`).not.toBe(429);
        expect(res.statusCode).toBeLessThan(500);
      }
      const limited = await send(ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['content-type']).toMatch(/^application\/json/);
      expect(limited.json().message).toMatch(/^Too many requests, please try again in \d+ seconds\.$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // another client address is not affected
      expect((await send('10.250.0.1')).statusCode).not.toBe(429);
      // and the limited address recovers after the window
      vi.setSystemTime(Date.now() + c.limit.windowMs + 1_000);
      expect((await send(ip)).statusCode).not.toBe(429);
    });
  }

  it('limits guesses at one account from one address, and a stranger’s guesses never lock the owner out', async () => {
    const send = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress: ip,
        payload: { email: 'victim@example.com', password: `guess-${hex()}` },
      });
    // the account limit is smaller than the address limit: it is what trips here
    for (let i = 1; i <= small.login.account!.max; i++) expect((await send('10.8.0.1')).statusCode).not.toBe(429);
    expect((await send('10.8.0.1')).statusCode).toBe(429);
    // the owner, signing in from their own address, is not locked out
    expect((await send('10.8.0.2')).statusCode).not.toBe(429);
    vi.setSystemTime(Date.now() + MINUTE + 1_000);
    expect((await send('10.8.0.1')).statusCode).not.toBe(429);
  });

  it('limits guesses at one order’s guest access from any address', async () => {
    const orderId = hex();
    const send = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/guest-access`,
        remoteAddress: `10.7.${n >> 8}.${n & 255}`,
        payload: { email: 'a@example.com', postalCode: String(n) },
      });
    for (let i = 1; i <= GUEST_ACCESS_LIMITS.order.max; i++) expect((await send(i)).statusCode).toBe(403);
    expect((await send(999)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + GUEST_ACCESS_LIMITS.order.windowMs + 1_000);
    expect((await send(1000)).statusCode).toBe(403);
  });
});
