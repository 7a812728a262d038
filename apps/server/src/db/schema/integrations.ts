import { index, pgTable, varchar } from 'drizzle-orm/pg-core';
import { createdAt, ref, ts } from './columns.ts';
import { users } from './users.ts';

/**
 * Single-use OAuth `state` values (AliExpress connection), stored as their SHA-256: the callback takes one
 * (delete … returning) and it is gone, so a state can never be replayed.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: varchar('state_hash', { length: 64 }).primaryKey(),
    provider: varchar('provider', { length: 32 }).notNull(),
    userId: ref('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);
