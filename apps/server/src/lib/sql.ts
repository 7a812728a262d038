import { getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';

/** Escapes LIKE's wildcards so user text only ever matches itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive "contains" on an already-lowercased column expression (trigram indexes answer it). */
export function containsLower(column: SQL, value: string): SQL {
  return sql`${column} like ${`%${escapeLike(value.toLowerCase())}%`}`;
}

/** The PostgreSQL error (code, constraint) behind a driver or Drizzle error, however deeply wrapped. */
export function pgErrorOf(err: unknown): { code: string; constraint?: string } | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
  }
  return undefined;
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
