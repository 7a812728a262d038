import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { coupons } from '#server/db/schema/index.ts';
import type { CouponRow } from './coupons.repository.ts';

type Conn = Db | Tx;
/** The columns an admin sets (the id, the use count and the timestamps are the database's). */
export type CouponValues = Omit<typeof coupons.$inferInsert, 'id' | 'timesUsed' | 'createdAt' | 'updatedAt'>;

/** The admin's reads and writes of discount codes. */
export const couponsAdminRepository = {
  /** Every code, newest first (the created index answers it). */
  async list(db: Conn): Promise<CouponRow[]> {
    return db.select().from(coupons).orderBy(desc(coupons.createdAt), desc(coupons.id));
  },

  async find(db: Conn, id: string): Promise<CouponRow | undefined> {
    const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
    return row;
  },

  async insert(db: Conn, values: CouponValues): Promise<CouponRow> {
    const [row] = await db.insert(coupons).values(values).returning();
    return row!;
  },

  /** The row as updated, or undefined when no code has this id (any more). */
  async update(db: Conn, id: string, values: CouponValues): Promise<CouponRow | undefined> {
    const [row] = await db
      .update(coupons)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(coupons.id, id))
      .returning();
    return row;
  },

  /** Orders that used the code keep their `coupon_code` snapshot (their coupon_id becomes null). */
  async remove(db: Conn, id: string): Promise<boolean> {
    const rows = await db.delete(coupons).where(eq(coupons.id, id)).returning({ id: coupons.id });
    return rows.length === 1;
  },
};
