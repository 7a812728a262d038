import { isObjectId } from '@store/shared';
import { and, asc, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { supportMessages, users } from '#server/db/schema/index.ts';
import { containsLower as contains } from '#server/lib/sql.ts';
import type { UserRow } from '../users/users.repository.ts';

type Conn = Db | Tx;
export type MessageRow = typeof supportMessages.$inferSelect;
export const CONVERSATION_MAX = 500;

export const supportRepository = {
  async insert(db: Conn, row: typeof supportMessages.$inferInsert): Promise<MessageRow> {
    const [inserted] = await db.insert(supportMessages).values(row).returning();
    return inserted!;
  },

  /** An account (not a guest) by id or username (case-insensitive). */
  async findAccount(db: Conn, idOrUsername: string): Promise<UserRow | undefined> {
    const byId = isObjectId(idOrUsername) ? eq(users.id, idOrUsername) : undefined;
    const byName = sql`lower(${users.username}) = ${idOrUsername.toLowerCase()}`;
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.isGuest, false), byId ? or(byId, byName) : byName))
      .limit(1);
    return row;
  },

  async activeAdminEmails(db: Conn): Promise<string[]> {
    const rows = await db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.isAdmin, true), eq(users.isActive, true), eq(users.isGuest, false), isNotNull(users.email)));
    return rows.map((r) => r.email!).filter(Boolean);
  },

  /** The newest message of a contact thread (its sender's name and subject), or undefined. */
  async lastContactMessage(db: Conn, email: string): Promise<MessageRow | undefined> {
    const [row] = await db
      .select()
      .from(supportMessages)
      .where(
        and(sql`lower(${supportMessages.threadEmail}) = ${email.toLowerCase()}`, eq(supportMessages.isContact, true)),
      )
      .orderBy(desc(supportMessages.createdAt))
      .limit(1);
    return row;
  },

  /** The newest CONVERSATION_MAX messages of a thread, oldest first. */
  async conversation(db: Conn, thread: { userId: string } | { email: string }): Promise<MessageRow[]> {
    const where =
      'userId' in thread
        ? eq(supportMessages.threadUserId, thread.userId)
        : sql`lower(${supportMessages.threadEmail}) = ${thread.email.toLowerCase()}`;
    const rows = await db
      .select()
      .from(supportMessages)
      .where(where)
      .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
      .limit(CONVERSATION_MAX);
    return rows.reverse();
  },

  /** Accounts matching q in username, names or e-mail (trigram indexes), by username. */
  async searchAccounts(db: Conn, q: string, limit: number) {
    const filter = q
      ? or(
          contains(sql`lower(${users.username})`, q),
          contains(sql`${users.email}`, q),
          contains(sql`lower(${users.firstName})`, q),
          contains(sql`lower(${users.lastName})`, q),
        )
      : undefined;
    return db
      .select({
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(and(eq(users.isGuest, false), filter))
      .orderBy(asc(sql`lower(${users.username})`))
      .limit(limit);
  },

  /** Distinct contact-form senders whose e-mail contains q, most recent first. */
  async searchContactSenders(db: Conn, q: string, limit: number): Promise<{ email: string; name: string }[]> {
    const email = sql<string>`lower(${supportMessages.threadEmail})`;
    const rows = await db
      .select({
        email,
        name: sql<string>`max(${supportMessages.senderName})`,
        last: sql`max(${supportMessages.createdAt})`,
      })
      .from(supportMessages)
      .where(and(isNotNull(supportMessages.threadEmail), q ? contains(email, q) : undefined))
      .groupBy(email)
      .orderBy(desc(sql`max(${supportMessages.createdAt})`))
      .limit(limit);
    return rows.map((r) => ({ email: r.email, name: r.name ?? '' }));
  },
};
