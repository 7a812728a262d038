import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '#server/db/client.ts';
import { authTokens, guestSessions, users } from '#server/db/schema/index.ts';
import { PreparedShapes } from '#server/lib/prepared-shapes.ts';
import { anyOf } from '#server/lib/sql.ts';

export type UserRow = typeof users.$inferSelect;
type NewUser = typeof users.$inferInsert;
export type UserChanges = PgUpdateSetSource<typeof users>;
type TokenPurpose = (typeof authTokens.$inferSelect)['purpose'];
type Conn = Db | Tx;

// a link is bound to the address it was sent to: an address change switches to the pending address,
// every other link needs the account's current one
const boundAddress = sql`${authTokens.email} = (case when ${authTokens.purpose} = 'email' then ${users.pendingEmail} else ${users.email} end)`;

/** Users by a list of ids (every signed-in request): one statement, built once (lib/prepared-shapes.ts). */
const byIds = new PreparedShapes();

export const usersRepository = {
  async findById(db: Conn, id: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },

  /** The account (never a guest) using this address; addresses are stored lowercase. */
  async findAccountByEmail(db: Conn, email: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.email, email), eq(users.isGuest, false)));
    return row;
  },

  async usernameTaken(db: Conn, username: string, exceptId?: string): Promise<boolean> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
    return Boolean(row && row.id !== exceptId);
  },

  async insert(db: Conn, values: NewUser): Promise<UserRow> {
    const [row] = await db.insert(users).values(values).returning();
    return row!;
  },

  async update(db: Conn, id: string, values: UserChanges): Promise<UserRow | undefined> {
    const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
    return row;
  },

  /** Ends every bearer token issued so far. */
  bumpTokenVersion: sql`${users.tokenVersion} + 1`,

  /** Counts one more profile update (a captcha is asked from some count on). */
  bumpProfileUpdateCount: sql`${users.profileUpdateCount} + 1`,

  async delete(db: Conn, id: string): Promise<boolean> {
    const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return rows.length > 0;
  },

  /** A link for `email`: it works only while that is still the address it was meant for (see consumeToken). */
  async insertToken(db: Conn, userId: string, purpose: TokenPurpose, tokenHash: string, ttlMs: number, email: string) {
    await db.insert(authTokens).values({ userId, purpose, tokenHash, email, expiresAt: new Date(Date.now() + ttlMs) });
  },

  /**
   * Single use: marks the token used and answers its user and address, or nothing if it is unknown,
   * used, expired, or its address is no longer the account's (the pending one, for an address change).
   */
  async consumeToken(
    db: Conn,
    tokenHash: string,
    purpose: TokenPurpose,
  ): Promise<{ userId: string; email: string } | undefined> {
    const result = await db.execute<{ user_id: string; email: string }>(sql`
      update ${authTokens} set used_at = now()
      from ${users}
      where ${authTokens.tokenHash} = ${tokenHash} and ${authTokens.purpose} = ${purpose}
        and ${authTokens.usedAt} is null and ${authTokens.expiresAt} > now()
        and ${users.id} = ${authTokens.userId} and ${boundAddress}
      returning ${authTokens.userId} as user_id, ${authTokens.email} as email`);
    const row = result.rows[0];
    return row ? { userId: row.user_id, email: row.email } : undefined;
  },

  /** Reads a valid token without using it up (the sign-up token behind /registerconfirm). */
  async peekToken(db: Conn, tokenHash: string, purpose: TokenPurpose): Promise<string | undefined> {
    const [row] = await db
      .select({ userId: authTokens.userId })
      .from(authTokens)
      .innerJoin(users, eq(users.id, authTokens.userId))
      .where(
        and(
          eq(authTokens.tokenHash, tokenHash),
          eq(authTokens.purpose, purpose),
          isNull(authTokens.usedAt),
          gt(authTokens.expiresAt, new Date()),
          boundAddress,
        ),
      );
    return row?.userId;
  },

  /** An older link stops working when a new one is sent. */
  async expireTokens(db: Conn, userId: string, purpose: TokenPurpose) {
    await db
      .update(authTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
  },

  /**
   * Every outstanding link of the account (reset, confirmation, address change) stops working: on a
   * password change, an address change and a deactivation. The sign-up token only shows the address it
   * was sent to, so it is left alone.
   */
  async expireAllTokens(db: Conn, userId: string) {
    await db
      .update(authTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(authTokens.userId, userId), ne(authTokens.purpose, 'signup'), isNull(authTokens.usedAt)));
  },

  async insertGuestSession(db: Conn, userId: string, tokenHash: string, ttlMs: number) {
    await db.insert(guestSessions).values({ userId, tokenHash, expiresAt: new Date(Date.now() + ttlMs) });
  },

  /** Many users by id in one query (the sign-in check of concurrent requests, plugins/auth). */
  async findByIds(db: Conn, ids: string[]): Promise<Map<string, UserRow>> {
    const rows = ids.length
      ? await byIds.run(db, 'users', (bind) =>
          db
            .select()
            .from(users)
            .where(anyOf(users.id, ids, bind)),
        )
      : [];
    return new Map(rows.map((u) => [u.id, u]));
  },

  /** The guests of many live sessions, by token hash, in one query. */
  async findGuestsBySessions(db: Conn, tokenHashes: string[]): Promise<Map<string, UserRow>> {
    if (tokenHashes.length === 0) return new Map();
    const rows = await db
      .select({ hash: guestSessions.tokenHash, user: users })
      .from(guestSessions)
      .innerJoin(users, eq(users.id, guestSessions.userId))
      .where(
        and(
          anyOf(guestSessions.tokenHash, tokenHashes),
          gt(guestSessions.expiresAt, new Date()),
          eq(users.isGuest, true),
        ),
      );
    return new Map(rows.map((r) => [r.hash, r.user]));
  },

  async findGuestBySession(db: Conn, tokenHash: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select({ user: users })
      .from(guestSessions)
      .innerJoin(users, eq(users.id, guestSessions.userId))
      .where(
        and(eq(guestSessions.tokenHash, tokenHash), gt(guestSessions.expiresAt, new Date()), eq(users.isGuest, true)),
      );
    return row?.user;
  },

  async deleteGuestSession(db: Conn, tokenHash: string) {
    await db.delete(guestSessions).where(eq(guestSessions.tokenHash, tokenHash));
  },

  /** Sliding expiry: a guest who comes back keeps the session. */
  async touchGuestSession(db: Conn, tokenHash: string, userId: string, ttlMs: number) {
    const now = new Date();
    await db
      .update(guestSessions)
      .set({ expiresAt: new Date(now.getTime() + ttlMs) })
      .where(eq(guestSessions.tokenHash, tokenHash));
    await db.update(users).set({ lastSeenAt: now }).where(eq(users.id, userId));
  },
};
