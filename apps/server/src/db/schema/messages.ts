import { boolean, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, id, ref, ts } from './columns.ts';
import { users } from './users.ts';

export const supportMessages = pgTable(
  'support_messages',
  {
    id: id(),
    // the customer side of the conversation: a user id, or a contact sender's e-mail
    threadUserId: ref('thread_user_id').references(() => users.id, { onDelete: 'cascade' }),
    threadEmail: varchar('thread_email', { length: 254 }),
    senderId: ref('sender_id').references(() => users.id, { onDelete: 'set null' }),
    sender: varchar('sender', { length: 100 }).notNull(),
    recipient: varchar('recipient', { length: 100 }).notNull(),
    fromAdmin: boolean('from_admin').notNull().default(false),
    content: text('content').notNull(),
    subject: varchar('subject', { length: 150 }).notNull().default(''),
    isContact: boolean('is_contact').notNull().default(false),
    senderName: varchar('sender_name', { length: 80 }).notNull().default(''),
    senderEmail: varchar('sender_email', { length: 254 }).notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_messages_thread_user_idx').on(t.threadUserId, t.createdAt),
    index('support_messages_thread_email_idx').on(sql`lower(${t.threadEmail})`, t.createdAt),
    // the admin recipient search matches contact senders by "contains"
    index('support_messages_thread_email_trgm_idx')
      .using('gin', sql`lower(${t.threadEmail}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('support_messages_created_idx').on(t.createdAt.desc()),
  ],
);

/**
 * One row per support conversation (an account's, or a contact sender's by e-mail), kept in step with its
 * messages: the inbox lists these newest first, and the unread counts read them, one indexed query each.
 */
export const supportThreads = pgTable(
  'support_threads',
  {
    id: id(),
    // `u:<user id>` or `e:<lowercased e-mail>`: one conversation per customer
    threadKey: varchar('thread_key', { length: 260 }).notNull(),
    threadUserId: ref('thread_user_id').references(() => users.id, { onDelete: 'cascade' }),
    threadEmail: varchar('thread_email', { length: 254 }),
    // the customer as they last wrote (a contact sender has no account to read it from)
    name: varchar('name', { length: 80 }).notNull().default(''),
    email: varchar('email', { length: 254 }).notNull().default(''),
    subject: varchar('subject', { length: 150 }).notNull().default(''),
    lastMessageAt: ts('last_message_at').notNull().defaultNow(),
    lastContent: varchar('last_content', { length: 200 }).notNull().default(''),
    lastFromAdmin: boolean('last_from_admin').notNull().default(false),
    // customer messages no admin has read yet, and support replies the customer has not read yet
    adminUnread: integer('admin_unread').notNull().default(0),
    userUnread: integer('user_unread').notNull().default(0),
    adminReadAt: ts('admin_read_at'),
    userReadAt: ts('user_read_at'),
    // when the customer was last told by e-mail that a reply is waiting (at most one such e-mail an hour)
    replyMailAt: ts('reply_mail_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('support_threads_key_uq').on(t.threadKey),
    index('support_threads_user_idx').on(t.threadUserId),
    index('support_threads_last_idx').on(t.lastMessageAt.desc(), t.id.desc()),
    index('support_threads_admin_unread_idx')
      .on(t.lastMessageAt.desc(), t.id.desc())
      .where(sql`${t.adminUnread} > 0`),
  ],
);

/** Every e-mail goes here first, in the transaction of the change that causes it; a worker sends it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: varchar('to', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 300 }).notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: varchar('status', { length: 16 })
      .notNull()
      .default('pending')
      .$type<'pending' | 'sending' | 'sent' | 'failed'>(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_to_idx').on(sql`lower(${t.to})`, t.createdAt.desc()),
  ],
);
