import {
  AUTH_MESSAGES,
  createOrderSchema,
  orderListQuerySchema,
  orderListResponseSchema,
  orderSchema,
  orderSummarySchema,
} from '@store/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnauthorizedError } from '#server/lib/errors.ts';
import { perIp } from '#server/lib/rate-limit.ts';
import { getOrderFor, memoizedOrderList, myOrders } from './orders-read.service.ts';
import { placeOrder, type Buyer } from './orders.service.ts';

const tags = ['orders'];
export const orderParams = z.object({ id: z.string().max(64) });

/** The account or guest a preHandler of plugins/auth put on the request. */
function buyerOf(req: FastifyRequest): Buyer {
  const u = req.user;
  if (!u) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
  return {
    userId: u.id,
    isGuest: u.isGuest,
    isAdmin: u.isAdmin && !u.isGuest,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
  };
}

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // the admin list's totals, kept per filter set while no order changes
  const orderList = memoizedOrderList(db);

  app.post(
    '/api/orders',
    {
      onRequest: app.requireUserOrGuest,
      config: perIp(config.rateLimits.order.ip),
      schema: {
        tags,
        summary: 'Place an order (priced by the server; stock reserved atomically)',
        body: createOrderSchema,
        response: { 201: orderSchema },
      },
    },
    async (req, reply) => {
      const order = await placeOrder(db, buyerOf(req), req.body, {
        ...app.orderLoaders,
        publicUrl: config.publicUrl,
        holdMinutes: config.orderHold.minutes,
        gate: app.stockGate,
      });
      // only the answers showing these products' stock are dropped (lib/cache.ts)
      await app.catalogCache.invalidate(
        'stock-taken',
        order.orderItems.map((i) => i.product).filter((id): id is string => !!id),
      );
      app.mailer.kick();
      return reply.code(201).send(order);
    },
  );

  app.get(
    '/api/orders/myorders',
    {
      onRequest: app.requireUserOrGuest,
      schema: {
        tags,
        summary: 'Orders of the signed-in user or guest',
        response: { 200: z.array(orderSummarySchema) },
      },
    },
    async (req) => myOrders(db, buyerOf(req).userId),
  );

  app.get(
    '/api/orders',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'All orders, filtered and paged (admin)',
        querystring: orderListQuerySchema,
        response: { 200: orderListResponseSchema },
      },
    },
    async (req) => orderList(req.query),
  );

  app.get(
    '/api/orders/:id',
    {
      onRequest: app.requireUserOrGuest,
      schema: {
        tags,
        summary: 'One order (its owner or an admin)',
        params: orderParams,
        response: { 200: orderSchema },
      },
    },
    async (req) => getOrderFor(db, buyerOf(req), req.params.id, config.orderHold.minutes),
  );
};
