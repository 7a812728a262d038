import {
  createOrderSchema,
  orderListQuerySchema,
  orderListResponseSchema,
  orderSchema,
  orderSummarySchema,
} from '@store/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { batchLoader } from '../../lib/batch-loader.ts';
import { UnauthorizedError } from '../../lib/errors.ts';
import { perIp } from '../../lib/rate-limit.ts';
import { NO_TOKEN } from '../../plugins/auth.ts';
import { currentRates, parseShippingRates } from '../shipping/shipping-rates.ts';
import { createOrderSweeper } from './order-expiry.ts';
import { listOrders, myOrders } from './orders.query.ts';
import { ordersRepository } from './orders.repository.ts';
import { getOrderFor, placeOrder, type Buyer } from './orders.service.ts';
import { StockGate } from './stock-gate.ts';

const tags = ['orders'];
export const ORDER_LIMIT = { max: 30, windowMs: 15 * 60_000 };
export const orderParams = z.object({ id: z.string().max(64) });

/** The account or guest a preHandler of plugins/auth put on the request. */
export function buyerOf(req: FastifyRequest): Buyer {
  const u = req.user;
  if (!u) throw new UnauthorizedError(NO_TOKEN);
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
  // parsed at start-up: a bad SHIPPING_RATES stops the server with a message naming it
  const envRates = parseShippingRates(config.shippingRates);

  // unpaid orders give their stock back after the hold (ORDER_HOLD_MINUTES; 0 keeps them forever)
  const sweeper = createOrderSweeper(
    db,
    {
      holdMinutes: config.orderHold.minutes,
      everyMs: config.orderHold.sweepMs,
      // only the answers showing the restocked products go; held orders are decided again (stock gate)
      onExpired: (products) => app.catalogCache.invalidate('stock-returned', products),
    },
    app.log,
  );
  app.addHook('onReady', async () => sweeper.start());

  // orders for units known to be gone are refused without writing; see stock-gate.ts. Concurrent orders
  // share their reads of products and shipping rates (each read still follows the order's arrival).
  const gate = new StockGate();
  const productById = batchLoader(
    async (ids: string[]) => new Map((await ordersRepository.productsFor(db, ids)).map((p) => [p.id, p])),
  );
  const rates = batchLoader(async (keys: 'rates'[]) => {
    const current = await currentRates(db, envRates);
    return new Map(keys.map((k) => [k, current]));
  });
  // stock goes up only through catalogue writes (admin edits, expired orders): each one resets the gate
  app.catalogCache.onDrop((reason) => {
    if (reason !== 'stock-taken') gate.drop();
  });
  app.addHook('onClose', async () => sweeper.stop());

  app.post(
    '/api/orders',
    {
      onRequest: app.requireUserOrGuest,
      // each order holds stock and queues a mail: a bound per client address (relaxed for the test suite)
      config: perIp(app.config.env === 'test' ? { ...ORDER_LIMIT, max: ORDER_LIMIT.max * 1000 } : ORDER_LIMIT),
      schema: {
        tags,
        summary: 'Place an order (priced by the server; stock reserved atomically)',
        body: createOrderSchema,
        response: { 201: orderSchema },
      },
    },
    async (req, reply) => {
      const order = await placeOrder(db, buyerOf(req), req.body, {
        rates: async () => (await rates('rates'))!,
        products: async (ids) => (await Promise.all(ids.map(productById))).filter((p) => p !== undefined),
        publicUrl: config.publicUrl,
        gate,
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
    async (req) => listOrders(db, req.query),
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
    async (req) => getOrderFor(db, buyerOf(req), req.params.id),
  );
};
