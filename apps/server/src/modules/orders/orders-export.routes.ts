import { orderExportQuerySchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CSV_CONTENT_TYPE, csvAttachment } from '#server/lib/csv.ts';
import { exportOrders } from './orders-export.service.ts';

/** GET /api/orders/export (admin): the orders the admin list's filters select, as CSV. */
export const ordersExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/api/orders/export',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['orders'],
        security: [{ bearer: [] }],
        summary:
          'The orders the admin list’s filters (and `ids`, comma-separated, when given) select, newest first, as CSV (admin)',
        querystring: orderExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      // the filters are read (a bad date is a 400) before the first byte goes out
      const csv = exportOrders(db, req.query);
      return reply
        .header('content-disposition', csvAttachment('orders'))
        .header('cache-control', 'private, no-store')
        .type(CSV_CONTENT_TYPE)
        .send(csv);
    },
  );
};
