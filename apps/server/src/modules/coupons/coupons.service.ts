import {
  COUPON_CODE_RE,
  COUPON_MESSAGES,
  ERROR_CODES,
  checkEmail,
  couponProblem,
  fromCents,
  priceOrder,
  type AppliedCoupon,
  type ApplyCouponInput,
  normalizeCouponCode,
  type CouponType,
  type DiscountTerms,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import { orderLines, priceLines, type ProductForOrder } from '../orders/pricing.ts';
import { pickRate, type Rate } from '../shipping/shipping-rates.ts';
import { couponsRepository as repo, type CouponRow } from './coupons.repository.ts';

/** A code that applies to an order: what pricing takes, and what the order records. */
export interface AppliedCode {
  id: string;
  code: string;
  type: CouponType;
  terms: DiscountTerms;
}

/** A stored code's terms: its value is already in pricing's units (hundredths of a percent, or cents). */
function termsOf(c: Pick<CouponRow, 'type' | 'value'>): DiscountTerms {
  if (c.type === 'percent') return { type: 'percent', basisPoints: c.value };
  if (c.type === 'fixed') return { type: 'fixed', amountCents: c.value };
  return { type: 'free_shipping' };
}

/** A code typed at checkout, blank for none. */
export function couponCodeOf(raw: string | null | undefined): string | null {
  const code = normalizeCouponCode(raw ?? '');
  return code === '' ? null : code;
}

/**
 * The code as it applies to an order of `itemsCents` by `email` (lower-cased; null: nobody known, so
 * no per-customer count), now; a 400 saying why when it does not. Placing the order counts the use
 * atomically, so a code this accepts can still be refused there (409) when its last use goes to
 * another order first.
 */
export async function couponForOrder(
  db: Db,
  code: string,
  order: { itemsCents: number; email: string | null; now?: Date },
): Promise<AppliedCode> {
  const notApplicable = (message: string) => new BadRequestError(message, ERROR_CODES.COUPON_NOT_APPLICABLE);
  // a code that could never exist is unknown without a read
  if (!COUPON_CODE_RE.test(code)) throw notApplicable(COUPON_MESSAGES.unknown);
  const found = await repo.byCode(db, code, order.email?.toLowerCase() ?? null);
  if (!found) throw notApplicable(COUPON_MESSAGES.unknown);
  const { coupon: c, usedByCustomer } = found;
  const problem = couponProblem(c, { itemsCents: order.itemsCents, now: order.now ?? new Date(), usedByCustomer });
  if (problem) throw notApplicable(problem);
  return { id: c.id, code: c.code, type: c.type, terms: termsOf(c) };
}

/**
 * POST /api/coupons/apply: the items priced from the catalogue as an order would be (the chosen
 * shipping rate, the code's discount, tax on what is left), or a 400 saying why the code does not apply.
 */
export async function applyCoupon(
  db: Db,
  input: ApplyCouponInput,
  ctx: {
    email: string | null;
    products: (ids: string[]) => Promise<ProductForOrder[]>;
    rates: () => Promise<Rate[]>;
  },
): Promise<AppliedCoupon> {
  const code = couponCodeOf(input.code);
  if (!code) throw new BadRequestError(COUPON_MESSAGES.unknown, ERROR_CODES.COUPON_NOT_APPLICABLE);
  const lines = orderLines(input.orderItems);
  const found = await ctx.products([...new Set(lines.map((l) => l.productId))]);
  const priced = priceLines(lines, found);
  const rate = pickRate(await ctx.rates(), input.shippingRateId?.trim());
  const itemsCents = priceOrder(priced, 0).itemsCents;
  // an address that is not one counts nobody's uses (placing the order checks the real one)
  const checked = ctx.email ? checkEmail(ctx.email) : null;
  const email = checked && !checked.error ? checked.value : null;
  const coupon = await couponForOrder(db, code, { itemsCents, email });
  const price = priceOrder(priced, rate.priceCents, coupon.terms);
  return {
    code: coupon.code,
    type: coupon.type,
    discountPrice: fromCents(price.discountCents),
    itemsPrice: fromCents(price.itemsCents),
    shippingPrice: fromCents(price.shippingCents),
    taxPrice: fromCents(price.taxCents),
    totalPrice: fromCents(price.totalCents),
  };
}
