import { COUPON_MESSAGES, type Coupon } from '@store/shared';
import { describe, expect, it } from 'vitest';
import {
  couponResolver,
  dateLabel,
  deletedNotice,
  EMPTY_COUPON,
  fromLocalInput,
  hasEnded,
  limitLabel,
  savedNotice,
  toFormValues,
  toLocalInput,
  toSchemaInput,
  usesLabel,
  valueLabel,
  type CouponFormValues,
} from './coupon-form.ts';

const stored: Coupon = {
  _id: 'c1',
  code: 'SAVE10',
  type: 'percent',
  value: 10,
  minItemsPrice: 25,
  startsAt: null,
  endsAt: '2030-01-02T03:04:00.000Z',
  usageLimit: 100,
  perCustomerLimit: null,
  isActive: true,
  timesUsed: 3,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const resolve = (values: CouponFormValues) =>
  couponResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('datetime-local ↔ ISO', () => {
  it('reads a local date and time as that moment in the browser’s time zone', () => {
    const iso = fromLocalInput('2025-03-04T05:06');
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
    const d = new Date(iso!);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2025, 2, 4, 5, 6]);
  });

  it('round-trips to the minute', () => {
    for (const local of ['2025-03-04T05:06', '1999-12-31T23:59', '2030-07-01T00:00']) {
      expect(toLocalInput(fromLocalInput(local))).toBe(local);
    }
    expect(toLocalInput('2025-03-04T05:06:59.999Z')).toBe(toLocalInput('2025-03-04T05:06:00.000Z'));
  });

  it('takes empty as none and passes text that is no local date on, for the rules to refuse', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('  ')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBe('tomorrow');
    expect(fromLocalInput('2025-02-30T10:00')).toBe('2025-02-30T10:00');
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('not a date')).toBe('');
  });
});

describe('the form and the stored code', () => {
  it('starts an edit from the stored code, limits and dates as text', () => {
    const v = toFormValues(stored);
    expect(v).toMatchObject({ code: 'SAVE10', type: 'percent', value: '10', minItemsPrice: '25', startsAt: '' });
    expect(v.usageLimit).toBe('100');
    expect(v.perCustomerLimit).toBe('');
    expect(v.endsAt).toBe(toLocalInput(stored.endsAt));
    expect(toFormValues({ ...stored, type: 'free_shipping', value: 0 }).value).toBe('');
  });

  it('gives the rules no value for free shipping or an empty value', () => {
    expect(toSchemaInput({ ...EMPTY_COUPON, type: 'free_shipping', value: '5' }).value).toBeUndefined();
    expect(toSchemaInput({ ...EMPTY_COUPON, value: ' ' }).value).toBeUndefined();
    expect(toSchemaInput({ ...EMPTY_COUPON, value: '12.5' }).value).toBe('12.5');
  });

  it('submits the parsed body: upper-case code, numbers, ISO dates, nulls for empty', async () => {
    const { values, errors } = await resolve({
      ...EMPTY_COUPON,
      code: ' save-10 ',
      value: '10',
      minItemsPrice: '20.50',
      startsAt: '2025-03-04T05:06',
      usageLimit: '5',
    });
    expect(errors).toEqual({});
    expect(values).toEqual({
      code: 'SAVE-10',
      type: 'percent',
      value: 10,
      minItemsPrice: 20.5,
      startsAt: fromLocalInput('2025-03-04T05:06'),
      endsAt: null,
      usageLimit: 5,
      perCustomerLimit: null,
      isActive: true,
    });
  });

  it('shows the shared messages by the fields', async () => {
    const bad = await resolve({ ...EMPTY_COUPON, code: 'x!', value: '10', usageLimit: '0' });
    expect(bad.errors.code?.message).toBe(COUPON_MESSAGES.code);
    expect(bad.errors.usageLimit?.message).toBe(COUPON_MESSAGES.usageLimit);
    const percent = await resolve({ ...EMPTY_COUPON, code: 'ABC', value: '150' });
    expect(percent.errors.value?.message).toBe(COUPON_MESSAGES.percent);
    const missing = await resolve({ ...EMPTY_COUPON, code: 'ABC', type: 'fixed', value: '' });
    expect(missing.errors.value?.message).toBe(COUPON_MESSAGES.fixed);
    const order = await resolve({
      ...EMPTY_COUPON,
      code: 'ABC',
      type: 'free_shipping',
      startsAt: '2025-03-04T05:06',
      endsAt: '2025-03-04T05:06',
    });
    expect(order.errors.endsAt?.message).toBe(COUPON_MESSAGES.dateOrder);
  });

  it('accepts a free-shipping code without a value', async () => {
    const { values, errors } = await resolve({ ...EMPTY_COUPON, code: 'shipfree', type: 'free_shipping', value: '' });
    expect(errors).toEqual({});
    expect(values).toMatchObject({ code: 'SHIPFREE', type: 'free_shipping' });
    expect((values as { value?: number }).value).toBeUndefined();
  });
});

describe('the list’s cells', () => {
  it('shows a value by its type', () => {
    expect(valueLabel({ type: 'percent', value: 10 })).toBe('10%');
    expect(valueLabel({ type: 'percent', value: 12.5 })).toBe('12.5%');
    expect(valueLabel({ type: 'fixed', value: 5 })).toBe('$5.00');
    expect(valueLabel({ type: 'fixed', value: 0.5 })).toBe('$0.50');
    expect(valueLabel({ type: 'free_shipping', value: 0 })).toBe('Free shipping');
  });

  it('shows uses against the limit, ∞ for none', () => {
    expect(usesLabel({ timesUsed: 0, usageLimit: null })).toBe('0 / ∞');
    expect(usesLabel({ timesUsed: 3, usageLimit: 100 })).toBe('3 / 100');
    expect(limitLabel(null)).toBe('∞');
    expect(limitLabel(2)).toBe('2');
  });

  it('shows no date as a dash, and knows an ended code', () => {
    expect(dateLabel(null)).toBe('—');
    expect(dateLabel('2030-01-02T03:04:00.000Z', 'en-US')).toMatch(/2030/);
    const now = new Date('2026-01-01T00:00:00Z');
    expect(hasEnded({ endsAt: '2025-12-31T23:59:59Z' }, now)).toBe(true);
    expect(hasEnded({ endsAt: '2026-01-01T00:00:01Z' }, now)).toBe(false);
    expect(hasEnded({ endsAt: null }, now)).toBe(false);
  });
});

describe('the toast after a change', () => {
  it('says created, saved, activated or deactivated, and deleted', () => {
    expect(savedNotice(null, stored)).toBe('Discount code SAVE10 created.');
    expect(savedNotice(stored, { code: 'SAVE10', isActive: true })).toBe('Discount code SAVE10 saved.');
    expect(savedNotice(stored, { ...stored, isActive: false })).toBe('Discount code SAVE10 saved and deactivated.');
    expect(savedNotice({ isActive: false }, stored)).toBe('Discount code SAVE10 saved and activated.');
    expect(deletedNotice(stored)).toBe('Discount code SAVE10 deleted.');
  });
});
