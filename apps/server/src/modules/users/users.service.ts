import {
  ERROR_CODES,
  type AuthUser,
  type RegisterResponse,
  type User,
  type forgotPasswordSchema,
  type loginSchema,
  type registerSchema,
  type resendConfirmationSchema,
} from '@store/shared';
import type { z } from 'zod';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, NotFoundError, UnauthorizedError } from '#server/lib/errors.ts';
import { uniqueViolation } from '#server/lib/sql.ts';
import {
  addressInUseMail,
  confirmEmailMail,
  enqueueMail,
  resetPasswordMail,
  type Mailer,
} from '#server/lib/mailer/index.ts';
import { newId } from '#server/lib/ids.ts';
import { hashPassword, verifyPassword } from '#server/lib/password.ts';
import { hashToken, randomToken } from '#server/lib/tokens.ts';
import { usersRepository as repo, type UserRow } from './users.repository.ts';
import { toUser } from './users.view.ts';

export interface UsersDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  signToken(user: Pick<UserRow, 'id' | 'tokenVersion'>): Promise<string>;
}

const HOUR = 60 * 60_000;
export const CONFIRM_TTL_MS = 24 * HOUR;
export const SIGNUP_TTL_MS = 24 * HOUR;
export const RESET_TTL_MS = HOUR;

export const MESSAGES = {
  usernameTaken: 'Username is already taken',
  badCredentials: 'Invalid email or password',
  unconfirmed:
    'Please confirm your email address before signing in. Check your inbox or resend the confirmation email.',
  deactivated: 'Your account has been deactivated. Please contact support.',
  badConfirmLink: 'Invalid or expired confirmation link',
  badSignupLink: 'Invalid or expired link',
  badResetLink: 'Invalid or expired password reset link',
  resendSent: 'If an unconfirmed account uses this email address, a new confirmation email is on its way.',
  fpwSent: 'If an account uses this email address, a password reset email is on its way.',
  confirmed: 'Email confirmed. Your account is now active.',
  passwordReset: 'Your password has been reset. You can now sign in.',
} as const;

// verified against when no account matches, so a miss costs what a wrong password costs
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomToken()));

/**
 * Registration answers the same whether or not the address already has an account: the owner of a
 * taken address gets an e-mail instead, so the form cannot be used to find out who shops here. The
 * username is public (it signs reviews), so a taken one is still refused by name.
 */
export async function register(deps: UsersDeps, input: z.output<typeof registerSchema>): Promise<RegisterResponse> {
  const { db, config } = deps;
  if (await repo.usernameTaken(db, input.username)) throw new BadRequestError(MESSAGES.usernameTaken);
  // hashed either way, so a taken address answers in the time a free one does
  const passwordHash = await hashPassword(input.password);
  const confirmToken = randomToken();
  const signupToken = randomToken();
  const owner = await repo.findAccountByEmail(db, input.email);
  if (owner) return registeredAnswer(await addressTaken(deps, owner, input, signupToken), signupToken);
  let user: UserRow;
  try {
    user = await db.transaction(async (tx) => {
      const created = await repo.insert(tx, {
        firstName: input.firstName,
        lastName: input.lastName,
        username: input.username,
        email: input.email,
        passwordHash,
        isActive: false,
        emailConfirmedAt: null,
      });
      await repo.insertToken(tx, created.id, 'confirm', hashToken(confirmToken), CONFIRM_TTL_MS, input.email);
      await repo.insertToken(tx, created.id, 'signup', hashToken(signupToken), SIGNUP_TTL_MS, input.email);
      await enqueueMail(tx, confirmEmailMail(config.publicUrl, created.email!, created.firstName, confirmToken));
      return created;
    });
  } catch (err) {
    // two registrations raced past the checks above: the unique indexes decide
    const index = uniqueViolation(err);
    if (index === 'users_username_uq') throw new BadRequestError(MESSAGES.usernameTaken);
    const raced = index === 'users_email_uq' ? await repo.findAccountByEmail(db, input.email) : undefined;
    if (!raced) throw err;
    return registeredAnswer(await addressTaken(deps, raced, input, signupToken), signupToken);
  }
  deps.mailer.kick();
  return registeredAnswer(toUser(user), signupToken);
}

function registeredAnswer(user: User, signupToken: string): RegisterResponse {
  return {
    ...user,
    message: `Registration successful. A confirmation email was sent to ${user.email}.`,
    registerToken: signupToken,
    // the register answer's `token` is the sign-up token of /registerconfirm/{token}, never a bearer
    // token: an unconfirmed account cannot sign in
    token: signupToken,
  };
}

/**
 * The address already has an account: its owner is told by e-mail, and the answer looks like a new
 * registration's (a new-looking id, the names given, inactive). The sign-up token shows only the
 * address that was typed, on /registerconfirm.
 */
async function addressTaken(
  deps: UsersDeps,
  owner: UserRow,
  input: z.output<typeof registerSchema>,
  signupToken: string,
): Promise<User> {
  await deps.db.transaction(async (tx) => {
    await repo.insertToken(tx, owner.id, 'signup', hashToken(signupToken), SIGNUP_TTL_MS, input.email);
    await enqueueMail(tx, addressInUseMail(deps.config.publicUrl, input.email, owner.firstName, 'register'));
  });
  deps.mailer.kick();
  return {
    _id: newId(),
    username: input.username,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    isAdmin: false,
    isActive: false,
    isGuest: false,
    profileUpdateCount: 0,
    shippingAddress: null,
  };
}

/** /registerconfirm/{token}: the address the confirmation went to, for the thank-you page. */
export async function registerConfirm(deps: UsersDeps, token: string): Promise<{ message: string }> {
  const userId = await repo.peekToken(deps.db, hashToken(token), 'signup');
  const user = userId ? await repo.findById(deps.db, userId) : undefined;
  if (!user?.email) throw new NotFoundError(MESSAGES.badSignupLink);
  return { message: user.email };
}

export async function confirmEmail(deps: UsersDeps, token: string): Promise<{ message: string }> {
  const confirmed = await deps.db.transaction(async (tx) => {
    const used = await repo.consumeToken(tx, hashToken(token), 'confirm');
    if (!used) return false;
    await repo.update(tx, used.userId, { isActive: true, emailConfirmedAt: new Date() });
    return true;
  });
  if (!confirmed) throw new BadRequestError(MESSAGES.badConfirmLink);
  return { message: MESSAGES.confirmed };
}

/** Only an account still waiting for confirmation gets a new link; the answer is the same either way. */
export async function resendConfirmation(deps: UsersDeps, input: z.output<typeof resendConfirmationSchema>) {
  const { db, config } = deps;
  const user = await repo.findAccountByEmail(db, input.email);
  if (user && !user.isActive && !user.emailConfirmedAt) {
    const token = randomToken();
    await db.transaction(async (tx) => {
      await repo.expireTokens(tx, user.id, 'confirm');
      await repo.insertToken(tx, user.id, 'confirm', hashToken(token), CONFIRM_TTL_MS, user.email!);
      await enqueueMail(tx, confirmEmailMail(config.publicUrl, user.email!, user.firstName, token));
    });
    deps.mailer.kick();
  }
  return { message: MESSAGES.resendSent };
}

const badCredentials = () => new UnauthorizedError(MESSAGES.badCredentials, ERROR_CODES.BAD_CREDENTIALS);

export async function login(deps: UsersDeps, input: z.output<typeof loginSchema>): Promise<AuthUser> {
  const user = await repo.findAccountByEmail(deps.db, input.email);
  if (!user?.passwordHash) {
    await verifyPassword(await dummy(), input.password);
    throw badCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw badCredentials();
  if (!user.isActive)
    throw user.emailConfirmedAt
      ? new UnauthorizedError(MESSAGES.deactivated, ERROR_CODES.ACCOUNT_DEACTIVATED)
      : new UnauthorizedError(MESSAGES.unconfirmed, ERROR_CODES.EMAIL_UNCONFIRMED);
  return { ...toUser(user), token: await deps.signToken(user) };
}

/**
 * Never tells whether an account exists: the same answer, and the same work up to the insert
 * (token made and hashed either way, no password hashing on either path).
 */
export async function forgotPassword(deps: UsersDeps, input: z.output<typeof forgotPasswordSchema>) {
  const { db, config } = deps;
  const token = randomToken();
  const tokenHash = hashToken(token);
  const user = await repo.findAccountByEmail(db, input.email);
  if (user?.passwordHash && user.isActive) {
    await db.transaction(async (tx) => {
      await repo.expireTokens(tx, user.id, 'reset');
      await repo.insertToken(tx, user.id, 'reset', tokenHash, RESET_TTL_MS, user.email!);
      await enqueueMail(tx, resetPasswordMail(config.publicUrl, user.email!, user.firstName, token));
    });
    deps.mailer.kick();
  }
  return { message: MESSAGES.fpwSent };
}

/**
 * Sets the new password, uses the link up, and ends every sign-in and every other link issued before
 * (a pending address change too: whoever asked for it may not have been the owner).
 */
export async function resetPassword(deps: UsersDeps, token: string, newPassword: string) {
  const passwordHash = await hashPassword(newPassword);
  const done = await deps.db.transaction(async (tx) => {
    const used = await repo.consumeToken(tx, hashToken(token), 'reset');
    if (!used) return false;
    await repo.update(tx, used.userId, { passwordHash, pendingEmail: null, tokenVersion: repo.bumpTokenVersion });
    await repo.expireAllTokens(tx, used.userId);
    return true;
  });
  if (!done) throw new BadRequestError(MESSAGES.badResetLink);
  return { message: MESSAGES.passwordReset };
}
