import {
  addressSuggestionSchema,
  addressValidationRequestSchema,
  fromCents,
  shippingRatesResponseSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAddressProvider } from '#server/integrations/address/index.ts';
import { perIp } from '#server/lib/rate-limit.ts';
import { currentRates, parseShippingRates } from './shipping-rates.ts';

const tags = ['shipping'];

export const shippingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const provider = createAddressProvider(app.config, app.log);
  const envRates = parseShippingRates(app.config.shippingRates);

  app.post(
    '/api/shipping/shippingaddress',
    {
      config: perIp(app.config.rateLimits.addressValidation.ip),
      schema: {
        tags,
        summary: 'Validate a shipping address; answers the suggested (normalised) address or 400 with the reason',
        body: addressValidationRequestSchema,
        response: { 200: addressSuggestionSchema },
      },
    },
    async (req) => provider.suggest(req.body),
  );

  app.get(
    '/api/shipping/:id',
    {
      schema: {
        tags,
        summary: 'Shipping rates for a checkout (the first is the default); POST /api/orders charges the chosen one',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: shippingRatesResponseSchema },
      },
    },
    async () => {
      const rates = await currentRates(db, envRates);
      return {
        rates: rates.map((r) => ({ id: r.id, name: r.name, price: fromCents(r.priceCents) })),
        defaultRateId: rates[0]!.id,
      };
    },
  );
};
