import { timingSafeEqual } from 'node:crypto';
import { ORDER_MESSAGES, cleanEmail, isObjectId, postalCodeKey, type Order } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, ForbiddenError } from '#server/lib/errors.ts';
import { hashToken as hash, randomToken } from '#server/lib/tokens.ts';
import { ordersReadRepository as reads } from './orders-read.repository.ts';
import { orderView } from './orders-read.service.ts';
import { ordersRepository as repo } from './orders.repository.ts';

export const ACCESS_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * POST /api/orders/{id}/guest-access: e-mail (case-insensitive) and postal code (normalised) must both
 * match an order a guest placed. Answers a random token (256 bits) scoped to this order and expiring in
 * 2 h; only its hash is stored. An unknown order, and an order of a registered account (read it signed
 * in), fail exactly like a wrong answer.
 */
export async function grantGuestAccess(
  db: Db,
  orderId: string,
  input: { email?: string; postalCode?: string },
): Promise<{ accessToken: string; expiresAt: string }> {
  const email = cleanEmail(input.email ?? '');
  const postal = (input.postalCode ?? '').trim();
  if (!email || !postal) throw new BadRequestError(ORDER_MESSAGES.accessMissing);
  const order = isObjectId(orderId) ? await reads.find(db, orderId) : undefined;
  const address = order?.shippingAddress;
  const matches =
    order !== undefined &&
    order.isGuest &&
    address !== undefined &&
    same(order.email.toLowerCase(), email) &&
    same(postalCodeKey(address.postalCode, address.country), postalCodeKey(postal, address.country));
  if (!matches) throw new ForbiddenError(ORDER_MESSAGES.accessFailed);

  const accessToken = randomToken();
  const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_MS);
  await repo.pruneAccessTokens(db, order.id);
  await repo.insertAccessToken(db, order.id, hash(accessToken), expiresAt);
  return { accessToken, expiresAt: expiresAt.toISOString() };
}

/** True for an unexpired token issued for this very order. */
export async function hasGuestAccess(db: Db, orderId: string, accessToken: string | undefined): Promise<boolean> {
  if (!accessToken || accessToken.length > 128 || !isObjectId(orderId)) return false;
  return repo.accessTokenValid(db, orderId, hash(accessToken));
}

/** GET /api/orders/{id}/guest?accessToken=…: the order, for a valid token of that order only. */
export async function orderByAccessToken(
  db: Db,
  orderId: string,
  accessToken: string | undefined,
  holdMinutes: number,
): Promise<Order> {
  if (!(await hasGuestAccess(db, orderId, accessToken)))
    throw new ForbiddenError('Access token is invalid or has expired');
  const order = await reads.find(db, orderId);
  if (!order) throw new ForbiddenError('Access token is invalid or has expired');
  return orderView(db, order, holdMinutes);
}
