/**
 * The admin's sales overview: GET /api/admin/stats. Days are UTC calendar days, both ends included;
 * money is dollars on the wire.
 */
import { z } from 'zod';

export const STATS_DEFAULT_DAYS = 30;
/** The longest range the overview answers (one entry per day). */
export const STATS_MAX_DAYS = 366;
export const LOW_STOCK_DEFAULT = 5;
export const LOW_STOCK_MAX = 1_000_000;

export const STATS_MESSAGES = {
  day: (name: string) => `${name} must be a day (YYYY-MM-DD)`,
  order: 'from must be on or before to',
  tooLong: `The range can be at most ${STATS_MAX_DAYS} days`,
  lowStock: `lowStock must be a whole number from 0 to ${LOW_STOCK_MAX}`,
} as const;

const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, STATS_MESSAGES.day(name))
    // a real calendar day, from year 1 (PostgreSQL has no year 0)
    .refine(
      (v) =>
        !v.startsWith('0000') &&
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
        new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      STATS_MESSAGES.day(name),
    )
    .optional();

/** `from`/`to` default to the last 30 days ending today (UTC); `lowStock` is the low-stock threshold. */
export const statsQuerySchema = z.object({
  from: day('from'),
  to: day('to'),
  lowStock: z.coerce
    .number({ error: STATS_MESSAGES.lowStock })
    .int(STATS_MESSAGES.lowStock)
    .min(0, STATS_MESSAGES.lowStock)
    .max(LOW_STOCK_MAX, STATS_MESSAGES.lowStock)
    .optional(),
});
export type StatsQuery = z.infer<typeof statsQuerySchema>;

export const statsSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Totals of the orders paid in the range, less what was refunded of them. */
  revenue: z.number(),
  /** Orders placed in the range. */
  orders: z.number(),
  /** Orders paid in the range. */
  paidOrders: z.number(),
  /** revenue / paidOrders, 0 when none. */
  averageOrderValue: z.number(),
  refunded: z.number(),
  /** One entry per day of the range, zeros included: orders placed and revenue paid that day. */
  byDay: z.array(z.object({ date: z.string(), orders: z.number(), revenue: z.number() })),
  /** Best sellers of the orders paid in the range, by revenue. */
  topProducts: z.array(
    z.object({ _id: z.string().nullable(), name: z.string(), qty: z.number(), revenue: z.number() }),
  ),
  /** Products and variants whose stock is at most the threshold, lowest first (`variant` '' for the product's own). */
  lowStock: z.array(z.object({ _id: z.string(), name: z.string(), variant: z.string(), countInStock: z.number() })),
  /** Paid, unshipped, uncancelled orders, whatever their date. */
  toShip: z.number(),
  /** The low-stock threshold used. */
  lowStockThreshold: z.number(),
});
export type Stats = z.infer<typeof statsSchema>;
