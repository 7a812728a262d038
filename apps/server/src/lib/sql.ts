import { sql, type SQL } from 'drizzle-orm';

/** Escapes LIKE's wildcards so user text only ever matches itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive "contains" on an already-lowercased column expression (trigram indexes answer it). */
export function containsLower(column: SQL, value: string): SQL {
  return sql`${column} like ${`%${escapeLike(value.toLowerCase())}%`}`;
}
