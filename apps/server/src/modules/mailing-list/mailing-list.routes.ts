import { mailingListSubscribeSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perIp } from '#server/lib/rate-limit.ts';
import { subscribe } from './mailing-list.service.ts';

export const mailingListRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/mailing-list/subscribe',
    {
      config: perIp(app.config.rateLimits.subscribe.ip),
      schema: {
        tags: ['mailing-list'],
        summary: 'Subscribe to promotions (idempotent)',
        body: mailingListSubscribeSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (req) => subscribe(app.db, req.body),
  );
};
