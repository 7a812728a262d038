import { AUTH_MESSAGES, ERROR_CODES } from '@store/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { createSigner, createVerifier } from 'fast-jwt';
import type { Config } from '../config.ts';
import { batchLoader } from '../lib/batch-loader.ts';
import { ForbiddenError, UnauthorizedError } from '../lib/errors.ts';
import { hashToken } from '../lib/tokens.ts';
import { usersRepository as repo, type UserRow } from '../modules/users/users.repository.ts';

export const GUEST_COOKIE = 'guestToken';
/** Lifetime of a sign-in token. */
export const TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;
export const GUEST_TTL_MS = 30 * 24 * 60 * 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (bearer token) or the guest (guestToken cookie), once a preHandler below ran. */
    user: UserRow | null;
  }
  interface FastifyInstance {
    /** Bearer user if a token is sent (a bad one is 401), else the cookie's guest, else null. */
    optionalUser: preHandlerAsyncHookHandler;
    /** A registered user with a valid bearer token. */
    requireUser: preHandlerAsyncHookHandler;
    /** A registered user, or a guest with a valid cookie. */
    requireUserOrGuest: preHandlerAsyncHookHandler;
    /** A registered admin. */
    requireAdmin: preHandlerAsyncHookHandler;
    signToken(user: Pick<UserRow, 'id' | 'tokenVersion'>): Promise<string>;
  }
}

/** A token that is invalid, expired, or names an account that changed since: the client signs out. */
const tokenFailed = () => new UnauthorizedError(AUTH_MESSAGES.tokenFailed, ERROR_CODES.TOKEN_FAILED);

function bearer(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1] ?? undefined;
}

export function setGuestCookie(reply: FastifyReply, config: Config, token: string) {
  reply.setCookie(GUEST_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.isProduction,
    path: '/',
    maxAge: Math.floor(GUEST_TTL_MS / 1000),
  });
}

export function clearGuestCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(GUEST_COOKIE, { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/' });
}

export function guestCookieToken(req: FastifyRequest): string | undefined {
  const token = req.cookies?.[GUEST_COOKIE];
  return token && token.length <= 200 ? token : undefined;
}

export function registerAuth(app: FastifyInstance) {
  const { config, db } = app;
  // HS256 with the configured secret; fast-jwt checks synchronously (node:crypto HMAC), about ten times
  // cheaper than a WebCrypto verify per request, and checks `exp` (docs/decisions/ on the choice)
  const verify = createVerifier({ key: config.jwtSecret, algorithms: ['HS256'] });
  const sign = createSigner({ key: config.jwtSecret, algorithm: 'HS256', expiresIn: TOKEN_TTL_MS });
  // concurrent requests share their user reads (lib/batch-loader.ts); each read still follows its request
  const userById = batchLoader((ids: string[]) => repo.findByIds(db, ids));
  const guestBySession = batchLoader((hashes: string[]) => repo.findGuestsBySessions(db, hashes));

  /** Every request re-reads the user: deletion, deactivation or a new password ends older tokens at once. */
  async function fromBearer(token: string): Promise<UserRow> {
    let sub: string | undefined;
    let ver: unknown;
    try {
      const payload = verify(token) as { sub?: unknown; ver?: unknown };
      sub = typeof payload.sub === 'string' ? payload.sub : undefined;
      ver = payload.ver;
    } catch {
      throw tokenFailed();
    }
    const user = sub ? await userById(sub) : undefined;
    if (!user || !user.isActive || user.isGuest || user.tokenVersion !== ver) throw tokenFailed();
    return user;
  }

  async function fromCookie(req: FastifyRequest): Promise<UserRow | undefined> {
    const token = guestCookieToken(req);
    return token ? guestBySession(hashToken(token)) : undefined;
  }

  app.decorateRequest('user', null);

  app.decorate('signToken', async (user: Pick<UserRow, 'id' | 'tokenVersion'>) =>
    sign({ ver: user.tokenVersion, sub: user.id }),
  );

  const optionalUser: preHandlerAsyncHookHandler = async (req) => {
    const token = bearer(req);
    req.user = token ? await fromBearer(token) : ((await fromCookie(req)) ?? null);
  };

  const requireUser: preHandlerAsyncHookHandler = async (req) => {
    const token = bearer(req);
    if (!token) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
    req.user = await fromBearer(token);
  };

  const requireUserOrGuest: preHandlerAsyncHookHandler = async function (this: FastifyInstance, req, reply) {
    await optionalUser.call(this, req, reply);
    if (!req.user) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
  };

  const requireAdmin: preHandlerAsyncHookHandler = async function (this: FastifyInstance, req, reply) {
    await requireUser.call(this, req, reply);
    if (!req.user?.isAdmin) throw new ForbiddenError(AUTH_MESSAGES.notAdmin);
  };

  app.decorate('optionalUser', optionalUser);
  app.decorate('requireUser', requireUser);
  app.decorate('requireUserOrGuest', requireUserOrGuest);
  app.decorate('requireAdmin', requireAdmin);
}
