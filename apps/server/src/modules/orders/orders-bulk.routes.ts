import { bulkDeliverResponseSchema, bulkDeliverSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from './actors.ts';
import { bulkDeliver } from './orders-bulk.service.ts';

/** The admin order list's bulk actions (the CSV export of a selection is GET /api/orders/export?ids=…). */
export const ordersBulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.post(
    '/api/orders/bulk/deliver',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['orders'],
        security: [{ bearer: [] }],
        summary: 'Mark the selected orders delivered: all of them (each shipped, not delivered) or none (admin)',
        body: bulkDeliverSchema,
        response: { 200: bulkDeliverResponseSchema },
      },
    },
    async (req) => bulkDeliver(db, req.body, actorOf(req.user)),
  );
};
