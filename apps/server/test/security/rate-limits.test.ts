import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RATE_LIMITS, type Limit, type RateLimits } from '#server/config.ts';
import { NO_WORKER, createAccount } from '../accounts.ts';
import { createProduct } from '../factories.ts';
import { createTestApp, type TestContext } from '../helpers.ts';

/**
 * Abuse limits: every credential, captcha, guest, guest-access, mail-sending, order and upload route is
 * limited per client address; each limit of the table in config.ts trips here, once (429 with a JSON
 * message, the code RATE_LIMITED and Retry-After), spares other addresses, and recovers once its window
 * has passed. The app is configured as in production with the real limits (the test environment multiplies
 * them all), except that the account routes' limits are set small.
 */
const MINUTE = 60_000;
const small: RateLimits = {
  ...DEFAULT_RATE_LIMITS,
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
    name: 'address-change links',
    method: 'POST',
    url: () => `/api/users/confirm-email/${hex()}`,
    who: 'anon',
    limit: small.confirmEmail.ip,
  },
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
    name: 'discount code guesses',
    method: 'POST',
    url: () => '/api/coupons/apply',
    who: 'anon',
    limit: small.couponApply.ip,
    payload: () => ({
      code: `GUESS${hex().slice(0, 8).toUpperCase()}`,
      orderItems: [{ product: 'a'.repeat(24), qty: 1 }],
    }),
  },
  {
    name: 'captcha challenge',
    method: 'GET',
    url: () => '/api/captcha/challenge',
    who: 'anon',
    limit: small.captchaChallenge.ip,
  },
  {
    name: 'guest access (per address, any order)',
    method: 'POST',
    url: () => `/api/orders/${hex()}/guest-access`,
    who: 'anon',
    limit: small.guestAccess.ip,
    payload: { email: 'a@example.com', postalCode: '1' },
  },
  {
    name: 'contact form (mails the admins)',
    method: 'POST',
    url: () => '/api/contact',
    who: 'anon',
    limit: small.contact.ip,
    payload: {},
  },
  {
    name: 'support message',
    method: 'POST',
    url: () => '/api/messages/send',
    who: 'user',
    limit: small.supportMessage.ip,
    payload: {},
  },
  {
    name: 'tracking e-mail',
    method: 'POST',
    url: () => '/api/orders/email/send',
    who: 'admin',
    limit: small.trackingEmail.ip,
    payload: {},
  },
  {
    name: 'order placement',
    method: 'POST',
    url: () => '/api/orders',
    who: 'user',
    limit: small.order.ip,
    payload: {},
  },
  {
    name: 'image upload',
    method: 'POST',
    url: () => '/api/upload/rate',
    who: 'admin',
    limit: small.upload.ip,
    payload: {},
  },
  {
    name: 'review',
    method: 'POST',
    url: () => `/api/products/${productId}/reviews`,
    who: 'user',
    limit: small.review.ip,
    payload: {},
  },
  {
    name: 'mailing-list subscription',
    method: 'POST',
    url: () => '/api/mailing-list/subscribe',
    who: 'anon',
    limit: small.subscribe.ip,
    payload: { email: 1 },
  },
  {
    name: 'address validation (carrier API)',
    method: 'POST',
    url: () => '/api/shipping/shippingaddress',
    who: 'anon',
    limit: small.addressValidation.ip,
    payload: { address1: 1 },
  },
  {
    name: 'shipment tracking (carrier API)',
    method: 'POST',
    url: () => '/api/orders/shipments/tracking',
    who: 'anon',
    limit: small.tracking.ip,
    payload: {},
  },
  {
    name: 'starting PayPal payments (a PayPal call each)',
    method: 'POST',
    url: () => `/api/orders/${hex()}/paypal`,
    who: 'anon',
    limit: small.paypal.ip,
  },
  {
    name: "PayPal's webhook (each delivery verified with PayPal)",
    method: 'POST',
    url: () => '/api/paypal/webhook',
    who: 'anon',
    limit: small.paypalWebhook.ip,
    payload: { event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} },
  },
  {
    name: 'AliExpress OAuth callback',
    method: 'GET',
    url: () => '/api/aliexpress/oauth/callback',
    who: 'anon',
    limit: small.aliexpressCallback.ip,
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
      expect(limited.json()).toEqual({
        message: expect.stringMatching(/^Too many requests, please try again in \d+ seconds\.$/),
        code: 'RATE_LIMITED',
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // another client address is not affected
      expect((await send('10.250.0.1')).statusCode).not.toBe(429);
      // and the limited address recovers after the window
      vi.setSystemTime(Date.now() + c.limit.windowMs + 1_000);
      expect((await send(ip)).statusCode).not.toBe(429);
    });
  }

  it('limits guesses at one account from one address, and a stranger’s guesses never lock the owner out', async () => {
    const send = (ip: string, email = 'victim@example.com') =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress: ip,
        payload: { email, password: `guess-${hex()}` },
      });
    // the account limit is smaller than the address limit: it is what trips here
    for (let i = 1; i <= small.login.account!.max; i++) expect((await send('10.8.0.1')).statusCode).not.toBe(429);
    expect((await send('10.8.0.1')).statusCode).toBe(429);
    // the address is compared as the account is: whatever its case
    expect((await send('10.8.0.1', 'VICTIM@example.com')).statusCode).toBe(429);
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
    for (let i = 1; i <= small.guestAccess.order.max; i++) expect((await send(i)).statusCode).toBe(403);
    expect((await send(999)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + small.guestAccess.order.windowMs + 1_000);
    expect((await send(1000)).statusCode).toBe(403);
  });

  it('limits reset and confirmation mails per e-mail address, from any address', async () => {
    const send = (url: string, email: string, n: number) =>
      t.app.inject({ method: 'POST', url, remoteAddress: `10.6.0.${n}`, payload: { email } });
    // forgot password: the mail is queued (200) until the address has had its share, whoever asks
    expect((await send('/api/users/fpw', 'fpw@example.com', 1)).statusCode).toBe(200);
    expect((await send('/api/users/fpw', 'fpw@example.com', 2)).statusCode).toBe(429);
    expect((await send('/api/users/fpw', 'other@example.com', 2)).statusCode).toBe(200);
    // resend confirmation: counted before the captcha is checked (no answer here: 400)
    expect((await send('/api/users/resendconfirmation', 'r1@example.com', 3)).statusCode).toBe(400);
    expect((await send('/api/users/resendconfirmation', 'r1@example.com', 4)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + MINUTE + 1_000);
    expect((await send('/api/users/fpw', 'fpw@example.com', 5)).statusCode).toBe(200);
  });
});
