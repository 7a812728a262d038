import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config.ts';
import { NO_WORKER } from './accounts.ts';
import { createProduct } from './factories.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { orderBody, placeOrder, signedIn } from './orders-support.ts';

/**
 * Error answers carry a machine-readable `code` beside the message, so clients decide on the code and
 * never on the wording: a few of the codes, each where a real route produces it.
 */
let t: TestContext;
beforeAll(async () => {
  // sign-in limited to two tries a minute, so the limit is reached here; every other limit as configured
  const rateLimits = { ...DEFAULT_RATE_LIMITS, login: { ip: { max: 2, windowMs: 60_000 } } };
  t = await createTestApp({}, { ...NO_WORKER, rateLimits });
});
afterAll(async () => t?.close());

describe('error codes', () => {
  it('TOKEN_FAILED: a bearer token that is not valid', async () => {
    const res = await t.app.inject({ url: '/api/orders/myorders', headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authorized, token failed', code: 'TOKEN_FAILED' });
  });

  it('NO_TOKEN and FORBIDDEN: no token, and a signed-in shopper on an admin route', async () => {
    const anonymous = await t.app.inject({ url: '/api/users' });
    expect(anonymous.json()).toEqual({ message: 'Not authorized, no token', code: 'NO_TOKEN' });
    const shopper = await signedIn(t.app);
    const forbidden = await t.app.inject({ url: '/api/users', headers: shopper.headers });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ message: 'Not authorized as an admin', code: 'FORBIDDEN' });
  });

  it('OUT_OF_STOCK: an order for more units than are left', async () => {
    const product = await createProduct(t.app.db, { name: 'Last Lamp', countInStock: 1 });
    const res = await placeOrder(t.app, await signedIn(t.app), orderBody([{ product: product.id, qty: 2 }]));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Not enough stock for Last Lamp', code: 'OUT_OF_STOCK' });
  });

  it('CAPTCHA_REQUIRED: a sign-in without a captcha answer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      remoteAddress: '10.20.0.1',
      payload: { email: 'someone@example.com', password: 'Whatever-1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Captcha required', code: 'CAPTCHA_REQUIRED' });
  });

  it('RATE_LIMITED: one request over a limit', async () => {
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress: '10.20.0.2',
        payload: { email: 'someone@example.com', password: 'Whatever-1' },
      });
    await login();
    await login();
    const res = await login();
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      message: expect.stringMatching(/^Too many requests, please try again in \d+ seconds\.$/),
      code: 'RATE_LIMITED',
    });
  });

  it('BAD_REQUEST: a field that breaks a rule', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/fpw', payload: { email: 'not an address' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid email format', code: 'BAD_REQUEST' });
  });
});
