import { couponInputSchema, couponSchema, couponUpdateSchema, messageResponseSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createCoupon, deleteCoupon, getCoupon, listCoupons, updateCoupon } from './coupons-admin.service.ts';

const tags = ['discount codes (admin)'];
const security = [{ bearer: [] }];
// any text: a malformed id names no code, so the service answers it 404 like an unknown one
const idParams = z.object({ id: z.string() });

/** Admin CRUD of discount codes: GET/POST /api/coupons, GET/PUT/DELETE /api/coupons/{id}. */
export const couponsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // on arrival: who may ask is settled before the request is validated
  const onRequest = app.requireAdmin;

  app.get(
    '/api/coupons',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Every discount code, newest first',
        response: { 200: z.array(couponSchema) },
      },
    },
    async () => listCoupons(db),
  );

  app.post(
    '/api/coupons',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Create a discount code (stored upper-case, unique whatever the case)',
        body: couponInputSchema,
        response: { 201: couponSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await createCoupon(db, req.body)),
  );

  app.get(
    '/api/coupons/:id',
    {
      onRequest,
      schema: { tags, security, summary: 'One discount code', params: idParams, response: { 200: couponSchema } },
    },
    async (req) => getCoupon(db, req.params.id),
  );

  app.put(
    '/api/coupons/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Edit a discount code: the given fields over the stored ones, checked as a whole',
        params: idParams,
        body: couponUpdateSchema,
        response: { 200: couponSchema },
      },
    },
    async (req) => updateCoupon(db, req.params.id, req.body),
  );

  app.delete(
    '/api/coupons/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Delete a discount code (orders that used it keep the code as typed)',
        params: idParams,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => deleteCoupon(db, req.params.id),
  );
};
