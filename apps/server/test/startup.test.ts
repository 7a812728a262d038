import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from './test-db.ts';

const serverDir = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitForHealth(port: number, started: Started, timeoutMs = 100_000): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return Date.now() - t0;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer on port ${port}: ${started.output()}`);
}

const stop = async (s: Started) => {
  s.child.kill('SIGTERM');
  return s.exited;
};

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

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
