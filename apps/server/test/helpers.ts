import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { PGLITE_TEMPLATE, adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from './test-db.ts';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

async function openTestDatabase(poolSize = 5): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (testDbKind() === 'postgres') {
    const name = randomDbName();
    const tpl = `store_tpl_${process.env.STORE_TEST_RUN}`;
    // CREATE DATABASE … TEMPLATE fails while another file is copying the same template: retry briefly
    for (let attempt = 0; ; attempt++) {
      try {
        await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${tpl}`);
        break;
      } catch (err) {
        if (attempt > 20) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    const database = await openDatabase({ databaseUrl: withDatabase(adminUrl(), name), poolSize });
    return { database, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const dump = new Blob([readFileSync(PGLITE_TEMPLATE)]);
  const database = await openDatabase({ pgliteDump: dump });
  return { database, drop: async () => {} };
}

/**
 * A whole app on a fresh database of its own, through app.inject. `extend` runs before the app is ready:
 * a test registers routes of its own there. With `logStream` the app logs (at LOG_LEVEL) its JSON lines there.
 * `poolSize`: the PostgreSQL pool's connections (5 unless a test needs more at once).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  extend?: (app: FastifyInstance) => void | Promise<void>,
  { logStream, poolSize }: { logStream?: { write(line: string): void }; poolSize?: number } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
  const config = loadConfig(
    { NODE_ENV: 'test', DATA_DIR: dataDir, CAPTCHA_DIFFICULTY: 'low', LOG_LEVEL: 'silent', ...env },
    { jwtSecret: 'test-secret-test-secret-test-secret-123456', ...overrides },
  );
  const { database, drop } = await openTestDatabase(poolSize);
  const app = await buildApp({ config, database, logger: Boolean(logStream), logStream });
  await extend?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
