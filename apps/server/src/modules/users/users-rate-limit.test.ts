import { randomInt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimits } from '../../config.ts';
import { NO_WORKER } from '../../../test/accounts.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { redisReachable, TEST_REDIS_URL } from '../../../test/redis.ts';

function small(windowMs: number): RateLimits {
  return {
    login: { ip: { max: 3, windowMs }, account: { max: 2, windowMs } },
    register: { ip: { max: 1, windowMs } },
    fpw: { ip: { max: 5, windowMs }, account: { max: 1, windowMs } },
    resend: { ip: { max: 1, windowMs }, account: { max: 1, windowMs } },
    guest: { ip: { max: 1, windowMs } },
    confirmEmail: { ip: { max: 1, windowMs } },
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function client(t: TestContext) {
  return (url: string, payload: object, remoteAddress = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress });
}

const login = (email: string) => ({ email, password: 'Whatever-1' });
const person = (i: number) => ({
  firstName: 'Rate',
  lastName: 'Limit',
  username: `rate_${i}`,
  email: `rate${i}@example.com`,
  password: 'Rate-limit-1',
});

describe('rate limits on the account routes', () => {
  const WINDOW = 60_000;
  let t: TestContext;
  let post: ReturnType<typeof client>;
  // the in-process store reads the clock: jump it past the window instead of waiting
  const afterTheWindow = () => vi.setSystemTime(Date.now() + WINDOW + 1_000);
  beforeAll(async () => {
    t = await createTestApp({ CAPTCHA_PROVIDER: 'none' }, { ...NO_WORKER, rateLimits: small(WINDOW) });
    post = client(t);
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('limits sign-in per client address, and recovers after the window', async () => {
    const ip = '10.1.1.1';
    for (let i = 0; i < 3; i++)
      expect((await post('/api/users/login', login(`ip${i}@example.com`), ip)).statusCode).toBe(401);
    const limited = await post('/api/users/login', login('ip9@example.com'), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many requests, please try again in \d+ seconds\.$/);
    expect((await post('/api/users/login', login('ip9@example.com'), '10.1.1.2')).statusCode).toBe(401);
    afterTheWindow();
    expect((await post('/api/users/login', login('ip9@example.com'), ip)).statusCode).toBe(401);
  });

  it('limits sign-in per account from one client address, and never locks the owner out elsewhere', async () => {
    const email = 'target@example.com';
    expect((await post('/api/users/login', login(email), '10.2.0.1')).statusCode).toBe(401);
    expect((await post('/api/users/login', login(email.toUpperCase()), '10.2.0.1')).statusCode).toBe(401);
    const limited = await post('/api/users/login', login(email), '10.2.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many requests/);
    // the owner, from their own address, can still sign in
    expect((await post('/api/users/login', login(email), '10.2.0.2')).statusCode).toBe(401);
    afterTheWindow();
    expect((await post('/api/users/login', login(email), '10.2.0.1')).statusCode).toBe(401);
  });

  it('limits registration, forgot-password, resend and guest creation', async () => {
    expect((await post('/api/users', person(1), '10.3.0.1')).statusCode).toBe(201);
    expect((await post('/api/users', person(2), '10.3.0.1')).statusCode).toBe(429);

    expect((await post('/api/users/fpw', { email: 'fpw@example.com' }, '10.3.0.2')).statusCode).toBe(200);
    expect((await post('/api/users/fpw', { email: 'fpw@example.com' }, '10.3.0.3')).statusCode).toBe(429);
    expect((await post('/api/users/fpw', { email: 'other@example.com' }, '10.3.0.3')).statusCode).toBe(200);

    expect((await post('/api/users/resendconfirmation', { email: 'r1@example.com' }, '10.3.0.4')).statusCode).toBe(200);
    expect((await post('/api/users/resendconfirmation', { email: 'r2@example.com' }, '10.3.0.4')).statusCode).toBe(429);
    expect((await post('/api/users/resendconfirmation', { email: 'r1@example.com' }, '10.3.0.5')).statusCode).toBe(429);

    expect((await post('/api/users/guest', {}, '10.3.0.6')).statusCode).toBe(201);
    const guest = await post('/api/users/guest', {}, '10.3.0.6');
    expect(guest.statusCode).toBe(429);
    expect(guest.headers['retry-after']).toBeDefined();
  });
});

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
