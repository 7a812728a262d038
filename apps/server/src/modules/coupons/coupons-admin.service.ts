import {
  COUPON_MESSAGES,
  ERROR_CODES,
  couponInputSchema,
  isObjectId,
  toCents,
  type Coupon,
  type CouponFormInput,
  type CouponInput,
  type CouponUpdateInput,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import { pgErrorOf, uniqueViolation } from '#server/lib/sql.ts';
import { toCoupon } from './coupon.view.ts';
import { couponsAdminRepository as repo, type CouponValues } from './coupons-admin.repository.ts';
import type { CouponRow } from './coupons.repository.ts';

/**
 * The columns of a checked code: the value in hundredths (of a percent, or of a dollar: cents), 0 for free
 * shipping whatever was sent; the minimum in cents; instants as dates.
 */
function valuesOf(input: CouponInput): CouponValues {
  return {
    code: input.code,
    type: input.type,
    value: input.type === 'free_shipping' ? 0 : toCents(input.value ?? 0),
    minItemsCents: toCents(input.minItemsPrice),
    startsAt: input.startsAt ? new Date(input.startsAt) : null,
    endsAt: input.endsAt ? new Date(input.endsAt) : null,
    usageLimit: input.usageLimit,
    perCustomerLimit: input.perCustomerLimit,
    isActive: input.isActive,
  };
}

/** A code that another one already has, whatever the case it was typed in (codes are stored upper-case). */
function duplicate(err: unknown): BadRequestError | undefined {
  return uniqueViolation(err) === 'coupons_code_uq'
    ? new BadRequestError(COUPON_MESSAGES.codeTaken, ERROR_CODES.DUPLICATE)
    : undefined;
}

/** The fields of a code an admin sets, as the wire has them (not the id, the use count or the timestamps). */
function editable(c: Coupon): CouponFormInput {
  return {
    code: c.code,
    type: c.type,
    value: c.value,
    minItemsPrice: c.minItemsPrice,
    startsAt: c.startsAt,
    endsAt: c.endsAt,
    usageLimit: c.usageLimit,
    perCustomerLimit: c.perCustomerLimit,
    isActive: c.isActive,
  };
}

/** A malformed id names no code either: both are 404. */
async function found(db: Db, id: string): Promise<CouponRow> {
  const row = isObjectId(id) ? await repo.find(db, id) : undefined;
  if (!row) throw new NotFoundError(COUPON_MESSAGES.notFound);
  return row;
}

export async function listCoupons(db: Db): Promise<Coupon[]> {
  return (await repo.list(db)).map(toCoupon);
}

export async function getCoupon(db: Db, id: string): Promise<Coupon> {
  return toCoupon(await found(db, id));
}

export async function createCoupon(db: Db, input: CouponInput): Promise<Coupon> {
  try {
    return toCoupon(await repo.insert(db, valuesOf(input)));
  } catch (err) {
    throw duplicate(err) ?? err;
  }
}

/**
 * PUT: the stored code (as the wire has it) with the sent fields over it, checked whole by the create rules.
 * The usage limit cannot go below the uses already counted.
 */
export async function updateCoupon(db: Db, id: string, body: CouponUpdateInput): Promise<Coupon> {
  const current = await found(db, id);
  const sent = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const parsed = couponInputSchema.safeParse({ ...editable(toCoupon(current)), ...sent });
  if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? 'Invalid request');
  const input = parsed.data;
  if (input.usageLimit !== null && input.usageLimit < current.timesUsed)
    throw new BadRequestError(COUPON_MESSAGES.usageBelowUsed(current.timesUsed));
  try {
    const updated = await repo.update(db, id, valuesOf(input));
    if (!updated) throw new NotFoundError(COUPON_MESSAGES.notFound);
    return toCoupon(updated);
  } catch (err) {
    const taken = duplicate(err);
    if (taken) throw taken;
    // an order counted a use since the check above: the database's check refused the lower limit
    if (pgErrorOf(err)?.constraint === 'coupons_usage_within_limit') {
      const now = await repo.find(db, id);
      throw new BadRequestError(COUPON_MESSAGES.usageBelowUsed(now?.timesUsed ?? current.timesUsed));
    }
    throw err;
  }
}

/** Orders that used the code keep the code as typed (their `coupon_code`); only the link to it goes. */
export async function deleteCoupon(db: Db, id: string): Promise<{ message: string }> {
  if (!isObjectId(id) || !(await repo.remove(db, id))) throw new NotFoundError(COUPON_MESSAGES.notFound);
  return { message: COUPON_MESSAGES.removed };
}
