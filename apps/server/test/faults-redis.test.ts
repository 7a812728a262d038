import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { createProduct, createUser } from './factories.ts';
import { usAddress } from './orders-support.ts';
import { startPrivateRedis, type PrivateRedis } from './private-redis.ts';
import { bearerFor, killAll, startServer, waitForHealth, type Started } from './processes.ts';
import { freePort } from './smtp.ts';
import { adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from './test-db.ts';

/**
 * Redis stops while a real server process serves traffic with REDIS_URL set, then comes back. The
 * store must keep answering at its usual speed (rate limits count in the process, catalogue writes are
 * not held up by the lost broadcast), say so in its log and in /readyz, and go back to Redis by itself.
 * The Redis is a private one of this test (the machine's own serves other suites).
 */
const JWT_SECRET = `redis-faults-${randomBytes(16).toString('hex')}`;
const PREFIX = `faults-${randomBytes(4).toString('hex')}:`;
const kind = testDbKind();

let redis: PrivateRedis;
let server: Started;
let base: string;
let dataDir: string;
let dbName: string | undefined;
let fixtures: { productId: string; admin: Record<string, string> };

/** Opens the store's database while no server runs (the embedded one allows one process). */
async function withDb<T>(env: Record<string, string>, fn: (db: Database['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, poolSize: 2 } : { dataDir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

/** One request: its status, body and how long it took (a hang fails the test through the abort). */
async function timed(url: string, init: RequestInit = {}) {
  const t0 = Date.now();
  const res = await fetch(base + url, { ...init, signal: AbortSignal.timeout(5_000) });
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  return { status: res.status, body, ms: Date.now() - t0 };
}

const validateAddress = () =>
  timed('/api/shipping/shippingaddress', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(usAddress),
  });

/** Polls /readyz (which must stay 200 throughout) until it reports `redis`. */
async function readyzUntil(redisState: 'up' | 'down', timeoutMs = 10_000) {
  const t0 = Date.now();
  for (;;) {
    const r = await timed('/readyz');
    expect(r.status).toBe(200);
    if (r.body?.redis === redisState) return r.body;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`/readyz never said redis: ${redisState}: ${JSON.stringify(r.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Address validations until the first 429 (at most `max` + 1 requests); answers the statuses. */
async function untilLimited(max: number) {
  const statuses: number[] = [];
  for (let i = 0; i <= max; i++) {
    const r = await validateAddress();
    expect(r.ms).toBeLessThan(1_000);
    statuses.push(r.status);
    if (r.status === 429) break;
  }
  return statuses;
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-redis-faults-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    // the real limits (NODE_ENV=test multiplies them): the address validation limit is reached below
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    JWT_SECRET,
    REDIS_URL: redis.url,
    REDIS_PREFIX: PREFIX,
    LOG_LEVEL: 'info',
  };
  if (kind === 'postgres') {
    dbName = randomDbName();
    await adminQuery(`CREATE DATABASE ${dbName}`);
    env.DATABASE_URL = withDatabase(adminUrl(), dbName);
  }
  fixtures = await withDb(env, async (db) => {
    const product = await createProduct(db, { name: 'Redis Lamp', countInStock: 50 });
    const admin = await createUser(db, { isAdmin: true });
    return { productId: product.id, admin: await bearerFor(JWT_SECRET, admin) };
  });
  server = startServer(env);
  await waitForHealth(port, server, { path: '/readyz' });
}, 120_000);

afterAll(async () => {
  killAll();
  await redis?.kill();
  if (dbName) await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe(`Redis outage with REDIS_URL set (${kind})`, () => {
  it('keeps answering while Redis is down and recovers when it returns', { timeout: 60_000 }, async () => {
    const probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    const rateLimitKeys = async () => {
      await probe.connect().catch(() => {});
      return probe.keys(`${PREFIX}rate-limit:*`);
    };
    try {
      // Redis up: the limit (30 address validations a minute per address) is counted in Redis
      expect(await readyzUntil('up')).toMatchObject({ status: 'ready', redis: 'up' });
      expect(await untilLimited(30)).toEqual([...Array(30).fill(200), 429]);
      expect((await rateLimitKeys()).length).toBeGreaterThan(0);
      probe.disconnect();

      await redis.kill();
      expect(await readyzUntil('down', 5_000)).toMatchObject({ status: 'ready', redis: 'down' });
      // the process's log reaches us through a pipe: wait for the line rather than race it
      await expect
        .poll(() => server.output(), { timeout: 5_000 })
        .toMatch(/Redis unavailable: rate limits now count in this process only/);

      // still serving at its usual speed: catalogue reads, a catalogue write (its broadcast is lost,
      // this process's own answers are dropped), and a limit that still holds, counted here
      const product = `/api/products/${fixtures.productId}`;
      const read = await timed(product);
      expect(read).toMatchObject({ status: 200, body: { name: 'Redis Lamp' } });
      expect(read.ms).toBeLessThan(1_000);
      const write = await timed(product, {
        method: 'PUT',
        headers: fixtures.admin,
        body: JSON.stringify({ name: 'Redis Lamp (renamed)' }),
      });
      expect(write.status).toBe(200);
      expect(write.ms).toBeLessThan(1_000);
      expect((await timed(product)).body?.name).toBe('Redis Lamp (renamed)');
      expect(await untilLimited(30)).toEqual([...Array(30).fill(200), 429]);
      expect(server.child.exitCode).toBeNull();

      // Redis returns (empty, as after a crash): the store reconnects by itself and says so
      await redis.start();
      expect(await readyzUntil('up')).toMatchObject({ status: 'ready', redis: 'up' });
      await expect
        .poll(() => server.output(), { timeout: 5_000 })
        .toMatch(/Redis is back: rate limits and cache invalidation are shared again/);
      const back = new Redis(redis.url, { maxRetriesPerRequest: 0 });
      try {
        // the catalogue subscription is live again, and limits count in Redis again
        const [, subscribers] = (await back.pubsub('NUMSUB', `${PREFIX}catalog-invalidate`)) as [string, number];
        expect(subscribers).toBe(1);
        expect((await validateAddress()).status).toBe(200);
        expect((await back.keys(`${PREFIX}rate-limit:*`)).length).toBeGreaterThan(0);
      } finally {
        back.disconnect();
      }

      // a Redis that stops answering without closing its connections: each command is given up after
      // 500 ms and counted here instead, so requests are a little slower, never stuck
      redis.freeze();
      try {
        for (let i = 0; i < 3; i++) {
          // another limited route (its count in this process starts afresh)
          const r = await timed('/api/orders/shipments/tracking', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ trackingId: 'LB1', destinationCountry: 'US', language: 'en', zipcode: '62701' }),
          });
          expect(r.status).toBe(200);
          expect(r.ms).toBeLessThan(1_500);
        }
      } finally {
        redis.thaw();
      }

      // one line for the outage and one for the recovery, not one per reconnection attempt; no 500
      expect(server.output().match(/Redis unavailable/g)).toHaveLength(1);
      expect(server.output()).not.toMatch(/"statusCode":500|unhandled error/);
      expect(server.child.exitCode).toBeNull();
    } finally {
      probe.disconnect();
    }
  });
});
