import { aliexpressAuthUrlSchema, aliexpressStatusSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perIp } from '#server/lib/rate-limit.ts';
import { connectionStatus, finishOAuth, requireConfigured, startOAuth } from './aliexpress.service.ts';

const tags = ['aliexpress (admin)'];
const security = [{ bearer: [] }];

/** 'Connect AliExpress' on the admin's product list: OAuth with a single-use state, tokens sealed at rest. */
export const aliexpressRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.get(
    '/api/aliexpress/oauth/url',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        security,
        summary: "AliExpress's authorise address for this app, with a fresh single-use state",
        response: { 200: aliexpressAuthUrlSchema },
      },
    },
    async (req) => startOAuth(db, config, req.user!.id),
  );

  // AliExpress sends the admin's browser here (no bearer token): the single-use state is the proof
  app.get(
    '/api/aliexpress/oauth/callback',
    {
      config: perIp(config.rateLimits.aliexpressCallback.ip),
      schema: {
        tags,
        summary: 'OAuth callback: exchanges the code, then redirects to /admin/productlist?aliexpress=connected|error',
        querystring: z.object({
          code: z.string().max(512).optional(),
          state: z.string().max(512).optional(),
          error: z.string().max(512).optional(),
        }),
      },
    },
    async (req, reply) => {
      requireConfigured(config);
      return reply.redirect(await finishOAuth(db, config, req.query, req.log), 302);
    },
  );

  app.get(
    '/api/aliexpress/status',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        security,
        summary: 'Whether AliExpress is configured and connected',
        response: { 200: aliexpressStatusSchema },
      },
    },
    async () => connectionStatus(db, config),
  );
};
