import { statsQuerySchema, statsSchema } from '@store/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memoizedSalesOverview } from './admin-stats.service.ts';

const tags = ['stats (admin)'];

/** An answer kept serialised (checked against the response schema once, when computed): sent as it is. */
const sendJson = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json);
const security = [{ bearer: [] }];

/** GET /api/admin/stats: the sales overview (admin). */
export const adminStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  // figures are reused while the database's change marks say nothing they depend on has changed
  const salesOverview = memoizedSalesOverview(app.db);

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
    async (req, reply) => sendJson(reply, await salesOverview(req.query)),
  );
};
