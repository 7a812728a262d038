import type { ShippingAddress } from '@store/shared';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from './columns.ts';
import { productVariants, products } from './catalog.ts';
import { users } from './users.ts';

export interface PaymentResultJson {
  id: string;
  status: string;
  update_time: string;
  email_address: string;
}

/** Discount codes. `value` is in hundredths: of a percent for `percent`, of a dollar (cents) for `fixed`. */
export const coupons = pgTable(
  'coupons',
  {
    id: id(),
    // stored upper-case, so unique whatever the case a shopper or admin types
    code: varchar('code', { length: 32 }).notNull(),
    type: varchar('type', { length: 16 }).$type<'percent' | 'fixed' | 'free_shipping'>().notNull(),
    value: integer('value').notNull().default(0),
    minItemsCents: integer('min_items_cents').notNull().default(0),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    isActive: boolean('is_active').notNull().default(true),
    timesUsed: integer('times_used').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('coupons_code_uq').on(t.code),
    index('coupons_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('coupons_type_known', sql`${t.type} in ('percent', 'fixed', 'free_shipping')`),
    // placing an order counts its use unconditionally: this check refuses the statement that would over-redeem
    check(
      'coupons_usage_within_limit',
      sql`${t.timesUsed} >= 0 and (${t.usageLimit} is null or ${t.timesUsed} <= ${t.usageLimit})`,
    ),
  ],
);

/**
 * Uses of a code per customer (the order's e-mail address, lower-case). `max_uses` is the code's
 * per-customer limit copied in by the same statement that counts the use, so the check refuses an
 * order over it however many race.
 */
export const couponUses = pgTable(
  'coupon_uses',
  {
    couponId: ref('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 254 }).notNull(),
    uses: integer('uses').notNull().default(0),
    maxUses: integer('max_uses'),
  },
  (t) => [
    primaryKey({ columns: [t.couponId, t.email] }),
    check('coupon_uses_within_limit', sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
  ],
);

/** Orders' short numbers people quote ("Order #1001"): sequential, never reused. */
export const orderNumberSeq = pgSequence('orders_number_seq', { startWith: 1001 });

/**
 * An order's place in the admin list's status sort: unpaid 0, paid 1, shipped 2, delivered 3, cancelled 4.
 * The list sorts by this very expression, so its index answers the sort.
 */
export const orderStatusRank = (t: {
  isPaid: AnyPgColumn;
  isShipped: AnyPgColumn;
  isDelivered: AnyPgColumn;
  isCancelled: AnyPgColumn;
}) =>
  sql`(case when ${t.isCancelled} then 4 when ${t.isDelivered} then 3 when ${t.isShipped} then 2 when ${t.isPaid} then 1 else 0 end)`;

/**
 * The columns the admin order list filters on besides the date and the total (the username as stored: its
 * lower case is computed from it), put after the sort's columns in its indexes.
 */
const listFilterColumns = (t: {
  isPaid: AnyPgColumn;
  isShipped: AnyPgColumn;
  isDelivered: AnyPgColumn;
  isCancelled: AnyPgColumn;
  refundedCents: AnyPgColumn;
  username: AnyPgColumn;
}) => [t.isPaid, t.isShipped, t.isDelivered, t.isCancelled, t.refundedCents, t.username];

export const orders = pgTable(
  'orders',
  {
    id: id(),
    orderNumber: integer('order_number')
      .notNull()
      .default(sql`nextval('orders_number_seq')`),
    // set null when the account is deleted: the order keeps the buyer's snapshot below
    userId: ref('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: varchar('username', { length: 30 }).notNull().default(''),
    firstName: varchar('first_name', { length: 64 }).notNull().default(''),
    lastName: varchar('last_name', { length: 64 }).notNull().default(''),
    email: varchar('email', { length: 254 }).notNull(),
    isGuest: boolean('is_guest').notNull().default(false),
    shippingAddress: jsonb('shipping_address').$type<ShippingAddress>().notNull(),
    shippingRateId: varchar('shipping_rate_id', { length: 64 }).notNull().default('free'),
    paymentMethod: varchar('payment_method', { length: 32 }).notNull().default('PayPal'),
    itemsCents: integer('items_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    // the code as typed at the time (the code may be edited or deleted later) and what it took off the items
    couponId: ref('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    couponCode: varchar('coupon_code', { length: 32 }),
    discountCents: integer('discount_cents').notNull().default(0),
    isPaid: boolean('is_paid').notNull().default(false),
    paidAt: ts('paid_at'),
    paymentResult: jsonb('payment_result').$type<PaymentResultJson>(),
    isShipped: boolean('is_shipped').notNull().default(false),
    shippedAt: ts('shipped_at'),
    isDelivered: boolean('is_delivered').notNull().default(false),
    deliveredAt: ts('delivered_at'),
    isCancelled: boolean('is_cancelled').notNull().default(false),
    cancelledAt: ts('cancelled_at'),
    // what the refunds of this order add up to (pending ones included): the check below refuses any refund
    // that would take it over the total, however many race
    refundedCents: integer('refunded_cents').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_number_uq').on(t.orderNumber),
    check('orders_refunds_within_total', sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.totalCents}`),
    // the admin list's cancelled / refunded filters
    index('orders_cancelled_idx')
      .on(t.cancelledAt.desc())
      .where(sql`${t.isCancelled}`),
    index('orders_refunded_idx')
      .on(t.createdAt.desc())
      .where(sql`${t.refundedCents} > 0`),
    index('orders_user_idx').on(t.userId, t.createdAt.desc()),
    // The admin list's three sorts each walk one of these indexes. Every column a filter of the list reads
    // follows the sort's: filters and counts are then checked on the index alone (index-only scans), never
    // on the table's rows.
    index('orders_created_idx').on(t.createdAt.desc(), t.id.desc(), t.totalCents, ...listFilterColumns(t)),
    // sorted by total (the id breaks ties so pages never overlap), and filtered by it
    index('orders_total_idx').on(t.totalCents, t.id, t.createdAt, ...listFilterColumns(t)),
    // sorted by status (newest first within one)
    index('orders_status_sort_idx').on(
      orderStatusRank(t),
      t.createdAt.desc(),
      t.id.desc(),
      t.totalCents,
      ...listFilterColumns(t),
    ),
    index('orders_email_idx').on(sql`lower(${t.email})`),
    index('orders_username_idx').on(sql`lower(${t.username})`),
    // the admin list's username filter is a prefix match: LIKE 'x%' needs pattern ops outside the C collation;
    // the other filters' columns follow, so a buyer's orders are counted and filtered on the index alone
    index('orders_username_prefix_idx').on(
      sql`lower(${t.username}) text_pattern_ops`,
      t.createdAt,
      t.id,
      t.totalCents,
      ...listFilterColumns(t),
    ),
    index('orders_state_idx').on(t.isPaid, t.isShipped, t.isDelivered, t.createdAt.desc()),
    // the unpaid orders the hold sweeper cancels, oldest first: only the live ones are in it, so the
    // sweep each minute reads a few entries instead of every order
    index('orders_unpaid_idx')
      .on(t.createdAt)
      .where(sql`not ${t.isPaid} and not ${t.isShipped} and not ${t.isDelivered} and not ${t.isCancelled}`),
    check(
      'orders_amounts_nonneg',
      sql`${t.itemsCents} >= 0 and ${t.taxCents} >= 0 and ${t.shippingCents} >= 0 and ${t.discountCents} >= 0`,
    ),
    index('orders_coupon_idx').on(t.couponId),
    // the sales overview: orders paid in a range of days, their totals, refunds and ids read from the index alone
    index('orders_paid_idx')
      .on(t.paidAt, t.totalCents, t.refundedCents, t.id)
      .where(sql`${t.isPaid}`),
    // the orders waiting to be shipped (paid, not shipped, not cancelled), oldest payment first
    index('orders_to_ship_idx')
      .on(t.paidAt)
      .where(sql`${t.isPaid} and not ${t.isShipped} and not ${t.isCancelled}`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: id(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    // snapshots: the order stays readable when the product or variant is deleted
    productId: ref('product_id').references(() => products.id, { onDelete: 'set null' }),
    variantId: ref('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    variantName: varchar('variant_name', { length: 64 }).notNull().default(''),
    name: varchar('name', { length: 200 }).notNull(),
    image: text('image').notNull().default(''),
    priceCents: integer('price_cents').notNull(),
    qty: integer('qty').notNull(),
    // the stock this line was taken from: the variant's own (true) or the product's; cancelling gives it back there
    fromVariantStock: boolean('from_variant_stock').notNull().default(false),
    // units of this line put back on sale by refunds: never more than were bought
    restockedQty: integer('restocked_qty').notNull().default(0),
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    index('order_items_product_idx').on(t.productId),
    check('order_items_qty_pos', sql`${t.qty} > 0`),
    check('order_items_restock_within_qty', sql`${t.restockedQty} >= 0 and ${t.restockedQty} <= ${t.qty}`),
  ],
);

export const trackingNumbers = pgTable(
  'tracking_numbers',
  {
    id: id(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 64 }).notNull(),
    trackingItem: jsonb('tracking_item').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    index('tracking_numbers_order_idx').on(t.orderId),
    // shipment tracking looks a number up whatever its case
    index('tracking_numbers_number_idx').on(sql`upper(${t.number})`),
  ],
);

export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: id(),
    trackingNumberId: ref('tracking_number_id')
      .notNull()
      .references(() => trackingNumbers.id, { onDelete: 'cascade' }),
    occurredAt: ts('occurred_at').notNull(),
    status: varchar('status', { length: 200 }).notNull(),
    location: varchar('location', { length: 200 }).notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('tracking_events_number_idx').on(t.trackingNumberId, t.occurredAt.desc())],
);

/** Payment records: the provider's id is unique, so one PayPal payment can never pay two orders. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: varchar('provider', { length: 16 }).notNull(),
    providerPaymentId: varchar('provider_payment_id', { length: 128 }).notNull(),
    status: varchar('status', { length: 32 }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    payerEmail: varchar('payer_email', { length: 254 }).notNull().default(''),
    // PayPal's capture id: what a refund is made against ('' for test-mode payments)
    captureId: varchar('capture_id', { length: 64 }).notNull().default(''),
    raw: jsonb('raw'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_provider_id_uq').on(t.provider, t.providerPaymentId),
    index('payments_order_idx').on(t.orderId),
    // payments for cancelled orders whose automatic refund PayPal refused: the admin's list
    index('payments_refund_due_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'REFUND_DUE'`),
  ],
);

/**
 * Every PayPal order created for a store order (a shopper may open the PayPal window more than once). Until
 * `resolvedAt` is set the reconciliation sweep asks PayPal about it, so a payment whose browser was lost is
 * still recorded; `checkedAt` leases a row to one sweeping process at a time.
 */
export const paypalCheckouts = pgTable(
  'paypal_checkouts',
  {
    paypalOrderId: varchar('paypal_order_id', { length: 64 }).primaryKey(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    checkedAt: ts('checked_at'),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    index('paypal_checkouts_order_idx').on(t.orderId),
    index('paypal_checkouts_open_idx')
      .on(t.checkedAt, t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
  ],
);

/**
 * Refunds. A row is written PENDING (and the order's refunded_cents raised) before PayPal is asked, under
 * its own id, which is PayPal's idempotency key: a retry never refunds twice, and an answer lost on the way
 * back is asked for again by the sweep. A refusal deletes the row and lowers the order's sum again.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: id(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: varchar('reason', { length: 500 }).notNull().default(''),
    status: varchar('status', { length: 16 }).$type<'PENDING' | 'COMPLETED'>().notNull(),
    providerRefundId: varchar('provider_refund_id', { length: 64 }).notNull().default(''),
    restock: jsonb('restock').$type<{ item: string; qty: number }[]>().notNull().default([]),
    byUser: varchar('by_user', { length: 120 }).notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('order_refunds_order_idx').on(t.orderId, t.createdAt),
    index('order_refunds_pending_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'PENDING'`),
    index('order_refunds_created_idx').on(t.createdAt),
    check('order_refunds_amount_pos', sql`${t.amountCents} > 0`),
  ],
);

/** An order's history: each change, written in the transaction that makes it, with who made it. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: id(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    event: varchar('event', { length: 32 }).notNull(),
    at: ts('at').notNull().defaultNow(),
    by: varchar('by', { length: 120 }).notNull().default(''),
    note: varchar('note', { length: 500 }).notNull().default(''),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.at)],
);

/** Short-lived access grants for guests who proved e-mail + postal code of an order. */
export const orderAccessTokens = pgTable(
  'order_access_tokens',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    orderId: ref('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('order_access_tokens_order_idx').on(t.orderId)],
);

export const settings = pgTable('settings', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});
