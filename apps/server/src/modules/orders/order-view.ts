import { fromCents, type Order, type OrderSummary } from '@store/shared';
import { TEST_PAYMENT_PREFIX } from '#server/integrations/paypal/index.ts';
import type {
  OrderEventRow,
  OrderItemRow,
  OrderRow,
  RefundRow,
  TrackingEventRow,
  TrackingRow,
} from './orders-read.repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The list shape: what the profile's My Orders and the admin order table show. */
export function toOrderSummary(o: OrderRow): OrderSummary {
  return {
    _id: o.id,
    orderNumber: o.orderNumber,
    user: {
      _id: o.userId,
      username: o.username,
      firstName: o.firstName,
      lastName: o.lastName,
      email: o.email,
      isGuest: o.isGuest,
    },
    totalPrice: fromCents(o.totalCents),
    isPaid: o.isPaid,
    isShipped: o.isShipped,
    isDelivered: o.isDelivered,
    isCancelled: o.isCancelled,
    couponCode: o.couponCode,
    refundedPrice: fromCents(o.refundedCents),
    cancelledAt: iso(o.cancelledAt),
    createdAt: o.createdAt.toISOString(),
    paidAt: iso(o.paidAt),
    shippedAt: iso(o.shippedAt),
    deliveredAt: iso(o.deliveredAt),
  };
}

/**
 * When an unpaid order's hold ends (the sweeper then cancels it): placed + the hold. Null for a paid or
 * cancelled order, and when the hold is 0 (unpaid orders are kept).
 */
export function payByOf(o: Pick<OrderRow, 'createdAt' | 'isPaid' | 'isCancelled'>, holdMinutes: number): string | null {
  if (o.isPaid || o.isCancelled || holdMinutes <= 0) return null;
  return new Date(o.createdAt.getTime() + holdMinutes * 60_000).toISOString();
}

/**
 * The whole order in dollars, from its row and the snapshots taken when it was placed. `holdMinutes`
 * (ORDER_HOLD_MINUTES) dates `payBy`; an answer that only ever shows a paid order may leave it out.
 */
export function toOrder(
  o: OrderRow,
  items: OrderItemRow[],
  tracking: TrackingRow[],
  events: TrackingEventRow[] = [],
  holdMinutes = 0,
  refunds: RefundRow[] = [],
  history?: OrderEventRow[],
): Order {
  const a = o.shippingAddress;
  const movements = (id: string) =>
    events
      .filter((e) => e.trackingNumberId === id)
      .map((e) => ({ time: e.occurredAt.toISOString(), status: e.status, location: e.location }));
  return {
    ...toOrderSummary(o),
    orderItems: items.map((i) => ({
      _id: i.id,
      product: i.productId,
      name: i.name,
      image: i.image,
      price: fromCents(i.priceCents),
      qty: i.qty,
      selectedColorsVariants: i.variantName
        ? { _id: i.variantId ?? '', name: i.variantName, src: i.image, price: fromCents(i.priceCents) }
        : null,
    })),
    shippingAddress: {
      shipToFirstName: a.shipToFirstName,
      shipToLastName: a.shipToLastName,
      address1: a.address1,
      address2: a.address2 ?? '',
      city: a.city,
      state: a.state,
      postalCode: a.postalCode,
      country: a.country,
    },
    shippingRateId: o.shippingRateId,
    paymentMethod: o.paymentMethod,
    itemsPrice: fromCents(o.itemsCents),
    discountPrice: fromCents(o.discountCents),
    taxPrice: fromCents(o.taxCents),
    shippingPrice: fromCents(o.shippingCents),
    paymentResult: o.paymentResult,
    isTestPayment: Boolean(o.paymentResult?.id.startsWith(TEST_PAYMENT_PREFIX)),
    payBy: payByOf(o, holdMinutes),
    trackingNumbers: tracking.map((t) => ({
      _id: t.id,
      number: t.number,
      trackingItem: t.trackingItem,
      events: movements(t.id),
    })),
    refunds: refunds.map((r) => ({
      _id: r.id,
      amount: fromCents(r.amountCents),
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      status: r.status,
    })),
    ...(history
      ? { history: history.map((e) => ({ event: e.event, at: e.at.toISOString(), by: e.by, note: e.note })) }
      : {}),
    updatedAt: o.updatedAt.toISOString(),
  };
}
