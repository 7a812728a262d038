import { orderSchema, shipOrderSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from './actors.ts';
import { deliverOrder, shipOrder } from './fulfilment.service.ts';
import { orderParams } from './orders.routes.ts';

const tags = ['orders'];

/** Admin order states: paid → shipped (with tracking numbers) → delivered. */
export const fulfilmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.put(
    '/api/orders/:id/ship',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'Mark shipped with tracking numbers (admin)',
        params: orderParams,
        body: shipOrderSchema.nullish(),
        response: { 200: orderSchema },
      },
    },
    async (req) => {
      const order = await shipOrder(db, req.params.id, req.body ?? { trackingNumbers: [] }, {
        publicUrl: config.publicUrl,
        by: actorOf(req.user),
      });
      app.mailer.kick();
      return order;
    },
  );

  app.put(
    '/api/orders/:id/deliver',
    {
      onRequest: app.requireAdmin,
      schema: { tags, summary: 'Mark delivered (admin)', params: orderParams, response: { 200: orderSchema } },
    },
    async (req) => deliverOrder(db, req.params.id, actorOf(req.user)),
  );
};
