import { mailingListSubscribeSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perIp } from '../../lib/rate-limit.ts';
import { subscribe } from './mailing-list.service.ts';

export const SUBSCRIBE_LIMIT = { max: 10, windowMs: 60_000 };

export const mailingListRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/mailing-list/subscribe',
    {
      config: perIp(SUBSCRIBE_LIMIT),
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
