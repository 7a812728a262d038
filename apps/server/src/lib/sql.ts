import { and, getTableColumns, gte, inArray, lte, sql, type AnyColumn, type SQL, type Table } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '#server/db/client.ts';
import { direct, type Bind } from './prepared-shapes.ts';

/** Escapes LIKE's wildcards so user text only ever matches itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The LIKE pattern of a case-insensitive "contains" on a lowercased column: `%value%`, escaped. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value.toLowerCase())}%`;
}

/**
 * Case-insensitive "contains" on an already-lowercased column expression (trigram indexes answer it); the
 * pattern put in by `bind` under `name` (lib/prepared-shapes.ts).
 */
export function containsLower(column: SQL, value: string, bind: Bind = direct, name = 'contains'): SQL {
  return sql`${column} like ${bind(name, containsPattern(value))}`;
}

const LOWER_HEX = /^[0-9a-f]+$/;

/**
 * `column` is one of `values`, sent as one array parameter (an array literal, as both drivers pass a text
 * parameter the same way) rather than one parameter each. The statement's text is then the same for any
 * number of values, so one prepared statement serves every batch size (db/prepared-statements.ts), and a
 * long list costs no building, sending and planning of an IN list of that many items. Only lowercase hex
 * values (ids, token hashes) can go in the literal as they are; any other list goes as an IN list. `bind`
 * puts the values in (lib/prepared-shapes.ts).
 */
export function anyOf(column: AnyPgColumn, values: readonly string[], bind: Bind = direct): SQL {
  if (!values.every((v) => LOWER_HEX.test(v)))
    return inArray(
      column,
      values.map((v, i) => bind(`any.${i}`, v)),
    );
  return sql`${column} = any(${bind('any', `{${values.join(',')}}`)}::${sql.raw(column.getSQLType())}[])`;
}

/**
 * `limit n` written into the statement's text rather than bound. PostgreSQL plans a bound LIMIT as if it
 * kept a tenth of the rows, so a prepared statement's generic plan looks cheap beside plans that see the
 * other values (a LIKE prefix), and it keeps that plan for them all: one read of a username's orders walked
 * 750,000 index entries in 227 ms instead of 75,000 in 17 ms. A written limit costs the same in every
 * plan. Only a positive safe integer is accepted.
 */
export function literalLimit(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`not a row limit: ${n}`);
  return sql.raw(`limit ${n}`);
}

/**
 * The values of an integer column in at most `limit` rows of `table` matching `where`, in no order, as one
 * text aggregated by PostgreSQL (one row to read instead of one per value).
 */
export async function integersOf(
  db: Db | Tx,
  column: AnyPgColumn,
  table: PgTable,
  where: SQL | undefined,
  limit: number,
): Promise<Int32Array> {
  const result = await db.execute<{ v: string | null }>(sql`
    select string_agg(s.v::text, ',') as v
    from (select ${column} as v from ${table} where ${where ?? sql`true`} ${literalLimit(limit)}) s`);
  const text = result.rows[0]?.v;
  return text ? parseIntegers(text) : new Int32Array(0);
}

/**
 * Comma-separated integers (as `integersOf` reads them) in one pass over the text, without a string per
 * value: a read of 56,000 prices was 56,000 short strings for the collector before.
 */
export function parseIntegers(text: string): Int32Array {
  let n = 1;
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 44) n++;
  const out = new Int32Array(n);
  let j = 0;
  let value = 0;
  let negative = false;
  for (let k = 0; k <= text.length; k++) {
    const c = k < text.length ? text.charCodeAt(k) : 44;
    if (c === 44) {
      out[j++] = negative ? -value : value;
      value = 0;
      negative = false;
    } else if (c === 45) negative = true;
    else value = value * 10 + (c - 48);
  }
  return out;
}

/**
 * Rows whose 24-hex id starts with `prefix` (any case, spaces around it ignored), as a range on the id
 * column so its btree answers it (LIKE would not); a prefix that is not hex matches nothing.
 */
export function idPrefixRange(column: AnyColumn, prefix: string, bind: Bind = direct): SQL {
  const bounds = idPrefixBounds(prefix);
  return bounds ? and(gte(column, bind('idFrom', bounds[0])), lte(column, bind('idTo', bounds[1])))! : sql`false`;
}

/** The first and last id starting with a hex prefix, or null when it cannot start an id. */
export function idPrefixBounds(prefix: string): [string, string] | null {
  const p = prefix.trim().toLowerCase();
  if (!/^[0-9a-f]{1,24}$/.test(p)) return null;
  return [p.padEnd(24, '0'), p.padEnd(24, 'f')];
}

/** An error and the errors it wraps (`cause`), outermost first, at most `depth` of them. */
export function* errorChain(err: unknown, depth = 10): Generator<object> {
  for (let e: unknown = err, n = 0; e && n < depth; e = (e as { cause?: unknown }).cause, n++)
    if (typeof e === 'object') yield e;
}

/** The PostgreSQL error (code, constraint) behind a driver or Drizzle error, however deeply wrapped. */
export function pgErrorOf(err: unknown): { code: string; constraint?: string } | undefined {
  for (const e of errorChain(err)) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
  }
  return undefined;
}

/** The index that refused a row as PostgreSQL's unique_violation (`'unique'` when unnamed); else undefined. */
export function uniqueViolation(err: unknown): string | undefined {
  const pg = pgErrorOf(err);
  return pg?.code === '23505' ? (pg.constraint ?? 'unique') : undefined;
}

/**
 * A row that came back as JSON (row_to_json, json_agg) in the shape Drizzle gives for `table`: property
 * names, dates and JSON columns mapped by the table's own column definitions.
 */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [prop, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    out[prop] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}
