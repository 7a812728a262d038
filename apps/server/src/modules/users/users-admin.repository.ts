import { and, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
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

/**
 * The admin list's ORDER BY, matching its index read forwards or backwards (the NULLS placement is spelled
 * out because a backward scan reverses it too); the id breaks ties so pages never overlap.
 */
function accountOrder(sort: 'createdAt' | 'username' | 'name' | 'email', dir: 'asc' | 'desc'): SQL[] {
  const keys: SQL[] =
    sort === 'username'
      ? [sql`lower(${users.username})`, sql`${users.id}`]
      : sort === 'name'
        ? [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, sql`${users.id}`]
        : sort === 'email'
          ? [sql`${users.email}`, sql`${users.id}`]
          : [];
  // users_list_created_idx is (created_at DESC NULLS LAST, id DESC NULLS LAST)
  if (sort === 'createdAt') {
    return dir === 'desc'
      ? [sql`${users.createdAt} desc nulls last`, sql`${users.id} desc nulls last`]
      : [sql`${users.createdAt} asc nulls first`, sql`${users.id} asc nulls first`];
  }
  return keys.map((k) => (dir === 'asc' ? sql`${k} asc nulls last` : sql`${k} desc nulls first`));
}

/** The admin screens' reads of accounts; guests, made at checkout, are left out of lists and counts. */
export const usersAdminRepository = {
  /** A page of accounts in the asked order, each sort read from its partial index (users_list_*_idx). */
  async listAccounts(
    db: Conn,
    filter: AccountFilter,
    page: { limit: number; offset: number; sort: 'createdAt' | 'username' | 'name' | 'email'; dir: 'asc' | 'desc' },
  ) {
    return db
      .select()
      .from(users)
      .where(accountsWhere(filter))
      .orderBy(...accountOrder(page.sort, page.dir))
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
