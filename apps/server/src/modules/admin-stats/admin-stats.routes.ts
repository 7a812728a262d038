import { statsQuerySchema, statsSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { salesOverview } from './admin-stats.service.ts';

const tags = ['stats (admin)'];
const security = [{ bearer: [] }];

/** GET /api/admin/stats: the sales overview (admin). */
export const adminStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.get(
    '/api/admin/stats',
    {
      // on arrival: who may ask is settled before the query is validated
      onRequest: app.requireAdmin,
      schema: {
        tags,
        security,
        summary:
          'Sales overview of a range of UTC days (default the last 30): revenue, orders, best sellers, low stock, orders to ship',
        querystring: statsQuerySchema,
        response: { 200: statsSchema },
      },
    },
    async (req) => salesOverview(db, req.query),
  );
};
