import { and, asc, desc, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { containsLower as contains, idPrefixRange } from '#server/lib/sql.ts';

type Conn = Db | Tx;

/** The admin list's filters: each one set narrows it; text is matched as a case-insensitive "contains". */
export interface AccountFilter {
  /** A 24-hex id or its prefix. */
  idPrefix?: string;
  firstName?: string;
  lastName?: string;
  username?: string;
  email?: string;
  isAdmin?: boolean;
  /** In the username, the e-mail address or either name. */
  search?: string;
}

/**
 * Accounts (guests, made at checkout, are left out) that pass the filter: each condition is answered by
 * an index (the id's btree, a trigram index per text column).
 */
function accountsWhere(f: AccountFilter): SQL | undefined {
  const lower = (column: AnyColumn) => sql`lower(${column})`;
  return and(
    eq(users.isGuest, false),
    f.idPrefix !== undefined ? idPrefixRange(users.id, f.idPrefix) : undefined,
    f.firstName !== undefined ? contains(lower(users.firstName), f.firstName) : undefined,
    f.lastName !== undefined ? contains(lower(users.lastName), f.lastName) : undefined,
    f.username !== undefined ? contains(lower(users.username), f.username) : undefined,
    // addresses are stored lowercase
    f.email !== undefined ? contains(sql`${users.email}`, f.email) : undefined,
    f.isAdmin !== undefined ? eq(users.isAdmin, f.isAdmin) : undefined,
    f.search !== undefined
      ? or(
          contains(lower(users.username), f.search),
          contains(sql`${users.email}`, f.search),
          contains(lower(users.firstName), f.search),
          contains(lower(users.lastName), f.search),
        )
      : undefined,
  );
}

/** The admin screens' reads of accounts; guests, made at checkout, are left out of lists and counts. */
export const usersAdminRepository = {
  /** A page of accounts, newest first, or by username (recipient suggestions). */
  async listAccounts(db: Conn, filter: AccountFilter, page: { limit: number; offset: number; byUsername: boolean }) {
    return db
      .select()
      .from(users)
      .where(accountsWhere(filter))
      .orderBy(...(page.byUsername ? [asc(sql`lower(${users.username})`)] : [desc(users.createdAt), desc(users.id)]))
      .limit(page.limit)
      .offset(page.offset);
  },

  async countAccounts(db: Conn, filter: AccountFilter = {}): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(accountsWhere(filter));
    return row?.n ?? 0;
  },
};
