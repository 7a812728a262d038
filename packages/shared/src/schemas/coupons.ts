/**
 * Discount codes on the wire: the admin's create and edit bodies, the answers, and the shopper's
 * "apply" call. Amounts are dollars on the wire and integer cents inside (money.ts prices with them).
 */
import { z } from 'zod';
import { formatMoney, type DiscountTerms } from '../money.ts';
import { changesSomething, numberish, twoDecimals } from './common.ts';
import { orderItemInputSchema } from './orders.ts';

export const COUPON_TYPES = ['percent', 'fixed', 'free_shipping'] as const;
export type CouponType = (typeof COUPON_TYPES)[number];
/** 3 to 32 of A–Z, 0–9, '-' and '_', after trimming and upper-casing. */
export const COUPON_CODE_RE = /^[A-Z0-9_-]{3,32}$/;
export const COUPON_AMOUNT_MAX = 1_000_000;
export const COUPON_LIMIT_MAX = 1_000_000_000;

export const COUPON_MESSAGES = {
  code: 'Code must be 3 to 32 letters, digits, hyphens or underscores',
  codeTaken: 'A discount code with this code already exists',
  type: 'Type must be percent, fixed or free_shipping',
  percent: 'A percentage must be from 1 to 100, with at most two decimals',
  fixed: 'A fixed amount must be more than 0, with at most two decimals',
  minItemsPrice: 'Minimum items price must be 0 or more, with at most two decimals',
  date: (name: string) => `${name} must be a date and time, or empty`,
  dateOrder: 'The end must be after the start',
  usageLimit: 'Usage limit must be empty or a whole number from 1',
  usageBelowUsed: (used: number) => `Usage limit cannot be below the ${used} times this code was already used`,
  perCustomerLimit: 'Limit per customer must be empty or a whole number from 1',
  notFound: 'Discount code not found',
  removed: 'Discount code removed',
  // why a code does not apply to an order (400), or lost a race for its last use (409)
  unknown: 'This discount code does not exist',
  inactive: 'This discount code is not active',
  notStarted: 'This discount code is not valid yet',
  ended: 'This discount code has expired',
  usedUp: 'This discount code has been used up',
  perCustomerUsed: 'You have already used this discount code as many times as it allows',
  minimum: (dollars: number) => `This discount code needs items worth at least ${formatMoney(dollars)}`,
} as const;

const blankIsNull = (v: unknown) => (v === '' || v === undefined ? null : v);

const limit = (message: string) =>
  z.preprocess(
    (v) => numberish(blankIsNull(v)),
    z.number({ error: message }).int(message).min(1, message).max(COUPON_LIMIT_MAX, message).nullable(),
  );

const instant = (name: string) =>
  z.preprocess(
    blankIsNull,
    z
      .string({ error: COUPON_MESSAGES.date(name) })
      .max(64, COUPON_MESSAGES.date(name))
      .refine((v) => {
        const t = Date.parse(v);
        return Number.isFinite(t) && t > Date.UTC(1970, 0, 1) && t < Date.UTC(10000, 0, 1);
      }, COUPON_MESSAGES.date(name))
      .transform((v) => new Date(v).toISOString())
      .nullable(),
  );

/** The fields of a code, each on its own; `couponInputSchema` adds the rules between them. */
const couponFields = z.object({
  code: z
    .string({ error: COUPON_MESSAGES.code })
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(COUPON_CODE_RE, COUPON_MESSAGES.code)),
  type: z.enum(COUPON_TYPES, { error: COUPON_MESSAGES.type }),
  /** percent: 1–100; fixed: dollars > 0; free_shipping: ignored. */
  value: z.preprocess(numberish, z.number({ error: COUPON_MESSAGES.fixed }).finite(COUPON_MESSAGES.fixed)).optional(),
  minItemsPrice: z.preprocess(
    (v) => numberish(v === '' || v === null ? 0 : v),
    z
      .number({ error: COUPON_MESSAGES.minItemsPrice })
      .finite(COUPON_MESSAGES.minItemsPrice)
      .min(0, COUPON_MESSAGES.minItemsPrice)
      .max(COUPON_AMOUNT_MAX, COUPON_MESSAGES.minItemsPrice)
      .refine(twoDecimals, COUPON_MESSAGES.minItemsPrice)
      .default(0),
  ),
  startsAt: instant('Start').optional().default(null),
  endsAt: instant('End').optional().default(null),
  usageLimit: limit(COUPON_MESSAGES.usageLimit).optional().default(null),
  perCustomerLimit: limit(COUPON_MESSAGES.perCustomerLimit).optional().default(null),
  isActive: z.boolean({ error: 'Active must be true or false' }).optional().default(true),
});

/** POST /api/coupons, and a PUT's body once merged with the code as stored. */
export const couponInputSchema = couponFields.superRefine((c, ctx) => {
  const value = c.value;
  if (c.type === 'percent' && (value === undefined || value < 1 || value > 100 || !twoDecimals(value)))
    ctx.addIssue({ code: 'custom', path: ['value'], message: COUPON_MESSAGES.percent });
  if (c.type === 'fixed' && (value === undefined || value <= 0 || value > COUPON_AMOUNT_MAX || !twoDecimals(value)))
    ctx.addIssue({ code: 'custom', path: ['value'], message: COUPON_MESSAGES.fixed });
  if (c.startsAt && c.endsAt && Date.parse(c.endsAt) <= Date.parse(c.startsAt))
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: COUPON_MESSAGES.dateOrder });
});
export type CouponInput = z.output<typeof couponInputSchema>;
/** What the admin's form holds before parsing (numbers may be text). */
export type CouponFormInput = z.input<typeof couponInputSchema>;

/**
 * PUT /api/coupons/{id}: any of the fields (something must change). Unknown fields, and the read-only
 * ones (`_id`, `timesUsed`), are dropped. The service merges it with the stored code and checks the
 * whole with `couponInputSchema`.
 */
export const couponUpdateSchema = changesSomething(
  z.object({
    code: z.unknown().optional(),
    type: z.unknown().optional(),
    value: z.unknown().optional(),
    minItemsPrice: z.unknown().optional(),
    startsAt: z.unknown().optional(),
    endsAt: z.unknown().optional(),
    usageLimit: z.unknown().optional(),
    perCustomerLimit: z.unknown().optional(),
    isActive: z.unknown().optional(),
  }),
);
export type CouponUpdateInput = z.infer<typeof couponUpdateSchema>;

export const couponSchema = z.object({
  _id: z.string(),
  code: z.string(),
  type: z.enum(COUPON_TYPES),
  value: z.number(),
  minItemsPrice: z.number(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().nullable(),
  perCustomerLimit: z.number().nullable(),
  isActive: z.boolean(),
  timesUsed: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** POST /api/coupons/apply: prices the items as an order would, with the code. */
export const applyCouponSchema = z.object({
  code: z.string({ error: COUPON_MESSAGES.unknown }).max(64, COUPON_MESSAGES.unknown),
  orderItems: z.array(orderItemInputSchema).min(1, 'No order items').max(100, 'Too many order items'),
  shippingRateId: z.string().max(64).optional(),
  /** A guest's address, for the per-customer limit when nobody is signed in. */
  email: z.string().max(254).optional(),
});
export type ApplyCouponInput = z.infer<typeof applyCouponSchema>;

export const appliedCouponSchema = z.object({
  code: z.string(),
  type: z.enum(COUPON_TYPES),
  discountPrice: z.number(),
  itemsPrice: z.number(),
  shippingPrice: z.number(),
  taxPrice: z.number(),
  totalPrice: z.number(),
});
export type AppliedCoupon = z.infer<typeof appliedCouponSchema>;

/** A code's terms in the integer units pricing takes (money.ts). */
export function discountTerms(c: { type: CouponType; value: number }): DiscountTerms {
  if (c.type === 'percent') return { type: 'percent', basisPoints: Math.round(c.value * 100) };
  if (c.type === 'fixed') return { type: 'fixed', amountCents: Math.round(c.value * 100) };
  return { type: 'free_shipping' };
}

/** What decides whether a code applies (the stored code, in cents). */
export interface CouponState {
  isActive: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  timesUsed: number;
  perCustomerLimit: number | null;
  minItemsCents: number;
}

/**
 * Why a code does not apply to an order of `itemsCents` placed `now` by a customer who used it
 * `usedByCustomer` times, or null when it applies. The order of the checks is the order a shopper
 * would want to hear them.
 */
export function couponProblem(
  c: CouponState,
  order: { itemsCents: number; now: Date; usedByCustomer: number },
): string | null {
  if (!c.isActive) return COUPON_MESSAGES.inactive;
  if (c.startsAt && order.now < c.startsAt) return COUPON_MESSAGES.notStarted;
  if (c.endsAt && order.now >= c.endsAt) return COUPON_MESSAGES.ended;
  if (c.usageLimit !== null && c.timesUsed >= c.usageLimit) return COUPON_MESSAGES.usedUp;
  if (c.perCustomerLimit !== null && order.usedByCustomer >= c.perCustomerLimit) return COUPON_MESSAGES.perCustomerUsed;
  if (order.itemsCents < c.minItemsCents) return COUPON_MESSAGES.minimum(c.minItemsCents / 100);
  return null;
}

/** A code as typed by a shopper: trimmed and upper-cased (codes are stored upper-case). */
export function normalizeCouponCode(raw: string): string {
  return raw.trim().toUpperCase();
}
