import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { DB_TIMEOUTS, pgPool, type DbTimeouts } from './pg-pool.ts';
import * as schema from './schema/index.ts';

export { DB_TIMEOUTS, type DbTimeouts };
export type Schema = typeof schema;
// Both drivers expose the same query builder; typing against the pg one keeps services driver-agnostic.
export type Db = ReturnType<typeof drizzlePg<Schema>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL only: its connection string (the catalogue's background builds open connections of their own). */
  url?: string;
  close(): Promise<void>;
  /** The embedded database's files as one gzipped tarball: a consistent snapshot taken between queries. */
  dump?(): Promise<Blob>;
  /**
   * PostgreSQL only: from now on each new connection of the pool sends the plan of every statement taking at
   * least `ms` (explainSlowStatements); called before the pool's first query, so every connection does.
   */
  logSlowQueryPlans?(ms: number, log: PlanLog): void;
}

/** Where slow statements' plans go (the app's logger). */
export interface PlanLog {
  warn(obj: object, msg: string): void;
}

/** auto_explain's message: `duration: 50.181 ms  plan:` and then the plan, led by the statement's text. */
const AUTO_EXPLAIN_NOTICE = /^duration: ([\d.]+) ms\s+plan:\n([\s\S]*)$/;

/**
 * auto_explain in every new connection of the pool (its onConnect hook, awaited before the connection's
 * first query): a statement (nested ones too, e.g. inside a function) taking at least `ms` sends its plan
 * with actual rows and buffers as a NOTICE, logged at warn as { ms, plan } 'slow query plan'. Per-node timing is left off (its clock reads cost most), but every
 * statement is still instrumented: a diagnosis setting, not one to leave on. LOAD needs a superuser (or
 * auto_explain in session_preload_libraries, its settings then set for the role): where it fails, one
 * warning, and plans only if the server sends them by its own settings.
 */
function explainSlowStatements(ms: number, log: PlanLog): (client: pg.ClientBase) => Promise<void> {
  const setup = [
    "LOAD 'auto_explain'",
    `SET auto_explain.log_min_duration = ${Math.trunc(ms)}`,
    'SET auto_explain.log_analyze = on',
    'SET auto_explain.log_buffers = on',
    'SET auto_explain.log_timing = off',
    'SET auto_explain.log_nested_statements = on',
    "SET auto_explain.log_level = 'notice'",
  ].join('; ');
  let refused = false;
  return async (client) => {
    client.on('notice', (notice) => {
      const m = AUTO_EXPLAIN_NOTICE.exec(notice.message ?? '');
      if (m) log.warn({ ms: Number(m[1]), plan: m[2]?.trimEnd() }, 'slow query plan');
    });
    if (refused) return;
    // one statement list: where LOAD fails, none of the settings is left half applied. It must not throw
    // (the pool would drop the connection)
    await client.query(setup).catch((err: Error) => {
      if (refused) return;
      refused = true;
      log.warn(
        { err: err.message },
        "SLOW_QUERY_PLAN_MS: auto_explain could not be switched on (LOAD 'auto_explain' needs a superuser, or auto_explain in session_preload_libraries): no query plans",
      );
    });
  };
}

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations');

export class DataDirLockedError extends Error {}

/** pg_advisory_lock key held while migrations run on PostgreSQL. */
const MIGRATION_LOCK = 7_470_431;

/** PGlite must have one process per data dir: two would both "work" and then lose data silently. */
export function acquireLock(dir: string): () => void {
  const lockFile = path.join(dir, 'store.lock');
  const take = () => {
    const fd = openSync(lockFile, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  };
  try {
    take();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    let alive = false;
    if (pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code === 'EPERM';
      }
    }
    if (alive)
      throw new DataDirLockedError(
        `The data directory ${dir} is in use by another store process (pid ${pid}). ` +
          'Only one process may use the embedded database; stop the other one, or set DATABASE_URL to share a PostgreSQL server.',
      );
    // a stale lock from a process that crashed: take it over
    rmSync(lockFile, { force: true });
    take();
  }
  return () => rmSync(lockFile, { force: true });
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** An in-memory PGlite loaded from a dump (tests). */
  pgliteDump?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL only: statements run again and again go as named prepared statements (default true). Off for
   * a connection pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
  /** PostgreSQL only: how long a request may wait for the database (defaults: DB_TIMEOUTS). */
  timeouts?: Partial<DbTimeouts>;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const t = { ...DB_TIMEOUTS, ...opts.timeouts };
    // set by logSlowQueryPlans (auto_explain in every new connection)
    let onConnect: ((client: pg.ClientBase) => Promise<void>) | undefined;
    const pool = pgPool(opts.databaseUrl, {
      max: opts.poolSize ?? 20,
      timeouts: t,
      // statements the store runs again and again are parsed and planned once per connection
      preparedStatements: opts.preparedStatements !== false,
      onConnect: async (client) => {
        await onConnect?.(client);
      },
    });
    const db = drizzlePg({ client: pool, schema });
    // several processes (WORKERS, several machines) may start at once: one migrates, the others wait
    // (a connection of its own, outside the pool, which may hold a single connection). The migrations
    // run on that connection too, free of the request timeouts (an index on a large table takes a while).
    const lock = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: t.connectMs });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await lock.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await migratePg(drizzlePg({ client: lock, schema }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lock.end().catch(() => {}); // ending the session releases the lock
    }
    return {
      db,
      kind: 'postgres',
      url: opts.databaseUrl,
      close: () => pool.end(),
      logSlowQueryPlans: (ms, log) => {
        onConnect = explainSlowStatements(ms, log);
      },
    };
  }
  let release = () => {};
  let client: PGlite;
  if (opts.pgliteDump) {
    client = await PGlite.create({ loadDataDir: opts.pgliteDump, extensions: { pg_trgm } });
  } else {
    if (!opts.dataDir) throw new Error('dataDir is required for the embedded database');
    const dbDir = path.join(opts.dataDir, 'db');
    mkdirSync(opts.dataDir, { recursive: true });
    release = acquireLock(opts.dataDir);
    try {
      client = await PGlite.create(dbDir, { extensions: { pg_trgm } });
    } catch (err) {
      release();
      throw err;
    }
  }
  await client.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    dump: () => client.dumpDataDir('gzip'),
    close: async () => {
      await client.close();
      release();
    },
  };
}

export function dataDirExists(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'db', 'PG_VERSION'));
}
