import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '#server/config.ts';
import { NO_WORKER } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { redisReachable, TEST_REDIS_URL } from '#test/redis.ts';

/**
 * The rate limits of several server processes count together in Redis. (Each limit trips, spares other
 * addresses and recovers in test/security/rate-limits.test.ts.)
 */
function small(windowMs: number): RateLimits {
  return { ...DEFAULT_RATE_LIMITS, login: { ip: { max: 3, windowMs }, account: { max: 2, windowMs } } };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function client(t: TestContext) {
  return (url: string, payload: object, remoteAddress = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress });
}

const login = (email: string) => ({ email, password: 'Whatever-1' });

const REDIS_URL = TEST_REDIS_URL;
const haveRedis = await redisReachable(REDIS_URL);
if (!haveRedis) console.warn(`\n  SKIPPED: the Redis rate-limit store test (no Redis at ${REDIS_URL})\n`);

describe.skipIf(!haveRedis)('rate limits shared through Redis (REDIS_URL)', () => {
  // Redis expires keys on its own clock: a real (short) window, after a warm-up so requests are quick
  const WINDOW = 3_000;
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    const overrides = { ...NO_WORKER, rateLimits: small(WINDOW) };
    [a, b] = await Promise.all([
      createTestApp({ CAPTCHA_PROVIDER: 'none', REDIS_URL }, overrides),
      createTestApp({ CAPTCHA_PROVIDER: 'none', REDIS_URL }, overrides),
    ]);
    for (const app of [a, b])
      await client(app)('/api/users/login', login(`warm.${randomInt(1e9)}@example.com`), randomIp());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('counts requests to two server processes together', async () => {
    const ip = randomIp();
    const email = `redis.${randomInt(1e9)}@example.com`;
    expect((await client(a)('/api/users/login', login(email), ip)).statusCode).toBe(401);
    expect((await client(b)('/api/users/login', login(email), ip)).statusCode).toBe(401);
    // the account limit (2 from one address) is reached across both processes
    expect((await client(a)('/api/users/login', login(email), ip)).statusCode).toBe(429);
    // and so is the address limit (3), over several accounts
    const other = randomIp();
    expect((await client(b)('/api/users/login', login(`x${email}`), other)).statusCode).toBe(401);
    expect((await client(a)('/api/users/login', login(`y${email}`), other)).statusCode).toBe(401);
    expect((await client(b)('/api/users/login', login(`z${email}`), other)).statusCode).toBe(401);
    expect((await client(a)('/api/users/login', login(`w${email}`), other)).statusCode).toBe(429);
    await sleep(WINDOW + 150);
    expect((await client(b)('/api/users/login', login(email), ip)).statusCode).toBe(401);
  });
});
