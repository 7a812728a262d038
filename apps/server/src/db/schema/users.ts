import type { ShippingAddress } from '@store/shared';
import { sql } from 'drizzle-orm';
import { boolean, char, index, integer, jsonb, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    username: varchar('username', { length: 30 }).notNull(),
    firstName: varchar('first_name', { length: 64 }).notNull().default(''),
    lastName: varchar('last_name', { length: 64 }).notNull().default(''),
    // stored lowercase so lookups and the one-account-per-address rule ignore case
    email: varchar('email', { length: 254 }),
    // an address change waiting for its confirmation link; the sign-in address stays `email` until then
    pendingEmail: varchar('pending_email', { length: 254 }),
    passwordHash: text('password_hash'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isActive: boolean('is_active').notNull().default(false),
    isGuest: boolean('is_guest').notNull().default(false),
    profileUpdateCount: integer('profile_update_count').notNull().default(0),
    shippingAddress: jsonb('shipping_address').$type<ShippingAddress>(),
    // bumped on password change, deactivation or deletion so older tokens stop working at once
    tokenVersion: integer('token_version').notNull().default(0),
    // null until the address is confirmed: tells an unconfirmed account from one an admin deactivated
    emailConfirmedAt: ts('email_confirmed_at').defaultNow(),
    lastSeenAt: ts('last_seen_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // guests may share an address with each other and with an account; accounts may not
    uniqueIndex('users_email_uq')
      .on(t.email)
      .where(sql`${t.isGuest} = false`),
    uniqueIndex('users_username_uq').on(sql`lower(${t.username})`),
    // the admin list filters by "contains": trigram indexes answer `like '%…%'` (fastupdate off: see catalog.ts)
    index('users_first_name_trgm_idx')
      .using('gin', sql`lower(${t.firstName}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('users_last_name_trgm_idx')
      .using('gin', sql`lower(${t.lastName}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('users_username_trgm_idx')
      .using('gin', sql`lower(${t.username}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('users_email_trgm_idx')
      .using('gin', sql`${t.email} gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('users_is_admin_idx').on(t.isAdmin),
    index('users_guest_seen_idx').on(t.isGuest, t.lastSeenAt),
    index('users_created_idx').on(t.createdAt),
    // the admin list's sorts (accounts only; the id breaks ties so pages never overlap)
    index('users_list_created_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.isGuest} = false`),
    index('users_list_username_idx')
      .on(sql`lower(${t.username})`, t.id)
      .where(sql`${t.isGuest} = false`),
    index('users_list_email_idx')
      .on(t.email, t.id)
      .where(sql`${t.isGuest} = false`),
    index('users_list_name_idx')
      .on(sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`${t.isGuest} = false`),
  ],
);

/** E-mail confirmation and password-reset tokens: random, single-use, expiring, stored hashed. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: id(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // confirm: activates the account; reset: sets a new password; signup: shows the address on /registerconfirm;
    // email: switches the sign-in address to the one it was sent to
    purpose: varchar('purpose', { length: 16 }).notNull().$type<'confirm' | 'reset' | 'signup' | 'email'>(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    // the address the link was sent to: it works only while that is still the account's address
    // (for `email`: while it is still the pending one), so a later address change ends it
    email: varchar('email', { length: 254 }),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_uq').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId, t.purpose)],
);

/** Guest sessions behind the http-only guestToken cookie (token stored hashed). */
export const guestSessions = pgTable(
  'guest_sessions',
  {
    id: id(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('guest_sessions_hash_uq').on(t.tokenHash), index('guest_sessions_user_idx').on(t.userId)],
);

/** Captcha payloads already accepted, so a replay is refused until it would have expired anyway. */
export const captchaUses = pgTable(
  'captcha_uses',
  {
    signature: varchar('signature', { length: 128 }).primaryKey(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('captcha_uses_expires_idx').on(t.expiresAt)],
);

export const mailingList = pgTable(
  'mailing_list',
  {
    id: id(),
    email: varchar('email', { length: 254 }).notNull(),
    source: varchar('source', { length: 64 }).notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mailing_list_email_uq').on(t.email)],
);
