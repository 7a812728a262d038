import { toCents } from '@store/shared';

/** 'Refunded' when the whole total went back, 'Partially refunded' when some of it did, else null. */
export function refundStateOf(o: {
  refundedPrice: number;
  totalPrice: number;
}): 'Refunded' | 'Partially refunded' | null {
  if (toCents(o.refundedPrice) <= 0) return null;
  return toCents(o.refundedPrice) >= toCents(o.totalPrice) ? 'Refunded' : 'Partially refunded';
}
