/**
 * The store's PostgreSQL connection pools: the request pool (client.ts) and the pools of the catalogue's
 * background builds (catalog-build.worker.ts) are made alike, with the same timeouts and settings.
 */
import pg from 'pg';
import { preparingClient, StatementNames } from './prepared-statements.ts';

export interface DbTimeouts {
  /** Connecting, or waiting for a free connection of the pool. */
  connectMs: number;
  /** One statement, enforced by the server (a slow query). */
  statementMs: number;
  /** One query, enforced here (a server or network that stopped answering): a little above statementMs. */
  queryMs: number;
}

/**
 * No request waits on the database for long: a server that is restarting refuses at once (503), one that
 * stopped answering is given up after these. Generous for a shop's queries; migrations run outside them.
 */
export const DB_TIMEOUTS: DbTimeouts = { connectMs: 10_000, statementMs: 30_000, queryMs: 35_000 };

export interface PoolOptions {
  max: number;
  timeouts: DbTimeouts;
  /** Statements run again and again go as named prepared statements (prepared-statements.ts). */
  preparedStatements: boolean;
  /** Awaited before a new connection's first query (after the store's own settings). */
  onConnect?: (client: pg.ClientBase) => Promise<void>;
}

export function pgPool(url: string, o: PoolOptions): pg.Pool {
  const t = o.timeouts;
  const pool = new pg.Pool({
    Client: preparingClient(new StatementNames(o.preparedStatements ? undefined : 0)),
    connectionString: url,
    max: o.max,
    connectionTimeoutMillis: t.connectMs,
    statement_timeout: t.statementMs,
    query_timeout: t.queryMs,
    // a transaction left open (a bug, a lost client) must not hold row locks for long
    idle_in_transaction_session_timeout: t.queryMs * 2,
    keepAlive: true,
    onConnect: async (client) => {
      // JIT compiles any statement the planner costs above jit_above_cost: 30-70 ms more on the shop's
      // larger reads (a search's facets over 30,000 matches: 300 ms with it, 235 ms without), never a win
      // for queries that run in milliseconds to a second. Off for the store's connections; a failure
      // (a server without the setting) leaves it as it was.
      await client.query('SET jit = off').catch(() => {});
      await o.onConnect?.(client);
    },
  });
  // idle clients lost in a restart leave the pool; the next query opens a fresh connection
  pool.on('error', () => {});
  // a connection the server ends while it is checked out (a restart, or a transaction left idle past its
  // timeout while the database was stalled) fails the query in flight on it; the error must not also
  // escape as an uncaught exception and take the process down
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
