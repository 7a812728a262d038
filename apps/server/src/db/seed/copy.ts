/**
 * Bulk loading into PostgreSQL for the seed CLI: rows streamed through `COPY … FROM STDIN` (text format) on
 * connections of their own, and the secondary indexes of tables that start empty dropped before the load
 * and built again from their recorded definitions after it.
 */
import { once } from 'node:events';
import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Characters COPY's text format gives a meaning to, and how a value spells them. */
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value in COPY's text format: null as \N; dates as ISO instants; objects (jsonb) as JSON. */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  let s: string;
  if (typeof value === 'string') s = value;
  else if (typeof value === 'number') return String(value);
  else if (typeof value === 'boolean') return value ? 't' : 'f';
  else if (value instanceof Date) return value.toISOString();
  else s = JSON.stringify(value);
  return SPECIAL.test(s) ? s.replace(SPECIALS, (c) => ESCAPES[c] as string) : s;
}

/**
 * Opens a connection for a long bulk statement: no statement timeout, and (when the role may) with
 * triggers and foreign-key checks off (`session_replication_role = replica`): the loader makes
 * consistent rows and redoes once what the triggers would have done per row.
 */
export async function bulkConnection(databaseUrl: string, replica: boolean): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  client.on('error', () => {}); // a failed statement rejects its own promise
  await client.query('SET statement_timeout = 0');
  await client.query('SET synchronous_commit = off');
  if (replica) await client.query('SET session_replication_role = replica');
  return client;
}

/** Whether this role may switch triggers off for its session (a superuser, or one granted the setting). */
export async function canSkipTriggers(client: pg.Client): Promise<boolean> {
  try {
    await client.query('SET session_replication_role = replica');
    await client.query('SET session_replication_role = DEFAULT');
    return true;
  } catch {
    return false;
  }
}

/**
 * Rows of one table streamed into `COPY table (columns) FROM STDIN`, in the order of `keys` (the Drizzle
 * keys of the columns; each row must carry every one of them: a missing one would load as NULL). Lines
 * are gathered into chunks and written with backpressure, so memory stays flat however many rows go.
 */
export class CopyWriter<T extends Table> {
  readonly name: string;
  rows = 0;
  private chunk: string[] = [];
  private chunkChars = 0;
  /** Rejects when the COPY fails (a bad row, a lost connection), whenever that happens. */
  private readonly failure: Promise<never>;
  private constructor(
    private readonly client: pg.Client,
    private readonly stream: ReturnType<typeof copyFrom>,
    private readonly keys: readonly (keyof T['$inferInsert'] & string)[],
    name: string,
  ) {
    this.name = name;
    this.failure = new Promise<never>((_, reject) => stream.once('error', reject));
    this.failure.catch(() => {}); // observed by whoever waits on the stream next
  }

  static async open<T extends Table>(
    databaseUrl: string,
    table: T,
    keys: readonly (keyof T['$inferInsert'] & string)[],
    replica: boolean,
  ): Promise<CopyWriter<T>> {
    const columns = getTableColumns(table) as Record<string, { name: string }>;
    const names = keys.map((k) => {
      const column = columns[k];
      if (!column) throw new Error(`no column ${k} in ${getTableName(table)}`);
      return `"${column.name}"`;
    });
    const name = getTableName(table);
    const client = await bulkConnection(databaseUrl, replica);
    const stream = client.query(copyFrom(`COPY "${name}" (${names.join(', ')}) FROM STDIN`));
    return new CopyWriter<T>(client, stream, keys, name);
  }

  /** Queues one row; resolves at once unless the connection is behind, then once it caught up. */
  async push(row: T['$inferInsert']): Promise<void> {
    const record = row as Record<string, unknown>;
    let line = '';
    for (let i = 0; i < this.keys.length; i++) {
      if (i) line += '\t';
      line += copyField(record[this.keys[i] as string]);
    }
    this.chunk.push(line);
    this.chunkChars += line.length + 1;
    this.rows++;
    if (this.chunkChars >= 256 * 1024) await this.flush();
  }

  async pushAll(rows: readonly T['$inferInsert'][]): Promise<void> {
    for (const row of rows) await this.push(row);
  }

  private async flush(): Promise<void> {
    if (!this.chunk.length) return;
    const data = `${this.chunk.join('\n')}\n`;
    this.chunk = [];
    this.chunkChars = 0;
    if (!this.stream.write(data)) await Promise.race([once(this.stream, 'drain'), this.failure]);
  }

  /** Sends what is left, waits for PostgreSQL to take the whole COPY, and closes the connection. */
  async finish(): Promise<number> {
    try {
      await this.flush();
      const done = once(this.stream, 'finish');
      this.stream.end();
      await Promise.race([done, this.failure]);
    } finally {
      await this.client.end().catch(() => {});
    }
    return this.rows;
  }

  /** Gives up: the COPY fails (its rows are not kept) and the connection closes. */
  async abort(): Promise<void> {
    this.stream.destroy(new Error('seed aborted'));
    await this.client.end().catch(() => {});
  }
}

/** Where generated rows go, a batch at a time: INSERTs, or COPY streams. */
export interface RowSink<R> {
  write(rows: R): Promise<void>;
  /** Waits until every row is stored. */
  finish(): Promise<void>;
  /** Gives up after a failure: nothing more is sent. */
  abort(): Promise<void>;
}

/** A sink over COPY writers, one a table: `push` hands each writer its part of a batch. */
interface Closable {
  finish(): Promise<number>;
  abort(): Promise<void>;
}

export async function copySink<W extends readonly Promise<Closable>[] | [], R>(
  opening: W,
  push: (writers: { -readonly [K in keyof W]: Awaited<W[K]> }, rows: R) => Promise<void>[],
): Promise<RowSink<R>> {
  const opened = await Promise.allSettled(opening);
  const ok: Closable[] = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const failed = opened.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failed.length) {
    await Promise.all(ok.map((w) => w.abort()));
    throw failed[0];
  }
  const writers = ok as unknown as { -readonly [K in keyof W]: Awaited<W[K]> };
  return {
    async write(rows) {
      await Promise.all(push(writers, rows));
      // a socket that takes every write calls back at once, so all of the above may have run without the
      // event loop ever turning: let it, so other connections' answers (index builds) are read meanwhile
      await new Promise((resolve) => setImmediate(resolve));
    },
    async finish() {
      await Promise.all(ok.map((w) => w.finish()));
    },
    async abort() {
      await Promise.all(ok.map((w) => w.abort()));
    },
  };
}

export interface IndexDefinition {
  table: string;
  name: string;
  definition: string;
}

/**
 * The indexes of `tables` other than those behind a constraint (primary keys, unique constraints), with
 * the statement that creates each (pg_get_indexdef: exactly what the migrations made).
 */
export async function secondaryIndexes(client: pg.Client, tables: readonly string[]): Promise<IndexDefinition[]> {
  const result = await client.query<IndexDefinition>(
    `SELECT t.relname AS "table", i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND t.relname = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
     ORDER BY t.relname, i.relname`,
    [tables],
  );
  return result.rows;
}

export async function dropIndexes(client: pg.Client, indexes: readonly IndexDefinition[]): Promise<void> {
  for (const index of indexes) await client.query(`DROP INDEX IF EXISTS "${index.name}"`);
}

/**
 * Builds the indexes again from their definitions, `parallel` at a time (each on its own connection),
 * the slowest (GIN) first; says how long each took.
 */
export async function createIndexes(
  databaseUrl: string,
  indexes: readonly IndexDefinition[],
  parallel: number,
  say: (line: string) => void,
): Promise<void> {
  const queue = [...indexes].sort(
    (a, b) => Number(/USING gin/i.test(b.definition)) - Number(/USING gin/i.test(a.definition)),
  );
  const work = async () => {
    const client = await bulkConnection(databaseUrl, false);
    try {
      await client.query(`SET maintenance_work_mem = '${Math.floor(1024 / parallel)}MB'`);
      for (let index = queue.shift(); index; index = queue.shift()) {
        const started = Date.now();
        await client.query(index.definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
        say(`index ${index.name} on ${index.table}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    } finally {
      await client.end().catch(() => {});
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, queue.length)) }, work));
}
