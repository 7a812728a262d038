import { zodResolver } from '@hookform/resolvers/zod';
import {
  couponInputSchema,
  formatMoney,
  type Coupon,
  type CouponFormInput,
  type CouponInput,
  type CouponType,
} from '@store/shared';
import type { Resolver } from 'react-hook-form';

/** The admin's form as the inputs hold it: numbers and dates as text, '' for "none". */
export interface CouponFormValues {
  code: string;
  type: CouponType;
  value: string;
  minItemsPrice: string;
  /** `datetime-local` text in the browser's time zone, or ''. */
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perCustomerLimit: string;
  isActive: boolean;
}

export const EMPTY_COUPON: CouponFormValues = {
  code: '',
  type: 'percent',
  value: '',
  minItemsPrice: '0',
  startsAt: '',
  endsAt: '',
  usageLimit: '',
  perCustomerLimit: '',
  isActive: true,
};

export const TYPE_LABELS: Record<CouponType, string> = {
  percent: 'Percent off items',
  fixed: 'Fixed amount off items',
  free_shipping: 'Free shipping',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input shows it: local time to the minute; '' for none or an unreadable one. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A `datetime-local` value (local time) as an ISO instant; '' is none (null). Text that is not a local
 * date and time is passed on unchanged, so the shared rules reject it with their message.
 */
export function fromLocalInput(local: string): string | null {
  const v = local.trim();
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  if (!m) return v;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, ...number[]];
  const date = new Date(y, mo! - 1, d!, h!, mi!, s!);
  // 2025-02-30 rolls over to March: not a real date
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo! - 1 || date.getDate() !== d) return v;
  return date.toISOString();
}

const text = (n: number | null) => (n === null ? '' : String(n));

/** A stored code as the form starts from it when editing. */
export function toFormValues(c: Coupon): CouponFormValues {
  return {
    code: c.code,
    type: c.type,
    value: c.type === 'free_shipping' ? '' : String(c.value),
    minItemsPrice: String(c.minItemsPrice),
    startsAt: toLocalInput(c.startsAt),
    endsAt: toLocalInput(c.endsAt),
    usageLimit: text(c.usageLimit),
    perCustomerLimit: text(c.perCustomerLimit),
    isActive: c.isActive,
  };
}

/**
 * What the shared rules read: dates become ISO instants; a free-shipping code has no value, and an empty
 * value is "not given" (so the rules name what the type needs).
 */
export function toSchemaInput(v: CouponFormValues): CouponFormInput {
  const value = v.type === 'free_shipping' || v.value.trim() === '' ? undefined : v.value;
  return {
    code: v.code,
    type: v.type,
    value,
    minItemsPrice: v.minItemsPrice,
    startsAt: fromLocalInput(v.startsAt),
    endsAt: fromLocalInput(v.endsAt),
    usageLimit: v.usageLimit,
    perCustomerLimit: v.perCustomerLimit,
    isActive: v.isActive,
  };
}

const schemaResolver = zodResolver(couponInputSchema);

/** The form checks the same rules as the server (packages/shared), and submits the parsed body. */
export const couponResolver: Resolver<CouponFormValues, unknown, CouponInput> = (values, context, options) =>
  schemaResolver(
    toSchemaInput(values),
    context,
    options as unknown as Parameters<typeof schemaResolver>[2],
  ) as unknown as ReturnType<Resolver<CouponFormValues, unknown, CouponInput>>;

// ---- how the list shows a code ------------------------------------------------------------------

/** '10%', '12.5%', '$5.00' or 'Free shipping'. */
export function valueLabel(c: Pick<Coupon, 'type' | 'value'>): string {
  if (c.type === 'percent') return `${Number(c.value.toFixed(2))}%`;
  if (c.type === 'fixed') return formatMoney(c.value);
  return 'Free shipping';
}

/** 'Used / limit', '∞' without a limit. */
export function usesLabel(c: Pick<Coupon, 'timesUsed' | 'usageLimit'>): string {
  return `${c.timesUsed} / ${c.usageLimit ?? '∞'}`;
}

/** A limit, or '∞' for none. */
export const limitLabel = (n: number | null) => (n === null ? '∞' : String(n));

/** A start or end as the admin reads it, in the browser's time zone; '—' for none. */
export function dateLabel(iso: string | null, locale?: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Whether a code is past its end (the list flags it). */
export const hasEnded = (c: Pick<Coupon, 'endsAt'>, now = new Date()) =>
  c.endsAt !== null && Date.parse(c.endsAt) <= now.getTime();

// ---- what the toast says ------------------------------------------------------------------------

/** After a save: a new code is created; an edit is saved, and says so when it switched the code on or off. */
export function savedNotice(before: Pick<Coupon, 'isActive'> | null, saved: Pick<Coupon, 'code' | 'isActive'>): string {
  if (!before) return `Discount code ${saved.code} created.`;
  if (before.isActive === saved.isActive) return `Discount code ${saved.code} saved.`;
  return `Discount code ${saved.code} saved and ${saved.isActive ? 'activated' : 'deactivated'}.`;
}

export const deletedNotice = (c: Pick<Coupon, 'code'>) => `Discount code ${c.code} deleted.`;
