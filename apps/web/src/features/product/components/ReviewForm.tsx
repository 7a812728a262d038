import { zodResolver } from '@hookform/resolvers/zod';
import { LIMITS, RATING_LABELS, REVIEW_MESSAGES, reviewCreateSchema } from '@store/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Message } from '#web/components/Message.tsx';
import { useCreateReview } from '../api.ts';

/** 'Write a Customer Review' (signed-in users): resets the form and its success flag after each success. */
export default function ReviewForm({ productId }: { productId: string }) {
  const create = useCreateReview(productId);
  const [submitted, setSubmitted] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(reviewCreateSchema),
    defaultValues: { rating: '' as unknown as number, comment: '' },
  });

  const onSubmit = handleSubmit((v) => {
    setSubmitted(false);
    create.mutate(v, {
      onSuccess: () => {
        setSubmitted(true);
        reset();
        create.reset();
      },
    });
  });

  return (
    <div className="review-form mt-4">
      <h3 className="h5">Write a Customer Review</h3>
      {submitted && <Message variant="success">{REVIEW_MESSAGES.success}</Message>}
      {create.error && <Message variant="danger">{create.error.message}</Message>}
      <form onSubmit={onSubmit} noValidate aria-label="Write a customer review" onChange={() => setSubmitted(false)}>
        <div className="mb-3">
          <label htmlFor="review-rating" className="form-label">
            Rating
          </label>
          <select
            id="review-rating"
            className={`form-select${errors.rating ? ' is-invalid' : ''}`}
            aria-invalid={errors.rating ? true : undefined}
            aria-describedby={errors.rating ? 'review-rating-error' : undefined}
            {...register('rating')}
          >
            <option value="">Select...</option>
            {RATING_LABELS.map((label, i) => (
              <option key={label} value={i + 1}>
                {i + 1} - {label}
              </option>
            ))}
          </select>
          {errors.rating && (
            <div id="review-rating-error" className="invalid-feedback d-block">
              {errors.rating.message}
            </div>
          )}
        </div>
        <div className="mb-3">
          <label htmlFor="review-comment" className="form-label">
            Comment
          </label>
          <textarea
            id="review-comment"
            className={`form-control${errors.comment ? ' is-invalid' : ''}`}
            rows={3}
            maxLength={LIMITS.reviewComment}
            {...register('comment')}
          />
          {errors.comment && <div className="invalid-feedback d-block">{errors.comment.message}</div>}
        </div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Submitting…' : 'Submit'}
        </button>
      </form>
    </div>
  );
}
