import { AUTH_MESSAGES, orderSchema, paypalCaptureSchema, paypalCreatedSchema, refundInputSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UpstreamError, isRecord } from '#server/integrations/http.ts';
import { createPaymentGateway } from '#server/integrations/paypal/index.ts';
import { BadGatewayError, BadRequestError, NotFoundError, UnauthorizedError } from '#server/lib/errors.ts';
import { perIp } from '#server/lib/rate-limit.ts';
import { createSweeper } from '#server/lib/sweeper.ts';
import { actorOf } from './actors.ts';
import { hasGuestAccess } from './guest-access.service.ts';
import { orderParams } from './orders.routes.ts';
import {
  cancelOrder,
  capturePaypal,
  handleWebhookEvent,
  reconcile,
  refundOrder,
  startPaypal,
  type LifecycleContext,
} from './payment-lifecycle.service.ts';

const tags = ['orders'];
const tokenQuery = z.object({ accessToken: z.string().max(200).optional() });

/**
 * Server-created PayPal payments (create, capture), PayPal's webhook, cancelling and refunding, and the
 * sweep that records payments whose browser never came back.
 */
export const paymentLifecycleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  const gateway = createPaymentGateway(config);
  const ctx: LifecycleContext = {
    db,
    gateway,
    publicUrl: config.publicUrl,
    log: app.log,
    stockReturned: (products) => app.catalogCache.invalidate('stock-returned', products),
    mailQueued: () => app.mailer.kick(),
  };
  const limits = config.rateLimits;

  /** The order's owner, or the holder of its guest access token; anyone else is 401. */
  async function payerOf(req: {
    user: { id: string } | null;
    params: { id: string };
    query: { accessToken?: string };
  }) {
    const hasAccessToken = await hasGuestAccess(db, req.params.id, req.query.accessToken);
    if (!req.user && !hasAccessToken) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
    return { userId: req.user?.id, hasAccessToken };
  }

  app.post(
    '/api/orders/:id/paypal',
    {
      config: perIp(limits.paypal.ip),
      preHandler: app.optionalUser,
      schema: {
        tags,
        summary: 'Start paying an order with PayPal: the server creates the PayPal order for the order total',
        params: orderParams,
        querystring: tokenQuery,
        response: { 200: paypalCreatedSchema },
      },
    },
    async (req) => startPaypal(ctx, await payerOf(req), req.params.id),
  );

  app.post(
    '/api/orders/:id/paypal/capture',
    {
      config: perIp(limits.paypal.ip),
      preHandler: app.optionalUser,
      schema: {
        tags,
        summary: 'Capture the approved PayPal order and record the payment',
        params: orderParams,
        querystring: tokenQuery,
        body: paypalCaptureSchema,
        response: { 200: orderSchema },
      },
    },
    async (req) => {
      const order = await capturePaypal(ctx, await payerOf(req), req.params.id, req.body.paypalOrderId);
      app.mailer.kick();
      return order;
    },
  );

  app.post(
    '/api/paypal/webhook',
    {
      config: perIp(limits.paypalWebhook.ip),
      schema: {
        tags,
        summary: "PayPal's webhook: each event is verified with PayPal before it changes anything",
        body: z.record(z.string(), z.unknown()),
        response: { 200: z.object({ received: z.boolean(), outcome: z.string() }) },
      },
    },
    async (req) => {
      const webhookId = config.paypal.webhookId;
      if (!webhookId || gateway.mode !== 'paypal' || !gateway.verifyWebhook) throw new NotFoundError('Not found');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]),
      );
      let verified: boolean;
      try {
        verified = await gateway.verifyWebhook(headers, webhookId, req.body);
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        req.log.warn({ err: err.message }, 'PayPal webhook could not be verified now: PayPal will deliver it again');
        throw new BadGatewayError('Could not verify the event with PayPal');
      }
      if (!verified) {
        req.log.warn({ eventId: isRecord(req.body) ? req.body.id : undefined }, 'PayPal webhook failed verification');
        throw new BadRequestError('Webhook signature verification failed');
      }
      const outcome = await handleWebhookEvent(ctx, req.body);
      req.log.info({ eventType: req.body.event_type, outcome }, 'PayPal webhook');
      return { received: true, outcome };
    },
  );

  app.put(
    '/api/orders/:id/cancel',
    {
      preHandler: app.optionalUser,
      schema: {
        tags,
        summary: 'Cancel an order: its owner while unpaid; an admin while not shipped (refunding a paid one first)',
        params: orderParams,
        querystring: tokenQuery,
        response: { 200: orderSchema },
      },
    },
    async (req) => {
      const isAdmin = Boolean(req.user?.isAdmin);
      const payer = isAdmin ? { userId: req.user!.id, hasAccessToken: false } : await payerOf(req);
      return cancelOrder(ctx, { ...payer, isAdmin, by: actorOf(req.user, payer.hasAccessToken) }, req.params.id);
    },
  );

  app.post(
    '/api/orders/:id/refunds',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'Refund part or all of a paid order (admin), optionally putting items back in stock',
        params: orderParams,
        body: refundInputSchema,
        response: { 200: orderSchema },
      },
    },
    async (req) => refundOrder(ctx, { by: actorOf(req.user) }, req.params.id, req.body),
  );

  // the reconciliation sweep: every PAYPAL_RECONCILE_SECONDS, in every process (leases keep them apart)
  const everyMs = config.paypal.reconcileMs;
  const sweeper = createSweeper(
    'PayPal reconciliation',
    gateway.mode === 'paypal' ? everyMs : 0,
    async () => {
      const { recorded } = await reconcile(ctx, Math.max(everyMs - 50, 0));
      if (recorded > 0) app.log.info({ recorded }, 'reconciliation recorded PayPal payments');
    },
    app.log,
    { runAtStart: false },
  );
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', async () => sweeper.stop());
};
