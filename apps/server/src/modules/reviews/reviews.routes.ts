import { objectIdSchema, reviewCreateSchema, reviewSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perIp } from '#server/lib/rate-limit.ts';
import { addReview } from './reviews.service.ts';

export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/products/:id/reviews',
    {
      // signed-in accounts only (a bearer token; guests have none): checked before the body is validated
      onRequest: app.requireUser,
      config: perIp(app.config.rateLimits.review.ip),
      schema: {
        tags: ['reviews'],
        security: [{ bearer: [] }],
        summary: 'Review a product (one per account); recomputes its rating',
        params: z.object({ id: objectIdSchema }),
        body: reviewCreateSchema,
        response: {
          201: z.object({ message: z.string(), review: reviewSchema, rating: z.number(), numReviews: z.number() }),
        },
      },
    },
    async (req, reply) => {
      const result = await addReview(app.db, req.user!, req.params.id, req.body);
      await app.catalogCache.invalidate();
      return reply.code(201).send(result);
    },
  );
};
