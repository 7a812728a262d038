import { describe, expect, it } from 'vitest';
import { COUPON_MESSAGES, couponInputSchema, couponProblem, discountTerms, type CouponState } from './coupons.ts';

const firstError = (input: object) => {
  const r = couponInputSchema.safeParse(input);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('discount code fields', () => {
  it('trims and upper-cases the code, and fills the defaults', () => {
    expect(couponInputSchema.parse({ code: ' summer-25 ', type: 'percent', value: '25' })).toEqual({
      code: 'SUMMER-25',
      type: 'percent',
      value: 25,
      minItemsPrice: 0,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: null,
      isActive: true,
    });
  });

  it('refuses what breaks a rule, with the rule’s message', () => {
    const ok = { code: 'GOOD', type: 'percent', value: 10 };
    expect(firstError({ ...ok, code: 'ab' })).toBe(COUPON_MESSAGES.code);
    expect(firstError({ ...ok, code: 'has space' })).toBe(COUPON_MESSAGES.code);
    expect(firstError({ ...ok, code: 'X'.repeat(33) })).toBe(COUPON_MESSAGES.code);
    expect(firstError({ ...ok, type: 'bogo' })).toBe(COUPON_MESSAGES.type);
    expect(firstError({ ...ok, value: 0 })).toBe(COUPON_MESSAGES.percent);
    expect(firstError({ ...ok, value: 100.5 })).toBe(COUPON_MESSAGES.percent);
    expect(firstError({ ...ok, value: 12.345 })).toBe(COUPON_MESSAGES.percent);
    expect(firstError({ ...ok, type: 'fixed', value: 0 })).toBe(COUPON_MESSAGES.fixed);
    expect(firstError({ ...ok, type: 'fixed', value: undefined })).toBe(COUPON_MESSAGES.fixed);
    expect(firstError({ ...ok, minItemsPrice: -1 })).toBe(COUPON_MESSAGES.minItemsPrice);
    expect(firstError({ ...ok, usageLimit: 0 })).toBe(COUPON_MESSAGES.usageLimit);
    expect(firstError({ ...ok, perCustomerLimit: 1.5 })).toBe(COUPON_MESSAGES.perCustomerLimit);
    expect(firstError({ ...ok, startsAt: 'soon' })).toBe(COUPON_MESSAGES.date('Start'));
    expect(firstError({ ...ok, startsAt: '2026-12-02T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' })).toBe(
      COUPON_MESSAGES.dateOrder,
    );
    // free shipping takes no value
    expect(firstError({ code: 'SHIP', type: 'free_shipping' })).toBeNull();
    // blank limits and dates mean none
    expect(couponInputSchema.parse({ ...ok, usageLimit: '', startsAt: '', perCustomerLimit: '3' })).toMatchObject({
      usageLimit: null,
      startsAt: null,
      perCustomerLimit: 3,
    });
  });

  it('turns a code into the integer terms pricing takes', () => {
    expect(discountTerms({ type: 'percent', value: 12.5 })).toEqual({ type: 'percent', basisPoints: 1250 });
    expect(discountTerms({ type: 'fixed', value: 5.1 })).toEqual({ type: 'fixed', amountCents: 510 });
    expect(discountTerms({ type: 'free_shipping', value: 0 })).toEqual({ type: 'free_shipping' });
  });
});

describe('whether a code applies', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const code: CouponState = {
    isActive: true,
    startsAt: null,
    endsAt: null,
    usageLimit: null,
    timesUsed: 0,
    perCustomerLimit: null,
    minItemsCents: 0,
  };
  const order = { itemsCents: 5000, now, usedByCustomer: 0 };

  it('applies when nothing stops it', () => expect(couponProblem(code, order)).toBeNull());

  it('says why it does not', () => {
    expect(couponProblem({ ...code, isActive: false }, order)).toBe(COUPON_MESSAGES.inactive);
    expect(couponProblem({ ...code, startsAt: new Date('2026-11-25T00:00:00Z') }, order)).toBe(
      COUPON_MESSAGES.notStarted,
    );
    expect(couponProblem({ ...code, endsAt: new Date('2026-11-24T12:00:00Z') }, order)).toBe(COUPON_MESSAGES.ended);
    expect(couponProblem({ ...code, usageLimit: 5, timesUsed: 5 }, order)).toBe(COUPON_MESSAGES.usedUp);
    expect(couponProblem({ ...code, perCustomerLimit: 1 }, { ...order, usedByCustomer: 1 })).toBe(
      COUPON_MESSAGES.perCustomerUsed,
    );
    expect(couponProblem({ ...code, minItemsCents: 5001 }, order)).toBe(COUPON_MESSAGES.minimum(50.01));
  });

  it('applies at the exact edges: started now, the minimum exactly met, one use left', () => {
    expect(couponProblem({ ...code, startsAt: now }, order)).toBeNull();
    expect(couponProblem({ ...code, minItemsCents: 5000 }, order)).toBeNull();
    expect(couponProblem({ ...code, usageLimit: 5, timesUsed: 4 }, order)).toBeNull();
  });
});
