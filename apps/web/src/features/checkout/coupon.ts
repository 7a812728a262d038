import {
  priceOrder,
  toCents,
  type AppliedCoupon,
  type CouponType,
  type DiscountTerms,
  type OrderPrice,
  type PricedLine,
} from '@store/shared';
import { hasErrorCode, type ApiError } from '#web/lib/api.ts';

/** The server's refusal of a code: it does not apply to this order, or its last use went to another order. */
export const isCouponRefusal = (err: unknown): err is ApiError =>
  hasErrorCode(err, 'COUPON_NOT_APPLICABLE') || hasErrorCode(err, 'COUPON_USED_UP');

// The shared module of discount codes also builds their zod schemas: shopper pages take only its types,
// so zod stays out of the checkout. The compiler holds these names equal to its COUPON_TYPES.
const TYPES = { percent: true, fixed: true, free_shipping: true } satisfies Record<CouponType, true>;
const isCouponType = (v: unknown): v is CouponType => typeof v === 'string' && Object.hasOwn(TYPES, v);

/** A code as typed, as codes are stored: trimmed and upper-cased (normalizeCouponCode of @store/shared). */
export const normalizeCode = (typed: string) => typed.trim().toUpperCase();

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** An applied code as local storage kept it, or null when it is not one (the checkout store reads it back). */
export function parseCoupon(raw: unknown): AppliedCoupon | null {
  if (!raw || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  const type = isCouponType(c.type) ? c.type : null;
  const [discountPrice, itemsPrice, shippingPrice, taxPrice, totalPrice] = [
    c.discountPrice,
    c.itemsPrice,
    c.shippingPrice,
    c.taxPrice,
    c.totalPrice,
  ].map(num);
  if (typeof c.code !== 'string' || !c.code || !type) return null;
  if (discountPrice == null || itemsPrice == null || shippingPrice == null || taxPrice == null || totalPrice == null)
    return null;
  return { code: c.code, type, discountPrice, itemsPrice, shippingPrice, taxPrice, totalPrice };
}

/** The server's answer to "apply" in the cents the summary shows. */
export function appliedPrice(a: AppliedCoupon): OrderPrice {
  return {
    itemsCents: toCents(a.itemsPrice),
    discountCents: toCents(a.discountPrice),
    taxCents: toCents(a.taxPrice),
    shippingCents: toCents(a.shippingPrice),
    totalCents: toCents(a.totalPrice),
  };
}

/**
 * A code's terms as read back from the server's last answer (the answer carries the discount, not the
 * code's value): a percentage is the share of the items the discount took, a fixed amount the amount.
 * Only for the preview while the server prices a changed cart or rate; its answer then replaces it.
 */
export function termsOf(a: AppliedCoupon): DiscountTerms {
  if (a.type === 'free_shipping') return { type: 'free_shipping' };
  const discount = toCents(a.discountPrice);
  if (a.type === 'fixed') return { type: 'fixed', amountCents: discount };
  const items = toCents(a.itemsPrice);
  return { type: 'percent', basisPoints: items > 0 ? Math.round((discount * 10_000) / items) : 0 };
}

/**
 * What the order costs with the applied code: the server's answer when it is for these lines and this
 * rate (`current`), else the shared pricing with the code's terms as last answered; without a code, the
 * shared pricing alone.
 */
export function checkoutPrice(
  lines: PricedLine[],
  shippingCents: number,
  coupon: AppliedCoupon | null,
  current: AppliedCoupon | undefined,
): OrderPrice {
  if (!coupon) return priceOrder(lines, shippingCents);
  if (current && current.code === coupon.code) return appliedPrice(current);
  return priceOrder(lines, shippingCents, termsOf(coupon));
}
