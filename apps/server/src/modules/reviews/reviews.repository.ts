import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client.ts';
import { orderItems, orders, products, reviews } from '#server/db/schema/index.ts';

export const reviewsRepository = {
  /**
   * Locks the product row: concurrent reviews of one product then recompute its rating one after another.
   * A draft is not in the shop, so it cannot be reviewed (false, as for a product that does not exist).
   */
  async lockProduct(tx: Tx, productId: string): Promise<boolean> {
    const rows = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, productId), eq(products.status, 'active')))
      .for('update');
    return rows.length > 0;
  },

  /** True when the user has a paid order containing the product. */
  async hasPaidPurchase(tx: Tx, userId: string, productId: string): Promise<boolean> {
    const rows = await tx
      .select({ one: sql<number>`1` })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orders.userId, userId), eq(orders.isPaid, true), eq(orderItems.productId, productId)))
      .limit(1);
    return rows.length > 0;
  },

  /** Inserts the review, or returns undefined when this user already reviewed the product. */
  async insert(tx: Tx, row: typeof reviews.$inferInsert) {
    const [inserted] = await tx
      .insert(reviews)
      .values(row)
      .onConflictDoNothing({ target: [reviews.productId, reviews.userId] })
      .returning();
    return inserted;
  },

  /** rating (average, 2 decimals) and numReviews from the reviews table, in one statement. */
  async recompute(tx: Tx, productId: string) {
    const [row] = await tx
      .update(products)
      .set({
        numReviews: sql`(select count(*)::int from ${reviews} where ${reviews.productId} = ${productId})`,
        rating: sql`coalesce((select round(avg(${reviews.rating})::numeric, 2) from ${reviews} where ${reviews.productId} = ${productId}), 0)`,
      })
      .where(eq(products.id, productId))
      .returning({ rating: products.rating, numReviews: products.numReviews });
    return row!;
  },
};
