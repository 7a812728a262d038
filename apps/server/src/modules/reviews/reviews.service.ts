import { REVIEW_MESSAGES, type reviewCreateSchema } from '@store/shared';
import type { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import type { UserRow } from '../users/users.repository.ts';
import { reviewsRepository as repo } from './reviews.repository.ts';

export function reviewerName(user: Pick<UserRow, 'firstName' | 'lastName' | 'username'>): string {
  return `${user.firstName} ${user.lastName}`.replace(/\s+/g, ' ').trim() || user.username;
}

/**
 * One review per user and product. The product row is locked first, so the rating recomputed at the end
 * (a statement of its own, with a fresh snapshot) counts every review committed before it.
 */
export async function addReview(db: Db, user: UserRow, productId: string, input: z.output<typeof reviewCreateSchema>) {
  return db.transaction(async (tx) => {
    if (!(await repo.lockProduct(tx, productId))) throw new NotFoundError('Product not found');
    const verifiedPurchase = await repo.hasPaidPurchase(tx, user.id, productId);
    const review = await repo.insert(tx, {
      productId,
      userId: user.id,
      name: reviewerName(user).slice(0, 100),
      rating: input.rating,
      comment: input.comment,
      verifiedPurchase,
    });
    if (!review) throw new BadRequestError(REVIEW_MESSAGES.duplicate);
    const totals = await repo.recompute(tx, productId);
    return {
      message: 'Review added',
      review: {
        _id: review.id,
        name: review.name,
        rating: review.rating,
        comment: review.comment,
        createdAt: review.createdAt.toISOString(),
        verifiedPurchase: review.verifiedPurchase,
      },
      rating: Number(totals.rating),
      numReviews: totals.numReviews,
    };
  });
}
