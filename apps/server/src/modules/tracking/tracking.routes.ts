import {
  messageResponseSchema,
  movementListSchema,
  shipmentTrackingSchema,
  trackingEmailSchema,
  trackingEventInputSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTrackingProvider } from '#server/integrations/tracking/index.ts';
import { perIp } from '#server/lib/rate-limit.ts';
import { recordEvent, recordedEvents, sendTrackingEmail, trackShipment } from './tracking.service.ts';

const tags = ['orders'];
const security = [{ bearer: [] }];

/** Shipment tracking on the order page (carrier events or the admin's movements) and the tracking e-mail. */
export const trackingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  const provider = createTrackingProvider(config, {
    recordedEvents: (trackingId) => recordedEvents(db, trackingId),
    log: app.log,
  });

  app.post(
    '/api/orders/shipments/tracking',
    {
      config: perIp(config.rateLimits.tracking.ip),
      schema: {
        tags,
        summary: `Movements of a shipment, newest first (provider: ${provider.name})`,
        body: shipmentTrackingSchema,
        response: { 200: movementListSchema },
      },
    },
    async (req) => trackShipment(provider, req.body),
  );

  app.post(
    '/api/orders/:id/tracking/:trackingNumberId/events',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        security,
        summary: 'Record a movement of a tracking number (admin; what the manual provider answers)',
        params: z.object({ id: z.string().max(64), trackingNumberId: z.string().max(64) }),
        body: trackingEventInputSchema,
        response: { 201: movementListSchema },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await recordEvent(db, req.params.id, req.params.trackingNumberId, req.body)),
  );

  app.post(
    '/api/orders/email/send',
    {
      onRequest: app.requireAdmin,
      config: perIp(config.rateLimits.trackingEmail.ip),
      schema: {
        tags,
        security,
        summary: "Mail the tracking numbers and their items to the order's e-mail (admin)",
        body: trackingEmailSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => {
      const answer = await sendTrackingEmail(db, req.body, { publicUrl: config.publicUrl });
      app.mailer.kick();
      return answer;
    },
  );
};
