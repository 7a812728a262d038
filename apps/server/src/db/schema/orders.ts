import type { ShippingAddress } from '@store/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
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

export const orders = pgTable(
  'orders',
  {
    id: id(),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.createdAt.desc()),
    index('orders_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('orders_total_idx').on(t.totalCents),
    index('orders_email_idx').on(sql`lower(${t.email})`),
    index('orders_username_idx').on(sql`lower(${t.username})`),
    // the admin list's username filter is a prefix match: LIKE 'x%' needs pattern ops outside the C collation
    index('orders_username_prefix_idx').on(sql`lower(${t.username}) text_pattern_ops`),
    index('orders_state_idx').on(t.isPaid, t.isShipped, t.isDelivered, t.createdAt.desc()),
    check(
      'orders_amounts_nonneg',
      sql`${t.itemsCents} >= 0 and ${t.taxCents} >= 0 and ${t.shippingCents} >= 0 and ${t.discountCents} >= 0`,
    ),
    index('orders_coupon_idx').on(t.couponId),
    // the sales overview: orders paid in a range of days, their totals and ids read from the index alone
    index('orders_paid_idx')
      .on(t.paidAt, t.totalCents, t.id)
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
  },
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    index('order_items_product_idx').on(t.productId),
    check('order_items_qty_pos', sql`${t.qty} > 0`),
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
    raw: jsonb('raw'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_provider_id_uq').on(t.provider, t.providerPaymentId),
    index('payments_order_idx').on(t.orderId),
  ],
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
