import {
  ERROR_CODES,
  NOTHING_TO_UPDATE,
  SUGGESTIONS_MAX,
  cleanText,
  hasChanges,
  type AdminUser,
  type UserListResponse,
  type adminUserUpdateSchema,
  type userListQuerySchema,
} from '@store/shared';
import type { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import { uniqueViolation } from '#server/lib/sql.ts';
import { usersAdminRepository as accounts, type AccountFilter } from './users-admin.repository.ts';
import { usersRepository as repo, type UserChanges, type UserRow } from './users.repository.ts';
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

/** The admin list of accounts (never guests), filtered; text filters are cleaned and empty ones ignored. */
export async function listUsers(db: Db, q: z.output<typeof userListQuerySchema>): Promise<UserListResponse> {
  const text = (v: string | undefined) => (v ? cleanText(v) : '') || undefined;
  const search = text(q.search);
  const filter: AccountFilter = {
    idPrefix: q.id?.trim() ? q.id : undefined,
    firstName: text(q.firstName),
    lastName: text(q.lastName),
    username: text(q.username),
    email: text(q.email),
    isAdmin: q.isAdmin,
    search,
  };
  // recipient suggestions: at most 50, by username
  const pageSize = search ? Math.min(q.pageSize, SUGGESTIONS_MAX) : q.pageSize;
  // the search box (recipient suggestions) lists by username unless a sort is asked for; dates run
  // newest first and text A to Z unless an order is asked for
  const sort = q.sortBy ?? (search ? 'username' : 'createdAt');
  const [rows, total] = await Promise.all([
    accounts.listAccounts(db, filter, {
      limit: pageSize,
      offset: (q.pageNumber - 1) * pageSize,
      sort,
      dir: q.order ?? (sort === 'createdAt' ? 'desc' : 'asc'),
    }),
    accounts.countAccounts(db, filter),
  ]);
  return { users: rows.map(toAdminUser), page: q.pageNumber, pages: Math.max(1, Math.ceil(total / pageSize)), total };
}

export async function countUsers(db: Db): Promise<{ count: number }> {
  return { count: await accounts.countAccounts(db) };
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
  if (!hasChanges(input)) throw new BadRequestError(NOTHING_TO_UPDATE, ERROR_CODES.NOTHING_TO_UPDATE);
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
