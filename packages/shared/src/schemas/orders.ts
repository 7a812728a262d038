/**
 * Orders on the wire: request bodies with their exact messages, and the
 * answers. Prices a client sends (itemsPrice, taxPrice, shippingPrice, totalPrice, item prices) are not part of
 * these schemas and are dropped: the server prices every order from its catalogue.
 */
import { z } from 'zod';
import { amountFilter } from './common.ts';
import { boundedDate, dateParamMessages } from './dates.ts';
import { shippingAddressOutSchema } from './users-api.ts';

/** Free text the service cleans and checks itself; the cap only bounds the work. */
const text = z.string().max(1000).optional();

export const ORDER_MESSAGES = {
  empty: 'No order items',
  qtyWhole: 'Quantity must be a whole number',
  qtyMin: 'Quantity must be at least 1',
  qtyMax: 'Quantity is too large',
  productRequired: 'Each order item needs a product',
  addressRequired: 'Shipping address is required',
  guestEmail: 'Please enter your email to check out as a guest',
  paymentMethod: 'Payment method must be PayPal',
  unknownRate: 'Unknown shipping rate',
  accessMissing: 'Please enter email and postal code',
  accessFailed: 'Verification failed',
  alreadyPaid: 'Order already paid',
  paymentUsed: 'Payment already used',
  cancelled: 'Order is cancelled',
  cancelledRefund: 'Order is cancelled. Your payment is recorded and will be refunded.',
  cancelShipped: 'A shipped order cannot be cancelled',
  cancelPaid: 'This order is paid: please contact support to cancel it',
  alreadyCancelled: 'Order is already cancelled',
  notPaid: 'Only a paid order can be refunded',
  refundTooMuch: (left: string) => `The refund is more than what is left to refund (${left})`,
  refundAmount: 'Refund amount must be more than 0',
  refundRestock: 'Items to put back must be items of this order, at most the quantity bought',
  refundFailed: 'PayPal refused the refund; nothing was recorded',
  refundUnconfirmed: 'PayPal did not confirm the refund in time; it will be checked again shortly',
  paypalOrderUnknown: 'This PayPal payment was not started for this order',
  paypalUnavailable: 'PayPal is not answering right now. Nothing was charged twice; please try again in a moment.',
  paypalNotConfigured: 'PayPal is not configured',
} as const;

/**
 * A time left to pay, as the order page and the confirmation e-mail say it: whole minutes below two hours
 * ('1 minute', '42 minutes'), then whole hours below two days ('5 hours'), then days; rounded down.
 */
export function payWithinText(minutes: number): string {
  const m = Math.max(0, Math.floor(minutes));
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (m < 120) return count(m, 'minute');
  if (m < 2 * 1440) return count(Math.floor(m / 60), 'hour');
  return count(Math.floor(m / 1440), 'day');
}

/** A variant as the cart holds it (the object), or its id, or null for none. */
const variantRef = z.union([z.object({ _id: z.string().max(64) }), z.string().max(64), z.null()]).optional();

/** The most units of one line an order takes (the quantity pickers stop there too). */
export const ORDER_QTY_MAX = 10_000;

export const orderItemInputSchema = z.object({
  product: z.string({ error: ORDER_MESSAGES.productRequired }).min(1, ORDER_MESSAGES.productRequired).max(64),
  qty: z
    .number({ error: ORDER_MESSAGES.qtyWhole })
    .int(ORDER_MESSAGES.qtyWhole)
    .min(1, ORDER_MESSAGES.qtyMin)
    .max(ORDER_QTY_MAX, ORDER_MESSAGES.qtyMax),
  selectedColorsVariants: variantRef,
});
export type OrderItemInput = z.infer<typeof orderItemInputSchema>;

export const shippingAddressInputSchema = z.object({
  shipToFirstName: text,
  shipToLastName: text,
  address1: text,
  address2: text,
  city: text,
  state: text,
  postalCode: text,
  country: text,
  email: text,
});

export const createOrderSchema = z.object({
  shipToFirstName: text,
  shipToLastName: text,
  firstName: text,
  lastName: text,
  email: text,
  orderItems: z
    .array(orderItemInputSchema, { error: ORDER_MESSAGES.empty })
    .min(1, ORDER_MESSAGES.empty)
    .max(100, 'Too many order items'),
  shippingAddress: shippingAddressInputSchema.optional(),
  paymentMethod: z.string().max(32).optional(),
  shippingRateId: z.string().max(64).optional(),
  /** A discount code; blank or null for none. */
  couponCode: z.string().max(64).nullable().optional(),
});
export type CreateOrderInput = z.infer<typeof createOrderSchema>;

export const payOrderSchema = z.object({
  orderId: z.string().max(64).optional(),
  paymentResult: z
    .object({
      id: z.string().max(128).optional(),
      status: z.string().max(64).optional(),
      update_time: z.string().max(64).optional(),
      email: z.string().max(254).optional(),
      email_address: z.string().max(254).optional(),
    })
    .optional(),
});
export type PayOrderInput = z.infer<typeof payOrderSchema>;
/** What a client reports of a payment (PayPal's capture, or the test-mode stand-in) when it pays an order. */
export type PaymentResult = NonNullable<PayOrderInput['paymentResult']>;

export const guestAccessSchema = z.object({ email: text, postalCode: text });
export const guestAccessResponseSchema = z.object({ accessToken: z.string(), expiresAt: z.string() });

/**
 * A tracking number as it is stored and looked up: carriers print numbers in groups ('1Z 999 AA1 01'), so
 * spaces are dropped and letters upper-cased; what remains is letters, digits and hyphens.
 */
export const normalizeTrackingNumber = (raw: string): string => raw.replace(/\s+/g, '').toUpperCase();
export const TRACKING_NUMBER_PATTERN = /^[A-Z0-9-]+$/;

export const TRACKING_NUMBER_MESSAGES = {
  required: 'Tracking number is required',
  tooLong: 'Tracking number is too long',
  characters: 'Tracking number may contain only letters, digits and hyphens',
} as const;

/** A tracking number an admin enters, normalised (normalizeTrackingNumber); at most 64 characters after that. */
export const trackingNumberSchema = z
  .string({ error: TRACKING_NUMBER_MESSAGES.required })
  .max(200, TRACKING_NUMBER_MESSAGES.tooLong)
  .overwrite(normalizeTrackingNumber)
  .min(1, TRACKING_NUMBER_MESSAGES.required)
  .max(64, TRACKING_NUMBER_MESSAGES.tooLong)
  .regex(TRACKING_NUMBER_PATTERN, TRACKING_NUMBER_MESSAGES.characters);

export const trackingNumberInputSchema = z.object({
  number: trackingNumberSchema,
  trackingItem: z.array(z.string().max(200)).max(100).default([]),
});
export const shipOrderSchema = z.object({ trackingNumbers: z.array(trackingNumberInputSchema).max(20).default([]) });
export type ShipOrderInput = z.infer<typeof shipOrderSchema>;

const yesNo = z
  .enum(['yes', 'no', 'true', 'false', ''])
  .transform((v) => (v === '' ? undefined : v === 'yes' || v === 'true'))
  .optional();

/** A date filter: a whole day (YYYY-MM-DD) or an ISO date-time, from year 1 to 9999; blank for none. */
const dateFilter = (name: string) => boundedDate(dateParamMessages(name)).optional();

/** Admin order list filters. */
export const ORDER_SORTS = ['date', 'total', 'status'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

export const orderListQuerySchema = z.object({
  id: z.string().max(24).optional(),
  username: z.string().max(64).optional(),
  dateFrom: dateFilter('dateFrom'),
  dateTo: dateFilter('dateTo'),
  minTotal: amountFilter('minTotal'),
  maxTotal: amountFilter('maxTotal'),
  paid: yesNo,
  shipped: yesNo,
  delivered: yesNo,
  cancelled: yesNo,
  /** Orders with at least one refund (partial or full). */
  refunded: yesNo,
  /** Orders holding a payment that arrived after they were cancelled and still has to be refunded. */
  refundDue: yesNo,
  /** date (default), total, or status (unpaid, paid, shipped, delivered, cancelled; newest first within one). */
  sortBy: z.enum(ORDER_SORTS).optional().default('date'),
  order: z.enum(['asc', 'desc']).optional().default('desc'),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional().default(20),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

/** At most this many orders are exported or marked delivered by one selection. */
export const ORDER_SELECTION_MAX = 100;

/** Comma-separated order ids (the admin list's selection). */
const orderIdsParam = z
  .string()
  .max(ORDER_SELECTION_MAX * 25)
  .transform((v) => [...new Set(v.split(',').flatMap((s) => (s.trim() ? [s.trim()] : [])))])
  .pipe(z.array(z.string().regex(/^[0-9a-f]{24}$/i, 'Invalid order id')).max(ORDER_SELECTION_MAX));

/** GET /api/orders/export: the list's filters (no paging), optionally only the selected orders (`ids`). */
export const orderExportQuerySchema = orderListQuerySchema
  .omit({ pageNumber: true, pageSize: true, sortBy: true, order: true })
  .extend({ ids: orderIdsParam.optional() });
export type OrderExportQuery = z.infer<typeof orderExportQuerySchema>;

/** POST /api/orders/bulk/deliver: every listed order (each shipped, not delivered) is marked delivered, or none. */
export const bulkDeliverSchema = z.object({
  ids: z
    .array(z.string().regex(/^[0-9a-f]{24}$/i, 'Invalid order id'))
    .min(1, 'Select at least one order')
    .max(ORDER_SELECTION_MAX),
});
export type BulkDeliverInput = z.infer<typeof bulkDeliverSchema>;
export const bulkDeliverResponseSchema = z.object({ delivered: z.number() });

const orderVariantSchema = z.object({
  _id: z.string(),
  name: z.string(),
  src: z.string(),
  price: z.number().nullable(),
});

export const orderItemSchema = z.object({
  _id: z.string(),
  product: z.string().nullable(),
  name: z.string(),
  image: z.string(),
  price: z.number(),
  qty: z.number(),
  selectedColorsVariants: orderVariantSchema.nullable(),
});

export const orderBuyerSchema = z.object({
  _id: z.string().nullable(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  isGuest: z.boolean(),
});

const dates = {
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
};

export const orderSummarySchema = z.object({
  _id: z.string(),
  /** The short sequential number people quote ("Order #1001"); `_id` stays the address. */
  orderNumber: z.number(),
  user: orderBuyerSchema,
  totalPrice: z.number(),
  isPaid: z.boolean(),
  isShipped: z.boolean(),
  isDelivered: z.boolean(),
  isCancelled: z.boolean(),
  /** The discount code the order carries (upper-case), or null. */
  couponCode: z.string().nullable(),
  /** What has been refunded so far (0 for none; equal to totalPrice when refunded in full). */
  refundedPrice: z.number(),
  cancelledAt: z.string().nullable(),
  ...dates,
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

const refundSchema = z.object({
  _id: z.string(),
  amount: z.number(),
  reason: z.string(),
  createdAt: z.string(),
  /** COMPLETED, or PENDING while PayPal has not confirmed it. */
  status: z.string(),
});

/** placed, paid, shipped, delivered, cancelled, refunded, email, … */
const orderEventSchema = z.object({ event: z.string(), at: z.string(), by: z.string(), note: z.string() });

export const orderSchema = orderSummarySchema.extend({
  orderItems: z.array(orderItemSchema),
  shippingAddress: shippingAddressOutSchema,
  shippingRateId: z.string(),
  paymentMethod: z.string(),
  itemsPrice: z.number(),
  /** Taken off the items by the code (0 for none, and for free shipping). */
  discountPrice: z.number(),
  taxPrice: z.number(),
  shippingPrice: z.number(),
  paymentResult: z
    .object({ id: z.string(), status: z.string(), update_time: z.string(), email_address: z.string() })
    .nullable(),
  /** Paid in test mode (no PayPal configured): the web app labels it clearly. */
  isTestPayment: z.boolean(),
  /**
   * When an unpaid order is cancelled and its items go back on sale (placed + ORDER_HOLD_MINUTES); null when
   * it is paid or cancelled, or when unpaid orders are kept for ever (a hold of 0).
   */
  payBy: z.string().nullable(),
  trackingNumbers: z.array(
    z.object({
      _id: z.string(),
      number: z.string(),
      trackingItem: z.array(z.string()),
      /** Movements admins recorded for this number (manual tracking), newest first. */
      events: z.array(z.object({ time: z.string(), status: z.string(), location: z.string() })).optional(),
    }),
  ),
  refunds: z.array(refundSchema),
  /** Admins only: every change of the order, oldest first. */
  history: z.array(orderEventSchema).optional(),
  updatedAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;
export type OrderRefund = z.infer<typeof refundSchema>;
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** POST /api/orders/{id}/paypal/capture: the PayPal order the buttons' onApprove got. */
export const paypalCaptureSchema = z.object({ paypalOrderId: z.string().trim().min(1).max(64) });
export const paypalCreatedSchema = z.object({ id: z.string() });

/** Refund amounts and restocked quantities are checked against the order by the server. */
export const refundInputSchema = z.object({
  amount: z.number({ message: ORDER_MESSAGES.refundAmount }).positive(ORDER_MESSAGES.refundAmount).max(10_000_000),
  reason: z.string().trim().max(500).optional().default(''),
  restock: z
    .array(
      z.object({
        product: z.string().max(64),
        variant: z.string().max(64).nullish(),
        qty: z.number().int().min(1).max(ORDER_QTY_MAX),
      }),
    )
    .max(100)
    .optional()
    .default([]),
});
export type RefundInput = z.input<typeof refundInputSchema>;

export const orderListResponseSchema = z.object({
  orders: z.array(orderSummarySchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type OrderListResponse = z.infer<typeof orderListResponseSchema>;
