import { messageResponseSchema, productImageUpdateSchema, productSchema, productUpdateSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSampleProduct, deleteProduct, updateProduct } from './products-admin.service.ts';

const tags = ['products (admin)'];
const security = [{ bearer: [] }];
const params = z.object({ id: z.string().max(64) });

/** Catalogue writes: admin only, and each one drops the cached catalogue answers. */
export const productsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // on arrival: who may write is settled before the body is read
  const onRequest = app.requireAdmin;
  const written = async <T>(result: T): Promise<T> => {
    await app.catalogCache.invalidate();
    return result;
  };

  app.post(
    '/api/products',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: "Create a sample product to edit ('Sample name', price 0, a unique slug)",
        response: { 201: productSchema },
      },
    },
    async (_req, reply) => reply.code(201).send(await written(await createSampleProduct(db))),
  );

  app.put(
    '/api/products/image/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Set the main image, gallery folder, gallery and variant images (after uploads or deletions)',
        params,
        body: productImageUpdateSchema,
        response: { 200: productSchema },
      },
    },
    async (req) => written(await updateProduct(db, req.params.id, req.body)),
  );

  app.put(
    '/api/products/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Update a product: every given field is replaced (gallery and variants as whole lists)',
        params,
        body: productUpdateSchema,
        response: { 200: productSchema },
      },
    },
    async (req) => written(await updateProduct(db, req.params.id, req.body)),
  );

  app.delete(
    '/api/products/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Delete a product (orders that contain it stay readable)',
        params,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => written(await deleteProduct(db, req.params.id)),
  );
};
