import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Limit } from '../config.ts';
import { TooManyRequestsError } from './errors.ts';

export const tooManyMessage = (ttlMs: number) =>
  `Too many requests, please try again in ${Math.max(1, Math.ceil(ttlMs / 1000))} seconds.`;

/** Route option: a limit per client address (checked on arrival, before the body is read). */
export function perIp(limit: Limit) {
  return { rateLimit: { max: limit.max, timeWindow: limit.windowMs } };
}

/**
 * preHandler: a second limit keyed by the account the request names (its e-mail), so one address
 * cannot be hammered from many client addresses. Runs after validation, on the cleaned body.
 */
export function perAccount(
  app: FastifyInstance,
  name: string,
  limit: Limit | undefined,
  accountOf: (req: FastifyRequest) => string | undefined,
): preHandlerAsyncHookHandler {
  if (!limit) return async () => {};
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (req) => `${name}:${accountOf(req) ?? ''}`,
  });
  return async (req) => {
    if (!accountOf(req)) return;
    const result = await check(req);
    if (!result.isAllowed && result.isExceeded) throw new TooManyRequestsError(tooManyMessage(result.ttl));
  };
}
