import {
  AUTH_MESSAGES,
  PROFILE_CAPTCHA_FROM_COUNT,
  addressUpdateSchema,
  changePasswordSchema,
  profileSchema,
  type User,
} from '@store/shared';
import type { z } from 'zod';
import type { Tx } from '#server/db/client.ts';
import {
  addressInUseMail,
  confirmEmailChangeMail,
  emailChangeRequestedMail,
  emailChangedMail,
  enqueueMail,
} from '#server/lib/mailer/index.ts';
import type { Captcha } from '#server/lib/captcha.ts';
import { BadRequestError, NotFoundError, UnauthorizedError } from '#server/lib/errors.ts';
import { uniqueViolation } from '#server/lib/sql.ts';
import { hashPassword, verifyPassword } from '#server/lib/password.ts';
import { hashToken, randomToken } from '#server/lib/tokens.ts';
import { GUEST_TTL_MS } from '#server/plugins/auth.ts';
import { usersRepository as repo, type UserRow } from './users.repository.ts';
import type { UsersDeps } from './users.service.ts';
import { toUser } from './users.view.ts';

/** An address-change link is valid this long. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60_000;

export const PROFILE_MESSAGES = {
  guestPassword: 'Guest accounts cannot change password.',
  guestProfile: 'Guest accounts cannot update the profile.',
  wrongPassword: 'Current password is incorrect',
  emailInUse: 'Email is already in use',
  passwordForEmail: 'Enter your current password to change your e-mail address',
  emailChangeSent: (email: string) =>
    `We sent a confirmation link to ${email}. Your e-mail address changes when you open it.`,
  badEmailChangeLink: 'Invalid or expired confirmation link',
  emailTaken: 'This e-mail address is no longer available',
  emailChanged: 'Your e-mail address has been changed. Sign in with the new address from now on.',
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
 * PUT /api/users/profile carries one of three bodies: a password change ({currentPassword, password}),
 * a shipping address ({shippingAddress, email?}), or the profile fields ({firstName, lastName, email,
 * currentPassword when the address changes}). Only the last counts as a profile update.
 */
export async function updateProfile(
  deps: UsersDeps & { captcha: Captcha },
  user: UserRow,
  body: Record<string, unknown>,
  remoteIp: string,
): Promise<ProfileAnswer> {
  const { db } = deps;
  // the profile fields may carry currentPassword too (a new e-mail address needs it); a password change has no e-mail
  if ('password' in body || ('currentPassword' in body && !('email' in body))) {
    if (user.isGuest) throw new BadRequestError(PROFILE_MESSAGES.guestPassword);
    const input = parse(changePasswordSchema, body);
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new BadRequestError(PROFILE_MESSAGES.wrongPassword);
    const passwordHash = await hashPassword(input.password);
    // the new version ends every other session (this answer carries the one token still valid), and
    // every outstanding reset, confirmation or address-change link stops working
    const updated = await db.transaction(async (tx) => {
      await repo.expireAllTokens(tx, user.id);
      return repo.update(tx, user.id, { passwordHash, pendingEmail: null, tokenVersion: repo.bumpTokenVersion });
    });
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
  const changesAddress = input.email !== user.email && input.email !== user.pendingEmail;
  // a new sign-in address needs the password, so a stolen token alone cannot take the account over
  if (changesAddress) {
    if (!input.currentPassword) throw new BadRequestError(PROFILE_MESSAGES.passwordForEmail);
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new BadRequestError(PROFILE_MESSAGES.wrongPassword);
  }
  const withdraws = input.email === user.email && Boolean(user.pendingEmail);
  const updated = await db.transaction(async (tx) => {
    if (changesAddress) await requestEmailChange(deps, tx, user, input.email);
    // sending the current address again withdraws a pending change, and its link with it
    if (withdraws) await repo.expireTokens(tx, user.id, 'email');
    return repo.update(tx, user.id, {
      firstName: input.firstName,
      lastName: input.lastName,
      ...(withdraws ? { pendingEmail: null } : {}),
      profileUpdateCount: repo.bumpProfileUpdateCount,
    });
  });
  if (changesAddress) deps.mailer.kick();
  return answer(deps, updated!, changesAddress ? PROFILE_MESSAGES.emailChangeSent(input.email) : undefined);
}

/**
 * An address change waits for the new address's consent: a link goes there, the current address is
 * told, and the sign-in address stays as it is until the link is used. When the new address already has
 * an account the answer is the same (nobody learns who has an account); its owner gets a notice and no
 * link is made.
 */
async function requestEmailChange(deps: UsersDeps, tx: Tx, user: UserRow, newEmail: string) {
  const { publicUrl } = deps.config;
  await repo.expireTokens(tx, user.id, 'email');
  await repo.update(tx, user.id, { pendingEmail: newEmail });
  if (user.email) await enqueueMail(tx, emailChangeRequestedMail(publicUrl, user.email, user.firstName, newEmail));
  const owner = await repo.findAccountByEmail(tx, newEmail);
  if (owner) {
    await enqueueMail(tx, addressInUseMail(publicUrl, newEmail, owner.firstName, 'change'));
    return;
  }
  const token = randomToken();
  await repo.insertToken(tx, user.id, 'email', hashToken(token), EMAIL_CHANGE_TTL_MS, newEmail);
  await enqueueMail(tx, confirmEmailChangeMail(publicUrl, newEmail, user.firstName, token));
}

/**
 * The link of an address change: the account signs in with the new address from now on, the old
 * address is told, and every other outstanding link (sent to the old address) stops working.
 */
export async function confirmEmailChange(deps: UsersDeps, token: string): Promise<{ message: string; email: string }> {
  const { db, config } = deps;
  let changedTo: string | undefined;
  try {
    changedTo = await db.transaction(async (tx) => {
      const used = await repo.consumeToken(tx, hashToken(token), 'email');
      const before = used && (await repo.findById(tx, used.userId));
      if (!used || !before) return undefined;
      await repo.expireAllTokens(tx, used.userId);
      await repo.update(tx, used.userId, { email: used.email, pendingEmail: null });
      if (before.email)
        await enqueueMail(tx, emailChangedMail(config.publicUrl, before.email, before.firstName, used.email));
      return used.email;
    });
  } catch (err) {
    // someone registered the address after the link was sent: the one-account-per-address rule wins
    if (uniqueViolation(err) === 'users_email_uq') throw new BadRequestError(PROFILE_MESSAGES.emailTaken);
    throw err;
  }
  if (!changedTo) throw new BadRequestError(PROFILE_MESSAGES.badEmailChangeLink);
  deps.mailer.kick();
  return { message: PROFILE_MESSAGES.emailChanged, email: changedTo };
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
  if (!cookieToken) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
  const tokenHash = hashToken(cookieToken);
  const guest = await repo.findGuestBySession(deps.db, tokenHash);
  if (!guest) throw new NotFoundError(PROFILE_MESSAGES.noSession);
  await repo.touchGuestSession(deps.db, tokenHash, guest.id, GUEST_TTL_MS);
  return toUser(guest);
}

/** Logout of a guest: the session behind the cookie is deleted, so a copied cookie stops working too. */
export async function endGuestSession(deps: UsersDeps, cookieToken: string | undefined): Promise<void> {
  if (cookieToken) await repo.deleteGuestSession(deps.db, hashToken(cookieToken));
}
