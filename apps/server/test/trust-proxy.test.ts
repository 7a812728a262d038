import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../src/config.ts';
import { NO_WORKER } from './accounts.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Behind a load balancer (TRUST_PROXY) each shopper is known by the address the proxy reports, so
 * per-address limits count shoppers, not the proxy. Seen through the sign-in limit (2 per address).
 */
const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, login: { ip: { max: 2, windowMs: 60_000 } } };

let t: TestContext | undefined;
afterEach(async () => t?.close());

/** Three sign-ins through the proxy for shopper A, then one for shopper B: B's status. */
async function shopperBAfterA(trustProxy: string | undefined) {
  t = await createTestApp(
    { CAPTCHA_PROVIDER: 'none', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) },
    { ...NO_WORKER, rateLimits: limits },
  );
  const login = (forwardedFor: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/api/users/login',
      remoteAddress: '10.0.0.2', // the load balancer
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: 'nobody@example.com', password: 'Whatever-1', grecaptcha: 'none' },
    });
  const a = [];
  for (let i = 0; i < 3; i++) a.push((await login('203.0.113.10')).statusCode);
  return { a, b: (await login('198.51.100.20')).statusCode };
}

describe('TRUST_PROXY', () => {
  for (const value of ['1', '10.0.0.0/8', 'true'])
    it(`=${value}: limits count each shopper behind the proxy`, async () => {
      const { a, b } = await shopperBAfterA(value);
      expect(a).toEqual([401, 401, 429]);
      expect(b).toBe(401);
    });

  it('=true: the server warns at start that any client can forge its address', async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' }, NO_WORKER);
    const warn = vi.spyOn(t.app.log, 'warn');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^TRUST_PROXY=true trusts every proxy/));
    expect(warn.mock.calls.flat().join('\n')).toMatch(/TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.0\/8/);
  });

  it('=1: the server starts without that warning', async () => {
    t = await createTestApp({ TRUST_PROXY: '1' }, NO_WORKER);
    const warn = vi.spyOn(t.app.log, 'warn');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/TRUST_PROXY/);
  });

  it('unset: every request is the proxy itself, so one shopper spends the limit of all', async () => {
    const { a, b } = await shopperBAfterA(undefined);
    expect(a).toEqual([401, 401, 429]);
    expect(b).toBe(429);
  });
});
