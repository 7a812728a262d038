import type { Review } from '@store/shared';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Rating } from '#web/components/Rating.tsx';
import { paths } from '#web/lib/paths.ts';

interface ReviewsProps {
  productId: string;
  reviews: Review[];
  slug: string;
  signedIn: boolean;
}

// the form loads on demand: visitors never download it
const ReviewForm = lazy(() => import('./ReviewForm.tsx'));

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export function Reviews({ productId, reviews, slug, signedIn }: ReviewsProps) {
  return (
    <section aria-labelledby="reviews-heading" className="mt-5">
      <h2 id="reviews-heading" className="h4 mb-3">
        Reviews {reviews.length > 0 && <span className="text-body-secondary fs-6">({reviews.length})</span>}
      </h2>
      {reviews.length === 0 ? (
        <p className="text-body-secondary">No reviews yet.</p>
      ) : (
        <ul className="list-unstyled review-list">
          {reviews.map((r) => (
            <li key={r._id} className="review">
              <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
                <strong>{r.name}</strong>
                {r.verifiedPurchase && <span className="badge text-bg-success">Verified purchase</span>}
              </div>
              <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
                <Rating value={r.rating} />
                <time dateTime={r.createdAt} className="small text-body-secondary">
                  {dateFormat.format(new Date(r.createdAt))}
                </time>
              </div>
              {r.comment && <p className="mb-0 review-comment">{r.comment}</p>}
            </li>
          ))}
        </ul>
      )}
      {/* Signed-in users get the review form; the others a way to sign in. */}
      {signedIn ? (
        <Suspense fallback={null}>
          <ReviewForm productId={productId} />
        </Suspense>
      ) : (
        <>
          <h3 className="h5 mt-4">Write a Customer Review</h3>
          <p className="review-signin">
            Please <Link to={paths.loginThen(paths.product(slug))}>sign in</Link> to write a review
          </p>
        </>
      )}
    </section>
  );
}
