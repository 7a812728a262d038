import { AUTH_MESSAGES, orderSchema, payOrderSchema, paypalConfigSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPaymentVerifier } from '#server/integrations/paypal/index.ts';
import { UnauthorizedError } from '#server/lib/errors.ts';
import { hasGuestAccess } from './guest-access.service.ts';
import { orderParams } from './orders.routes.ts';
import { payOrder } from './payments.service.ts';

const tags = ['orders'];

export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const verifier = createPaymentVerifier(app.config, app.log);
  if (verifier.mode === 'test') app.log.warn('PayPal is not configured: orders are paid in test mode (no money moves)');

  app.get(
    '/api/config/paypal',
    {
      schema: {
        tags,
        summary: 'PayPal client id for the browser SDK; testMode when payments are simulated',
        response: { 200: paypalConfigSchema },
      },
    },
    async () => ({ clientId: verifier.clientId, testMode: verifier.mode === 'test' }),
  );

  app.put(
    '/api/orders/:id/pay',
    {
      preHandler: app.optionalUser,
      schema: {
        tags,
        summary: 'Pay an order: verified with PayPal (or test mode without PayPal, outside production)',
        params: orderParams,
        // a guest who verified e-mail and postal code in another browser pays with its access token
        querystring: z.object({ accessToken: z.string().max(200).optional() }),
        body: payOrderSchema.nullish(),
        response: { 200: orderSchema },
      },
    },
    async (req) => {
      const hasAccessToken = await hasGuestAccess(db, req.params.id, req.query.accessToken);
      if (!req.user && !hasAccessToken) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
      return payOrder(db, verifier, { userId: req.user?.id, hasAccessToken }, req.params.id, req.body ?? {}, req.log);
    },
  );
};
