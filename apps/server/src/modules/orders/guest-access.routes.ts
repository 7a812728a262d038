import { guestAccessResponseSchema, guestAccessSchema, orderSchema } from '@store/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perAccount, perIp } from '#server/lib/rate-limit.ts';
import { grantGuestAccess, orderByAccessToken } from './guest-access.service.ts';
import { orderParams } from './orders.routes.ts';

const tags = ['orders'];
const orderIdOf = (req: FastifyRequest) => (req.params as { id?: string } | undefined)?.id;

export const guestAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const limits = app.config.rateLimits.guestAccess;

  app.post(
    '/api/orders/:id/guest-access',
    {
      config: perIp(limits.ip),
      preHandler: perAccount(app, 'guest-access-order', limits.order, orderIdOf),
      schema: {
        tags,
        summary: 'Prove e-mail and postal code of an order; answers a short-lived access token for it',
        params: orderParams,
        body: guestAccessSchema,
        response: { 200: guestAccessResponseSchema },
      },
    },
    async (req) => grantGuestAccess(db, req.params.id, req.body),
  );

  app.get(
    '/api/orders/:id/guest',
    {
      schema: {
        tags,
        summary: 'An order, for the holder of its guest access token',
        params: orderParams,
        querystring: z.object({ accessToken: z.string().max(200).optional() }),
        response: { 200: orderSchema },
      },
    },
    async (req) => orderByAccessToken(db, req.params.id, req.query.accessToken, app.config.orderHold.minutes),
  );
};
