import { captchaConfigSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '#server/lib/errors.ts';
import { CAPTCHA_CHALLENGE_PATH } from '#server/lib/captcha.ts';
import { perIp } from '#server/lib/rate-limit.ts';

const tags = ['captcha'];

const challengeSchema = z.object({
  parameters: z.looseObject({ algorithm: z.string(), nonce: z.string(), salt: z.string(), cost: z.number() }),
  signature: z.string(),
});

export const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/config/captcha',
    {
      schema: {
        tags,
        summary: 'Which captcha the forms show, and where an ALTCHA challenge is fetched',
        response: { 200: captchaConfigSchema },
      },
    },
    async () => {
      const { provider, recaptchaSiteKey } = app.config.captcha;
      return {
        provider,
        ...(provider === 'recaptcha' && recaptchaSiteKey ? { siteKey: recaptchaSiteKey } : {}),
        challengeUrl: CAPTCHA_CHALLENGE_PATH,
      };
    },
  );

  app.get(
    CAPTCHA_CHALLENGE_PATH,
    {
      config: perIp(app.config.rateLimits.captchaChallenge.ip),
      schema: {
        tags,
        summary: 'A new ALTCHA proof-of-work challenge (valid 10 minutes, accepted once)',
        response: { 200: challengeSchema },
      },
    },
    async (_req, reply) => {
      if (app.captcha.provider !== 'altcha') throw new NotFoundError('The captcha provider is not ALTCHA');
      reply.header('cache-control', 'no-store');
      const challenge = await app.captcha.challenge();
      return { parameters: { ...challenge.parameters }, signature: challenge.signature ?? '' };
    },
  );
};
