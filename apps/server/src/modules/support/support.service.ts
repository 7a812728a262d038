import {
  RECIPIENTS_MAX,
  SUPPORT_INBOX_PAGE_SIZE,
  SUPPORT_MESSAGES,
  type InboxPage,
  type SupportUnread,
  type inboxQuerySchema,
  cleanText,
  type Recipient,
  type SupportMessage,
  type contactSchema,
  type messageSendSchema,
} from '@store/shared';
import type { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '#server/lib/errors.ts';
import { contactNoticeMail, enqueueMail, supportReplyMail, supportReplyWaitingMail } from '#server/lib/mailer/index.ts';
import type { UserRow } from '../users/users.repository.ts';
import { supportRepository as repo, threadKeyOf, type MessageRow } from './support.repository.ts';

/** The support side as users see it: every admin answers as 'admin'. */
export const SUPPORT = 'admin';
const isEmailLike = (s: string) => s.includes('@');
/** A shopper is told by e-mail that support replied at most once per conversation in this time. */
export const REPLY_MAIL_INTERVAL_MS = 60 * 60 * 1000;

export function toMessage(m: MessageRow): SupportMessage {
  return {
    _id: m.id,
    sender: m.sender,
    recipient: m.recipient,
    content: m.content,
    timestamp: m.createdAt.toISOString(),
    isContact: m.isContact,
    senderEmail: m.senderEmail,
    fromAdmin: m.fromAdmin,
    subject: m.subject,
    senderName: m.senderName,
  };
}

const fullName = (u: Pick<UserRow, 'firstName' | 'lastName' | 'username'>) =>
  `${u.firstName} ${u.lastName}`.replace(/\s+/g, ' ').trim() || u.username;

/** Contact form: stored as a contact thread (by e-mail) and announced to every admin through the outbox. */
export async function submitContact(db: Db, publicUrl: string, input: z.output<typeof contactSchema>) {
  await db.transaction(async (tx) => {
    const row = await repo.insert(tx, {
      threadEmail: input.email,
      sender: input.email.slice(0, 100),
      recipient: SUPPORT,
      content: input.message,
      subject: input.subject,
      isContact: true,
      senderName: input.name,
      senderEmail: input.email,
    });
    await repo.touchThread(tx, row, { name: input.name, email: input.email, subject: input.subject });
    for (const to of await repo.activeAdminEmails(tx)) {
      await enqueueMail(tx, contactNoticeMail(publicUrl, { to, ...input }));
    }
  });
  return { message: 'Message sent' };
}

/**
 * The sender is always the signed-in account. A user writes to support (recipient 'admin' or none);
 * an admin writes to an account (id or username) or a contact sender (e-mail, who also gets it by e-mail).
 */
export async function sendMessage(
  db: Db,
  me: UserRow,
  input: z.output<typeof messageSendSchema>,
  publicUrl = '',
): Promise<SupportMessage> {
  const recipient = input.recipient?.trim() ?? '';
  if (!me.isAdmin) {
    if (recipient && recipient.toLowerCase() !== SUPPORT) throw new BadRequestError(SUPPORT_MESSAGES.recipient);
    return db.transaction(async (tx) => {
      const row = await repo.insert(tx, {
        threadUserId: me.id,
        senderId: me.id,
        sender: me.username,
        recipient: SUPPORT,
        content: input.content,
        senderName: fullName(me).slice(0, 80),
        senderEmail: me.email ?? '',
      });
      await repo.touchThread(tx, row, { name: row.senderName, email: row.senderEmail, subject: '' });
      return toMessage(row);
    });
  }
  if (!recipient || recipient.toLowerCase() === SUPPORT) throw new BadRequestError(SUPPORT_MESSAGES.recipient);
  if (isEmailLike(recipient)) {
    const email = recipient.toLowerCase();
    const last = await repo.lastContactMessage(db, email);
    if (!last) throw new BadRequestError(SUPPORT_MESSAGES.recipient);
    return db.transaction(async (tx) => {
      const row = await repo.insert(tx, {
        threadEmail: email,
        senderId: me.id,
        sender: SUPPORT,
        recipient: email.slice(0, 100),
        fromAdmin: true,
        content: input.content,
        subject: last.subject,
        isContact: true,
        senderName: fullName(me).slice(0, 80),
        senderEmail: me.email ?? '',
      });
      await repo.touchThread(tx, row);
      // a contact sender has no account: the reply itself goes to them by e-mail, every time
      await enqueueMail(
        tx,
        supportReplyMail({ to: email, name: last.senderName, subject: last.subject, message: input.content }),
      );
      return toMessage(row);
    });
  }
  const target = await repo.findAccount(db, recipient);
  if (!target) throw new BadRequestError(SUPPORT_MESSAGES.recipient);
  return db.transaction(async (tx) => {
    const row = await repo.insert(tx, {
      threadUserId: target.id,
      senderId: me.id,
      sender: SUPPORT,
      recipient: target.username,
      fromAdmin: true,
      content: input.content,
      senderName: fullName(me).slice(0, 80),
      senderEmail: me.email ?? '',
    });
    await repo.touchThread(tx, row);
    // the shopper reads replies in the shop; an e-mail tells them one is waiting, at most once an hour
    if (
      target.email &&
      target.isActive &&
      (await repo.claimReplyMail(tx, threadKeyOf({ userId: target.id }), REPLY_MAIL_INTERVAL_MS))
    ) {
      await enqueueMail(tx, supportReplyWaitingMail(publicUrl, { to: target.email, name: fullName(target) }));
    }
    return toMessage(row);
  });
}

/** The conversation key an id names: the signed-in user's own, or for admins any (user id, username, e-mail). */
async function threadKeyFor(db: Db, me: UserRow, id: string): Promise<string> {
  const key = id.trim();
  if (!me.isAdmin) {
    const own = key === me.id || key.toLowerCase() === me.username.toLowerCase() || key.toLowerCase() === 'me';
    if (!own) throw new ForbiddenError(SUPPORT_MESSAGES.notYours);
    return threadKeyOf({ userId: me.id });
  }
  if (isEmailLike(key)) return threadKeyOf({ email: key });
  const target = await repo.findAccount(db, key);
  if (!target) throw new NotFoundError('User not found');
  return threadKeyOf({ userId: target.id });
}

/** Marks a conversation read: by its shopper (the replies) or by support (the shopper's messages). */
export async function markConversationRead(db: Db, me: UserRow, id: string): Promise<{ unread: number }> {
  const key = await threadKeyFor(db, me, id);
  await repo.markRead(db, key, me.isAdmin ? 'admin' : 'user');
  return { unread: 0 };
}

/** What waits for the signed-in account: support replies it has not read, and for admins the inbox's count. */
export async function unreadCounts(db: Db, me: UserRow): Promise<SupportUnread> {
  if (!me.isAdmin) return { unread: await repo.userUnread(db, me.id) };
  const [unread, inbox] = await Promise.all([repo.userUnread(db, me.id), repo.adminUnreadCount(db)]);
  return { unread, inbox };
}

/** The admin inbox: conversations newest first with their customer, newest message and unread count. */
export async function listInbox(db: Db, q: z.output<typeof inboxQuerySchema>): Promise<InboxPage> {
  const size = SUPPORT_INBOX_PAGE_SIZE;
  const rows = await repo.inbox(db, { unreadOnly: q.unread, limit: size + 1, offset: (q.pageNumber - 1) * size });
  return {
    conversations: rows.slice(0, size).map(({ thread: t, username, firstName, lastName, userEmail }) => {
      const accountName = `${firstName ?? ''} ${lastName ?? ''}`.replace(/\s+/g, ' ').trim();
      const email = (t.threadUserId ? userEmail : null) ?? t.email;
      return {
        _id: t.id,
        kind: t.threadUserId ? ('user' as const) : ('contact' as const),
        recipient: t.threadUserId ?? t.threadEmail ?? '',
        name: accountName || t.name || username || email,
        username: username ?? null,
        email,
        subject: t.subject,
        lastMessage: { content: t.lastContent, timestamp: t.lastMessageAt.toISOString(), fromAdmin: t.lastFromAdmin },
        unread: t.adminUnread,
      };
    }),
    page: q.pageNumber,
    hasMore: rows.length > size,
  };
}

/** A conversation, oldest first: users see only their own; admins any (by user id, username or contact e-mail). */
export async function getConversation(db: Db, me: UserRow, id: string): Promise<SupportMessage[]> {
  const key = id.trim();
  if (!me.isAdmin) {
    const own = key === me.id || key.toLowerCase() === me.username.toLowerCase() || key.toLowerCase() === 'me';
    if (!own) throw new ForbiddenError(SUPPORT_MESSAGES.notYours);
    return (await repo.conversation(db, { userId: me.id })).map(toMessage);
  }
  if (isEmailLike(key)) return (await repo.conversation(db, { email: key })).map(toMessage);
  const target = await repo.findAccount(db, key);
  if (!target) throw new NotFoundError('User not found');
  return (await repo.conversation(db, { userId: target.id })).map(toMessage);
}

/** Admin recipient suggestions: accounts and contact senders matching q, at most RECIPIENTS_MAX in all. */
export async function searchRecipients(db: Db, q: string): Promise<Recipient[]> {
  // control and invisible characters dropped first, as PostgreSQL cannot take some (a NUL byte)
  const query = cleanText(q).toLowerCase();
  const [accounts, contacts] = await Promise.all([
    repo.searchAccounts(db, query, RECIPIENTS_MAX),
    repo.searchContactSenders(db, query, RECIPIENTS_MAX),
  ]);
  const fromAccounts: Recipient[] = accounts.map((u) => ({
    id: u.id,
    kind: 'user',
    label: `${u.username} (${`${u.firstName} ${u.lastName}`.trim() || u.email || ''})`,
    username: u.username,
    ...(u.email ? { email: u.email } : {}),
  }));
  const fromContacts: Recipient[] = contacts.map((c) => ({
    id: c.email,
    kind: 'contact',
    label: c.name ? `${c.name} <${c.email}> (contact)` : `${c.email} (contact)`,
    email: c.email,
  }));
  // both kinds get a fair share when there are many of each
  const half = Math.ceil(RECIPIENTS_MAX / 2);
  const takeContacts = Math.max(half, RECIPIENTS_MAX - fromAccounts.length);
  const c = fromContacts.slice(0, takeContacts);
  return [...fromAccounts.slice(0, RECIPIENTS_MAX - c.length), ...c].slice(0, RECIPIENTS_MAX);
}
