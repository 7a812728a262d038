import { index, integer, pgTable, text, varchar, boolean } from 'drizzle-orm/pg-core';
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
