import {
  PROFILE_CAPTCHA_FROM_COUNT,
  addressUpdateSchema,
  changePasswordSchema,
  profileSchema,
  type User,
} from '@store/shared';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema/index.ts';
import type { Captcha } from '../../lib/captcha.ts';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { GUEST_TTL_MS, NO_TOKEN } from '../../plugins/auth.ts';
import { usersRepository as repo, uniqueViolation, type UserRow } from './users.repository.ts';
import type { UsersDeps } from './users.service.ts';
import { toUser } from './users.view.ts';

export const PROFILE_MESSAGES = {
  guestPassword: 'Guest accounts cannot change password.',
  guestProfile: 'Guest accounts cannot update the profile.',
  wrongPassword: 'Current password is incorrect',
  emailInUse: 'Email is already in use',
  passwordChanged: 'Password updated successfully',
  noSession: 'Guest session not found',
} as const;

type ProfileAnswer = User & { token?: string; message?: string };

/** Parses with a shared schema; the first issue's message is the 400's message. */
function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw new BadRequestError(r.error.issues[0]?.message ?? 'Invalid request');
  return r.data;
}

async function answer(deps: UsersDeps, user: UserRow, message?: string): Promise<ProfileAnswer> {
  const base = { ...toUser(user), ...(message ? { message } : {}) };
  return user.isGuest ? base : { ...base, token: await deps.signToken(user) };
}

/**
 * PUT /api/users/profile carries one of three bodies (spec §7): a password change
 * ({currentPassword, password}), a shipping address ({shippingAddress, email?}), or the profile
 * fields ({firstName, lastName, email}). Only the last counts as a profile update.
 */
export async function updateProfile(
  deps: UsersDeps & { captcha: Captcha },
  user: UserRow,
  body: Record<string, unknown>,
  remoteIp: string,
): Promise<ProfileAnswer> {
  const { db } = deps;
  if ('currentPassword' in body || 'password' in body) {
    if (user.isGuest) throw new BadRequestError(PROFILE_MESSAGES.guestPassword);
    const input = parse(changePasswordSchema, body);
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new BadRequestError(PROFILE_MESSAGES.wrongPassword);
    const passwordHash = await hashPassword(input.password);
    // the new version ends every other session; this answer carries the one token still valid
    const updated = await repo.update(db, user.id, { passwordHash, tokenVersion: repo.bumpTokenVersion });
    return answer(deps, updated!, PROFILE_MESSAGES.passwordChanged);
  }

  if ('shippingAddress' in body) {
    const input = parse(addressUpdateSchema, body);
    // a guest's e-mail is where its orders are confirmed; an account changes its e-mail with the profile fields
    const changes =
      user.isGuest && input.email
        ? { shippingAddress: input.shippingAddress, email: input.email }
        : { shippingAddress: input.shippingAddress };
    return answer(deps, (await repo.update(db, user.id, changes))!);
  }

  if (user.isGuest) throw new BadRequestError(PROFILE_MESSAGES.guestProfile);
  const input = parse(profileSchema, body);
  if (user.profileUpdateCount >= PROFILE_CAPTCHA_FROM_COUNT) await deps.captcha.verify(input.grecaptcha, remoteIp);
  if (input.email !== user.email && (await repo.findAccountByEmail(db, input.email)))
    throw new BadRequestError(PROFILE_MESSAGES.emailInUse);
  try {
    const updated = await repo.update(db, user.id, {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      profileUpdateCount: sql`${users.profileUpdateCount} + 1`,
    });
    return answer(deps, updated!);
  } catch (err) {
    if (uniqueViolation(err) === 'users_email_uq') throw new BadRequestError(PROFILE_MESSAGES.emailInUse);
    throw err;
  }
}

/** A guest account and its session; the caller sets the cookie with the returned token. */
export async function createGuest(deps: UsersDeps): Promise<{ user: User; token: string }> {
  const token = randomToken();
  const user = await deps.db.transaction(async (tx) => {
    const created = await repo.insert(tx, {
      username: `guest_${randomToken()
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 16)
        .toLowerCase()}`,
      firstName: 'Guest',
      lastName: '',
      isGuest: true,
      isActive: true,
      emailConfirmedAt: null,
      lastSeenAt: new Date(),
    });
    await repo.insertGuestSession(tx, created.id, hashToken(token), GUEST_TTL_MS);
    return created;
  });
  return { user: toUser(user), token };
}

/** GET /api/users/session: the guest of the cookie (401 without one, 404 when it is unknown or expired). */
export async function restoreGuest(deps: UsersDeps, cookieToken: string | undefined): Promise<User> {
  if (!cookieToken) throw new UnauthorizedError(NO_TOKEN);
  const tokenHash = hashToken(cookieToken);
  const guest = await repo.findGuestBySession(deps.db, tokenHash);
  if (!guest) throw new NotFoundError(PROFILE_MESSAGES.noSession);
  await repo.touchGuestSession(deps.db, tokenHash, guest.id, GUEST_TTL_MS);
  return toUser(guest);
}
