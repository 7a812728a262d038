import { TAX_RATE_PERCENT } from './constants.ts';

/** Dollars (wire) → integer cents. Rounds half away from zero on the cent. */
export function toCents(dollars: number): number {
  return Math.round(Number((dollars * 100).toFixed(4)));
}

/** Integer cents → dollars with at most two decimals (wire). */
export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

export function formatMoney(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
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
  taxCents: number;
  shippingCents: number;
  totalCents: number;
}

/** The one function that prices an order: the server's is authoritative, the web app previews. */
export function priceOrder(lines: PricedLine[], shippingCents: number): OrderPrice {
  const itemsCents = lines.reduce((sum, l) => sum + l.unitPriceCents * l.qty, 0);
  const tax = taxCents(itemsCents);
  return { itemsCents, taxCents: tax, shippingCents, totalCents: itemsCents + tax + shippingCents };
}
