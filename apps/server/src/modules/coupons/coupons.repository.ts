import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { couponUses, coupons } from '#server/db/schema/index.ts';

type Conn = Db | Tx;
export type CouponRow = typeof coupons.$inferSelect;

/** What applying a code to an order reads. */
export const couponsRepository = {
  /** The code with this (upper-case) code, and how often `email` (lower-case) used it; undefined when none. */
  async byCode(db: Conn, code: string, email: string | null) {
    const [row] = await db.select().from(coupons).where(eq(coupons.code, code));
    if (!row) return undefined;
    if (!email) return { coupon: row, usedByCustomer: 0 };
    const [use] = await db
      .select({ uses: couponUses.uses })
      .from(couponUses)
      .where(and(eq(couponUses.couponId, row.id), eq(couponUses.email, email)));
    return { coupon: row, usedByCustomer: use?.uses ?? 0 };
  },
};
