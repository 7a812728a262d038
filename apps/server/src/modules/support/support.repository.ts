import { isObjectId } from '@store/shared';
import { and, asc, count, desc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { supportMessages, supportThreads, users } from '#server/db/schema/index.ts';
import { containsLower as contains } from '#server/lib/sql.ts';
import type { UserRow } from '../users/users.repository.ts';

type Conn = Db | Tx;
export type MessageRow = typeof supportMessages.$inferSelect;
export type ThreadRow = typeof supportThreads.$inferSelect;
export const LAST_CONTENT_MAX = 200;

/** A conversation's key: an account's (`u:<id>`) or a contact sender's (`e:<e-mail>`). */
export const threadKeyOf = (thread: { userId: string } | { email: string }) =>
  'userId' in thread ? `u:${thread.userId}` : `e:${thread.email.toLowerCase()}`;

/** The inbox's newest-first order, as support_threads_last_idx holds it. */
const newestFirst = [sql`${supportThreads.lastMessageAt} desc nulls last`, sql`${supportThreads.id} desc nulls last`];
export const CONVERSATION_MAX = 500;

export const supportRepository = {
  async insert(db: Conn, row: typeof supportMessages.$inferInsert): Promise<MessageRow> {
    const [inserted] = await db.insert(supportMessages).values(row).returning();
    return inserted!;
  },

  /**
   * Keeps the message's conversation row in step (one upsert, safe when messages race): its newest message,
   * the customer as they last wrote, and the unread counts of the side that did not write it.
   */
  async touchThread(db: Conn, m: MessageRow, customer?: { name: string; email: string; subject: string }) {
    const key = m.threadUserId ? threadKeyOf({ userId: m.threadUserId }) : threadKeyOf({ email: m.threadEmail! });
    const t = supportThreads;
    const last = {
      lastMessageAt: sql`greatest(${t.lastMessageAt}, excluded.last_message_at)`,
      lastContent: sql`excluded.last_content`,
      lastFromAdmin: sql`excluded.last_from_admin`,
    };
    const set = m.fromAdmin
      ? { ...last, adminUnread: sql`0`, adminReadAt: sql`now()`, userUnread: sql`${t.userUnread} + 1` }
      : {
          ...last,
          adminUnread: sql`${t.adminUnread} + 1`,
          name: sql`excluded.name`,
          email: sql`excluded.email`,
          subject: customer?.subject ? sql`excluded.subject` : sql`${t.subject}`,
        };
    await db
      .insert(t)
      .values({
        threadKey: key,
        threadUserId: m.threadUserId,
        threadEmail: m.threadUserId ? null : m.threadEmail!.toLowerCase(),
        name: (customer?.name ?? '').slice(0, 80),
        email: customer?.email ?? (m.threadUserId ? '' : m.threadEmail!.toLowerCase()),
        subject: customer?.subject ?? m.subject,
        lastMessageAt: m.createdAt,
        lastContent: m.content.slice(0, LAST_CONTENT_MAX),
        lastFromAdmin: m.fromAdmin,
        adminUnread: m.fromAdmin ? 0 : 1,
        userUnread: m.fromAdmin ? 1 : 0,
        adminReadAt: m.fromAdmin ? new Date() : null,
      })
      .onConflictDoUpdate({ target: t.threadKey, set });
  },

  /** A page of conversations, newest first (support_threads_last_idx, or the unread partial index). */
  async inbox(db: Conn, o: { unreadOnly: boolean; limit: number; offset: number }) {
    return db
      .select({
        thread: supportThreads,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        userEmail: users.email,
      })
      .from(supportThreads)
      .leftJoin(users, eq(users.id, supportThreads.threadUserId))
      .where(o.unreadOnly ? gt(supportThreads.adminUnread, 0) : undefined)
      .orderBy(...newestFirst)
      .limit(o.limit)
      .offset(o.offset);
  },

  /** Conversations with customer messages no admin has read (support_threads_admin_unread_idx). */
  async adminUnreadCount(db: Conn): Promise<number> {
    const [row] = await db.select({ n: count() }).from(supportThreads).where(gt(supportThreads.adminUnread, 0));
    return row?.n ?? 0;
  },

  /** Support replies this account has not read (support_threads_key_uq). */
  async userUnread(db: Conn, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: supportThreads.userUnread })
      .from(supportThreads)
      .where(eq(supportThreads.threadKey, threadKeyOf({ userId })));
    return row?.n ?? 0;
  },

  /** Marks a conversation read by one side; a no-op (no write) when nothing was unread. */
  async markRead(db: Conn, key: string, side: 'admin' | 'user') {
    const t = supportThreads;
    await (side === 'admin'
      ? db
          .update(t)
          .set({ adminUnread: 0, adminReadAt: sql`now()` })
          .where(and(eq(t.threadKey, key), gt(t.adminUnread, 0)))
      : db
          .update(t)
          .set({ userUnread: 0, userReadAt: sql`now()` })
          .where(and(eq(t.threadKey, key), gt(t.userUnread, 0))));
  },

  /**
   * Takes the conversation's "reply waiting" e-mail turn: true (and the time recorded) when none was sent
   * in the last `intervalMs`, false otherwise; two replies racing cannot both take it.
   */
  async claimReplyMail(db: Conn, key: string, intervalMs: number): Promise<boolean> {
    const t = supportThreads;
    const now = new Date();
    const rows = await db
      .update(t)
      .set({ replyMailAt: now })
      .where(
        and(eq(t.threadKey, key), or(isNull(t.replyMailAt), lte(t.replyMailAt, new Date(now.getTime() - intervalMs)))),
      )
      .returning({ id: t.id });
    return rows.length > 0;
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
