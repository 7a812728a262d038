import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { killAll, startServer, stop, waitForHealth } from './processes.ts';
import { adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from './test-db.ts';

afterAll(killAll);

// Each block applies to one kind of database; the other run of the suite covers the other.
if (testDbKind() === 'pglite')
  describe('starting on the embedded database', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-start-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('refuses a second process on the same data directory, and says why', { timeout: 120_000 }, async () => {
      const first = startServer({ DATA_DIR: dataDir, PORT: '3211' });
      await waitForHealth(3211, first);
      const second = startServer({ DATA_DIR: dataDir, PORT: '3212' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/in use by another store process/);
      expect((await fetch('http://127.0.0.1:3211/api/health')).ok).toBe(true);
      expect(await stop(first)).toBe(0);
    });

    it('reopens an existing data directory after a clean stop', { timeout: 120_000 }, async () => {
      const again = startServer({ DATA_DIR: dataDir, PORT: '3213' });
      await waitForHealth(3213, again);
      const health = await (await fetch('http://127.0.0.1:3213/api/health')).json();
      expect(health).toEqual({ status: 'ok', database: 'pglite' });
      expect(again.output()).not.toMatch(/error/i);
      expect(await stop(again)).toBe(0);
    });

    it(
      'queues a burst of new connections instead of dropping them (listen backlog 4,096)',
      { timeout: 120_000 },
      async () => {
        const started = startServer({ DATA_DIR: dataDir, PORT: '3214' });
        await waitForHealth(3214, started);
        // a listening socket's Send-Q is its backlog, as the kernel took it (capped at net.core.somaxconn);
        // Node's default, 511, drops the SYNs of a burst past it while the process is busy
        const [, , sendQ] = execFileSync('ss', ['-Hltn', 'sport = :3214'], { encoding: 'utf8' }).trim().split(/\s+/);
        const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
        expect(Number(sendQ)).toBe(Math.min(4096, somaxconn));
        expect(Number(sendQ)).toBeGreaterThan(511);
        expect(await stop(started)).toBe(0);
      },
    );

    it('makes no demo admin and prints no password in production', { timeout: 120_000 }, async () => {
      const prodDir = mkdtempSync(path.join(os.tmpdir(), 'store-prod-'));
      try {
        const prod = startServer({
          DATA_DIR: prodDir,
          PORT: '3214',
          NODE_ENV: 'production',
          JWT_SECRET: 'a-production-secret-of-at-least-32-chars',
          LOG_LEVEL: 'info',
        });
        await waitForHealth(3214, prod);
        expect(await stop(prod)).toBe(0);
        expect(prod.output()).not.toMatch(/password/i);
        expect(existsSync(path.join(prodDir, 'admin-credentials.txt'))).toBe(false);
        const db = await openDatabase({ dataDir: prodDir });
        try {
          expect(await db.db.select().from(users).where(eq(users.isAdmin, true))).toEqual([]);
        } finally {
          await db.close();
        }
      } finally {
        rmSync(prodDir, { recursive: true, force: true });
      }
    });

    it('stops with a message naming a bad variable', { timeout: 120_000 }, async () => {
      const bad = startServer({ DATA_DIR: dataDir, PORT: 'not-a-port' });
      expect(await bad.exited).toBe(1);
      expect(bad.output()).toMatch(/PORT/);
    });
  });

if (testDbKind() === 'postgres')
  describe('starting on PostgreSQL', () => {
    it('lets two server processes share one database', { timeout: 120_000 }, async () => {
      const name = randomDbName();
      await adminQuery(`CREATE DATABASE ${name}`);
      try {
        const env = { DATABASE_URL: withDatabase(adminUrl(), name) };
        const a = startServer({ ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'store-a-')), PORT: '3221' });
        await waitForHealth(3221, a);
        const b = startServer({ ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'store-b-')), PORT: '3222' });
        await waitForHealth(3222, b);
        const [ra, rb] = await Promise.all([
          fetch('http://127.0.0.1:3221/api/health'),
          fetch('http://127.0.0.1:3222/api/health'),
        ]);
        expect(await ra.json()).toEqual({ status: 'ok', database: 'postgres' });
        expect(await rb.json()).toEqual({ status: 'ok', database: 'postgres' });
        expect(await stop(a)).toBe(0);
        expect(await stop(b)).toBe(0);
      } finally {
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });
  });
