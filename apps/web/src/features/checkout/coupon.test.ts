import { normalizeCouponCode, priceOrder, type AppliedCoupon } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api.ts';
import { appliedPrice, checkoutPrice, isCouponRefusal, normalizeCode, parseCoupon, termsOf } from './coupon.ts';

const answer: AppliedCoupon = {
  code: 'SAVE10',
  type: 'percent',
  discountPrice: 3.33,
  itemsPrice: 33.33,
  shippingPrice: 5,
  taxPrice: 4.5,
  totalPrice: 39.5,
};
const lines = [{ unitPriceCents: 3333, qty: 1 }];

describe('an applied code in the checkout', () => {
  it('takes the server’s numbers when they are for the current lines and rate', () => {
    expect(appliedPrice(answer)).toEqual({
      itemsCents: 3333,
      discountCents: 333,
      taxCents: 450,
      shippingCents: 500,
      totalCents: 3950,
    });
    expect(checkoutPrice(lines, 500, answer, { ...answer, totalPrice: 40 }).totalCents).toBe(4000);
  });

  it('previews with the shared pricing and the code’s terms while the server prices a change', () => {
    const twice = [{ unitPriceCents: 3333, qty: 2 }];
    const preview = checkoutPrice(twice, 500, answer, undefined);
    expect(preview).toEqual(priceOrder(twice, 500, { type: 'percent', basisPoints: 999 }));
    expect(preview.discountCents).toBe(666);
    // an answer for another code is not this code's
    expect(checkoutPrice(lines, 500, answer, { ...answer, code: 'OTHER' })).toEqual(
      priceOrder(lines, 500, termsOf(answer)),
    );
  });

  it('reads the terms back from an answer', () => {
    expect(termsOf({ ...answer, type: 'free_shipping', discountPrice: 0 })).toEqual({ type: 'free_shipping' });
    expect(termsOf({ ...answer, type: 'fixed', discountPrice: 5 })).toEqual({ type: 'fixed', amountCents: 500 });
    expect(termsOf({ ...answer, discountPrice: 5, itemsPrice: 50 })).toEqual({ type: 'percent', basisPoints: 1000 });
    expect(termsOf({ ...answer, discountPrice: 0, itemsPrice: 0 })).toEqual({ type: 'percent', basisPoints: 0 });
  });

  it('prices without a code as before', () => {
    expect(checkoutPrice(lines, 500, null, answer)).toEqual(priceOrder(lines, 500));
    const free = checkoutPrice(lines, 500, { ...answer, type: 'free_shipping', discountPrice: 0 }, undefined);
    expect(free.shippingCents).toBe(0);
    expect(free.discountCents).toBe(0);
  });

  it('reads back only a well-formed stored answer', () => {
    expect(parseCoupon(JSON.parse(JSON.stringify(answer)))).toEqual(answer);
    expect(parseCoupon({ ...answer, extra: 1 })).toEqual(answer);
    expect(parseCoupon(null)).toBeNull();
    expect(parseCoupon('SAVE10')).toBeNull();
    expect(parseCoupon({ ...answer, code: '' })).toBeNull();
    expect(parseCoupon({ ...answer, type: 'bogus' })).toBeNull();
    expect(parseCoupon({ ...answer, totalPrice: '39.5' })).toBeNull();
  });

  it('knows the server’s refusals of a code from other failures', () => {
    expect(isCouponRefusal(new ApiError('ended', 400, 'COUPON_NOT_APPLICABLE'))).toBe(true);
    expect(isCouponRefusal(new ApiError('used up', 409, 'COUPON_USED_UP'))).toBe(true);
    expect(isCouponRefusal(new ApiError('slow down', 429, 'RATE_LIMITED' as never))).toBe(false);
    expect(isCouponRefusal(new Error('network'))).toBe(false);
  });
});

describe('a typed code', () => {
  it('is trimmed and upper-cased as the shared rule does', () => {
    for (const typed of [' save10 ', 'Summer-Sale_2', 'ABC'])
      expect(normalizeCode(typed)).toBe(normalizeCouponCode(typed));
  });
});
