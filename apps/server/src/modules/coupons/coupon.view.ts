import { fromCents, type Coupon } from '@store/shared';
import type { CouponRow } from './coupons.repository.ts';

/**
 * A stored code as the wire has it: `value` back to a percentage (stored in hundredths of a percent) or to
 * dollars (stored in cents), 0 for free shipping; the minimum in dollars; instants as ISO strings.
 */
export function toCoupon(row: CouponRow): Coupon {
  return {
    _id: row.id,
    code: row.code,
    type: row.type,
    value: row.type === 'free_shipping' ? 0 : fromCents(row.value),
    minItemsPrice: fromCents(row.minItemsCents),
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    usageLimit: row.usageLimit,
    perCustomerLimit: row.perCustomerLimit,
    isActive: row.isActive,
    timesUsed: row.timesUsed,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
