import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('health checks for load balancers', () => {
  it('GET /healthz answers while the process is alive', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /readyz answers 200 when the database answers and is migrated', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    // without REDIS_URL, Redis is reported as not in use (with it: 'up' or 'down', test/faults-redis.test.ts)
    expect(res.json()).toEqual({ status: 'ready', migration: expect.any(String), redis: 'off' });
  });

  it('GET /readyz answers 503 when the database is unreachable', async () => {
    const spy = vi.spyOn(t.app.db, 'execute').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Database unreachable', code: 'SERVICE_UNAVAILABLE' });
    } finally {
      spy.mockRestore();
    }
    // /healthz does not touch the database: the process is still alive
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('GET /readyz answers 503 while the newest migration is not applied', async () => {
    const db = t.database.db;
    const [newest] = (
      await db.execute<{ id: number; hash: string; created_at: string }>(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )
    ).rows;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`);
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/^Database migrations not applied/);
    } finally {
      await db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`,
      );
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('keeps GET /api/health', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.json()).toEqual({ status: 'ok', database: t.database.kind });
  });
});
