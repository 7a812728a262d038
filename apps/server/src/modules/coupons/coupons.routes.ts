import { appliedCouponSchema, applyCouponSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perIp } from '#server/lib/rate-limit.ts';
import { applyCoupon } from './coupons.service.ts';

/** POST /api/coupons/apply: prices the items with a code, or says why it does not apply. */
export const couponsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.post(
    '/api/coupons/apply',
    {
      onRequest: app.optionalUser,
      // limited per client address: codes cannot be guessed by trying many
      config: perIp(config.rateLimits.couponApply.ip),
      schema: {
        tags: ['coupons'],
        summary: 'Price the items as an order would, with a discount code (400 says why it does not apply)',
        body: applyCouponSchema,
        response: { 200: appliedCouponSchema },
      },
    },
    async (req) => {
      const u = req.user;
      // a signed-in account's own address counts its uses; a guest or a visitor may say theirs
      const email = u && !u.isGuest ? u.email : req.body.email?.trim() || u?.email || null;
      return applyCoupon(db, req.body, { email, products: app.orderLoaders.products, rates: app.orderLoaders.rates });
    },
  );
};
