import { TAX_RATE_PERCENT } from './constants.ts';

/** Dollars (wire) → integer cents. Rounds half away from zero on the cent. */
export function toCents(dollars: number): number {
  return Math.round(Number((dollars * 100).toFixed(4)));
}

/** Integer cents → dollars with at most two decimals (wire). */
export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Dollars as people read them, the same in the app and in e-mails: `$1,607.99`, `-$5.00`. */
export function formatMoney(dollars: number): string {
  return USD.format(dollars);
}

/** 15% of the items, rounded to the cent (half up), in integer arithmetic. */
export function taxCents(itemsCents: number): number {
  return Math.floor((itemsCents * TAX_RATE_PERCENT + 50) / 100);
}

export interface PricedLine {
  unitPriceCents: number;
  qty: number;
}

export interface OrderPrice {
  itemsCents: number;
  /** Taken off the items by a discount code (0 without one, and for free shipping). */
  discountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
}

/**
 * What a discount code takes, in integer units: `percent` in hundredths of a percent (1250 = 12.5%),
 * `fixed` in cents; `free_shipping` takes the shipping instead.
 */
export type DiscountTerms =
  { type: 'percent'; basisPoints: number } | { type: 'fixed'; amountCents: number } | { type: 'free_shipping' };

/** The discount on the items: a percentage rounded to the cent (half up), a fixed amount at most the items. */
export function discountCents(itemsCents: number, terms: DiscountTerms | null | undefined): number {
  if (!terms || itemsCents <= 0) return 0;
  if (terms.type === 'percent') {
    const bp = Math.min(Math.max(Math.trunc(terms.basisPoints), 0), 10_000);
    return Math.min(itemsCents, Math.floor((itemsCents * bp + 5_000) / 10_000));
  }
  if (terms.type === 'fixed') return Math.min(itemsCents, Math.max(0, Math.trunc(terms.amountCents)));
  return 0;
}

/**
 * The one function that prices an order: the server's is authoritative, the web app previews.
 * Tax is taken on the items after the discount; a free-shipping code makes the shipping 0.
 */
export function priceOrder(
  lines: PricedLine[],
  shippingCents: number,
  discount: DiscountTerms | null = null,
): OrderPrice {
  const itemsCents = lines.reduce((sum, l) => sum + l.unitPriceCents * l.qty, 0);
  const off = discountCents(itemsCents, discount);
  const shipping = discount?.type === 'free_shipping' ? 0 : shippingCents;
  const tax = taxCents(itemsCents - off);
  return {
    itemsCents,
    discountCents: off,
    taxCents: tax,
    shippingCents: shipping,
    totalCents: itemsCents - off + tax + shipping,
  };
}
