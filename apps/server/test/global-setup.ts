import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../src/db/client.ts';
import { PGLITE_TEMPLATE, adminQuery, adminUrl, templateName, testDbKind, withDatabase } from './test-db.ts';

/**
 * Migrates one database once per run; every test file then gets its own copy
 * (a PGlite loaded from a dump, or CREATE DATABASE … TEMPLATE on PostgreSQL): fresh, isolated and fast.
 */
export async function setup() {
  // the API projects (the suite, and its timed tests after it) share one run's template; the run's end
  // clears the mark, so a rerun (watch mode) makes a fresh one
  if (process.env.STORE_TEST_TEMPLATE_READY) return undefined;
  process.env.STORE_TEST_TEMPLATE_READY = '1';
  const unmark = () => void delete process.env.STORE_TEST_TEMPLATE_READY;
  if (testDbKind() === 'postgres') {
    process.env.STORE_TEST_RUN = randomBytes(4).toString('hex');
    const tpl = templateName();
    await adminQuery(`DROP DATABASE IF EXISTS ${tpl}`);
    await adminQuery(`CREATE DATABASE ${tpl}`);
    const database = await openDatabase({ databaseUrl: withDatabase(adminUrl(), tpl), poolSize: 1 });
    await database.close();
    return async () => {
      unmark();
      await adminQuery(`DROP DATABASE IF EXISTS ${tpl} WITH (FORCE)`);
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { MIGRATIONS_DIR } = await import('../src/db/client.ts');
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await client.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
  const dump = await client.dumpDataDir('none');
  await client.close();
  mkdirSync(path.dirname(PGLITE_TEMPLATE), { recursive: true });
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  return unmark;
}
