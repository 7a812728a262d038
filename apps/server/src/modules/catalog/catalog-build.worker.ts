/**
 * A worker thread that reads one of the catalogue's in-process indexes from PostgreSQL on connections of
 * its own and hands back its arrays (started by background-builds.ts, one per build). The server's event
 * loop then spends nothing on the rows of a million products: it only wraps the arrays it is given.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { drizzle } from 'drizzle-orm/node-postgres';
import { DB_TIMEOUTS, pgPool } from '#server/db/pg-pool.ts';
import * as schema from '#server/db/schema/index.ts';
import type { BuildJob, BuildMessage } from './background-builds.ts';
import { readFacetColumns, readKeywordParts } from './catalog-builds.ts';

/** The memory of the typed arrays in `value` that each fill a whole buffer: sent without a copy. */
function transferables(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && value.byteLength === value.buffer.byteLength) found.add(value.buffer);
  } else if (value && typeof value === 'object' && !Array.isArray(value))
    for (const v of Object.values(value)) transferables(v, found);
  return [...found];
}

/**
 * The build yields the processor to the server's own thread, which answers requests meanwhile: on Linux
 * this thread's nice value is raised (a thread is scheduled by its own id, read from /proc/thread-self).
 * Where that is not possible the build runs at the process's priority.
 */
function yieldToRequests(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // not Linux, or not allowed: the same priority as the server
  }
}

yieldToRequests();
const job = workerData as BuildJob;
// the facet table's read takes two connections at once (its rows, and the ranks the database computes)
const pool = pgPool(job.url, { max: 2, timeouts: DB_TIMEOUTS, preparedStatements: false });
const db = drizzle({ client: pool, schema });
let message: BuildMessage;
try {
  message =
    job.kind === 'keyword'
      ? { kind: 'keyword', parts: await readKeywordParts(db, job.minProducts, job.chunk) }
      : { kind: 'facets', columns: await readFacetColumns(db, job.chunk, job.fewMatches) };
} catch (err) {
  message = { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
}
await pool.end().catch(() => {});
parentPort!.postMessage(message, transferables(message));
