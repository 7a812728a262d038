import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { pgErrorOf } from '#server/lib/sql.ts';

export const systemRepository = {
  /** Throws when the database does not answer. */
  async ping(db: Db): Promise<void> {
    await db.execute(sql`select 1`);
  },

  /**
   * When the newest applied migration was created (drizzle records each with its journal `when`), or
   * null when none is applied or the database was never migrated (no migrations table). Throws when the
   * database does not answer.
   */
  async lastMigrationAt(db: Db): Promise<number | null> {
    try {
      const result = await db.execute<{ at: string | number | null }>(
        sql`select max(created_at) as at from drizzle.__drizzle_migrations`,
      );
      const at = result.rows[0]?.at;
      return at === null || at === undefined ? null : Number(at);
    } catch (err) {
      // undefined_table: a database nobody migrated yet
      if (pgErrorOf(err)?.code === '42P01') return null;
      throw err;
    }
  },
};
