import {
  NOTHING_TO_UPDATE,
  SUGGESTIONS_MAX,
  cleanText,
  hasChanges,
  type AdminUser,
  type UserListResponse,
  type adminUserUpdateSchema,
  type userListQuerySchema,
} from '@store/shared';
import { and, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { containsLower as contains } from '../../lib/sql.ts';
import { usersRepository as repo, uniqueViolation, type UserChanges, type UserRow } from './users.repository.ts';
import { MESSAGES } from './users.service.ts';
import { PROFILE_MESSAGES } from './users-profile.service.ts';
import { toAdminUser } from './users.view.ts';

export const ADMIN_MESSAGES = {
  notFound: 'User not found',
  selfDemote: 'You cannot remove your own admin rights',
  selfDeactivate: 'You cannot deactivate your own account',
  selfDelete: 'You cannot delete your own account',
  removed: 'User removed',
} as const;

// admin screens manage accounts: guests (made at checkout) are left out of lists and counts
const accounts = eq(users.isGuest, false);

function idPrefix(prefix: string): SQL {
  const p = prefix.trim().toLowerCase();
  if (!/^[0-9a-f]{1,24}$/.test(p)) return sql`false`;
  // a range on the primary key, which its btree answers
  return and(gte(users.id, p.padEnd(24, '0')), lte(users.id, p.padEnd(24, 'f')))!;
}

/** Filters of the admin list, each a case-insensitive "contains" answered by a trigram index. */
export async function listUsers(db: Db, q: z.output<typeof userListQuerySchema>): Promise<UserListResponse> {
  const filters: SQL[] = [accounts];
  const text = (v: string | undefined) => (v ? cleanText(v) : '');
  if (q.id?.trim()) filters.push(idPrefix(q.id));
  if (text(q.firstName)) filters.push(contains(sql`lower(${users.firstName})`, text(q.firstName)));
  if (text(q.lastName)) filters.push(contains(sql`lower(${users.lastName})`, text(q.lastName)));
  if (text(q.username)) filters.push(contains(sql`lower(${users.username})`, text(q.username)));
  if (text(q.email)) filters.push(contains(sql`${users.email}`, text(q.email)));
  if (q.isAdmin !== undefined) filters.push(eq(users.isAdmin, q.isAdmin));
  const search = text(q.search);
  if (search) {
    filters.push(
      or(
        contains(sql`lower(${users.username})`, search),
        contains(sql`${users.email}`, search),
        contains(sql`lower(${users.firstName})`, search),
        contains(sql`lower(${users.lastName})`, search),
      )!,
    );
  }
  const where = and(...filters);
  // recipient suggestions: at most 50, by username
  const pageSize = search ? Math.min(q.pageSize, SUGGESTIONS_MAX) : q.pageSize;
  const [rows, total] = await Promise.all([
    repo.list(db, where, pageSize, (q.pageNumber - 1) * pageSize, Boolean(search)),
    repo.count(db, where),
  ]);
  return { users: rows.map(toAdminUser), page: q.pageNumber, pages: Math.max(1, Math.ceil(total / pageSize)), total };
}

export async function countUsers(db: Db): Promise<{ count: number }> {
  return { count: await repo.count(db, accounts) };
}

async function found(db: Db, id: string): Promise<UserRow> {
  const user = await repo.findById(db, id);
  if (!user) throw new NotFoundError(ADMIN_MESSAGES.notFound);
  return user;
}

export async function getUser(db: Db, id: string): Promise<AdminUser> {
  return toAdminUser(await found(db, id));
}

export async function updateUser(
  db: Db,
  admin: UserRow,
  id: string,
  input: z.output<typeof adminUserUpdateSchema>,
): Promise<AdminUser> {
  const user = await found(db, id);
  // an empty change set is no UPDATE at all: refused before it reaches the database
  if (!hasChanges(input)) throw new BadRequestError(NOTHING_TO_UPDATE);
  if (id === admin.id && input.isAdmin === false) throw new BadRequestError(ADMIN_MESSAGES.selfDemote);
  if (id === admin.id && input.isActive === false) throw new BadRequestError(ADMIN_MESSAGES.selfDeactivate);
  if (input.email && input.email !== user.email && (await repo.findAccountByEmail(db, input.email)))
    throw new BadRequestError(PROFILE_MESSAGES.emailInUse);
  if (input.username && (await repo.usernameTaken(db, input.username, id)))
    throw new BadRequestError(MESSAGES.usernameTaken);

  const changes: UserChanges = { ...input };
  if (input.isActive === false && user.isActive) {
    // ends the user's tokens at once; marks the address confirmed so a resend cannot reactivate
    changes.tokenVersion = repo.bumpTokenVersion;
    changes.emailConfirmedAt = user.emailConfirmedAt ?? new Date();
  }
  if (input.isActive === true && !user.emailConfirmedAt) changes.emailConfirmedAt = new Date();
  try {
    const movesAddress = input.email !== undefined && input.email !== user.email;
    // a deactivation or a new address ends every outstanding link (and a pending address change)
    if (movesAddress) changes.pendingEmail = null;
    const updated = await db.transaction(async (tx) => {
      if (input.isActive === false || movesAddress) await repo.expireAllTokens(tx, id);
      return repo.update(tx, id, changes);
    });
    return toAdminUser(updated!);
  } catch (err) {
    const index = uniqueViolation(err);
    if (index === 'users_email_uq') throw new BadRequestError(PROFILE_MESSAGES.emailInUse);
    if (index === 'users_username_uq') throw new BadRequestError(MESSAGES.usernameTaken);
    throw err;
  }
}

/** Orders keep their buyer snapshot (their user_id becomes null); sessions and links go with the user. */
export async function deleteUser(db: Db, admin: UserRow, id: string): Promise<{ message: string }> {
  if (id === admin.id) throw new BadRequestError(ADMIN_MESSAGES.selfDelete);
  if (!(await repo.delete(db, id))) throw new NotFoundError(ADMIN_MESSAGES.notFound);
  return { message: ADMIN_MESSAGES.removed };
}
