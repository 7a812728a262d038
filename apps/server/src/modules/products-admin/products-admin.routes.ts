import path from 'node:path';
import {
  adminProductListQuerySchema,
  adminProductListResponseSchema,
  messageResponseSchema,
  productBulkResponseSchema,
  productBulkSchema,
  productImageUpdateSchema,
  productSchema,
  productUpdateSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onlyStock } from '#server/lib/cache.ts';
import { createDraftSweeper } from './draft-cleanup.ts';
import { AdminListTotals, listAdminProducts } from './products-admin-list.service.ts';
import {
  adminProduct,
  bulkProducts,
  createDraftProduct,
  deleteProduct,
  updateProduct,
} from './products-admin.service.ts';

/** How often abandoned drafts (never published, untouched for a day) are looked for. */
const DRAFT_SWEEP_MS = 60 * 60_000;

const tags = ['products (admin)'];
const security = [{ bearer: [] }];
const params = z.object({ id: z.string().max(64) });

/** Catalogue writes: admin only, and each one drops the cached catalogue answers. */
export const productsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // on arrival: who may write is settled before the body is read
  const onRequest = app.requireAdmin;
  // the admin list's totals, dropped with every catalogue write but a change of stock alone (which no
  // filter of the list reads)
  const listTotals = new AdminListTotals();
  app.catalogCache.onDrop((reason) => !onlyStock(reason) && listTotals.drop());
  const written = async <T>(result: T): Promise<T> => {
    await app.catalogCache.invalidate();
    return result;
  };

  // drafts nobody published or touched for a day go; each process sweeps, skipping rows another holds
  const sweeper = createDraftSweeper(
    db,
    {
      everyMs: DRAFT_SWEEP_MS,
      uploadsDir: path.join(app.config.dataDir, 'uploads'),
      onRemoved: () => app.catalogCache.invalidate(),
    },
    app.log,
  );
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', async () => sweeper.stop());

  app.post(
    '/api/products',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: "Create a draft product to edit ('Sample name', price 0, a unique slug); shoppers never see it",
        response: { 201: productSchema },
      },
    },
    async (_req, reply) => reply.code(201).send(await written(await createDraftProduct(db))),
  );

  app.get(
    '/api/admin/products',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'The admin product list: drafts too, with status, stock, SKUs; filtered, sorted, paged',
        querystring: adminProductListQuerySchema,
        response: { 200: adminProductListResponseSchema },
      },
    },
    async (req) => listAdminProducts(db, req.query, listTotals),
  );

  app.get(
    '/api/admin/products/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'A product as the editor loads it, drafts too (with status)',
        params,
        response: { 200: productSchema },
      },
    },
    async (req) => adminProduct(db, req.params.id),
  );

  app.post(
    '/api/products/bulk',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'One action (activate, draft, category, delete) on the selected products: all of them or none',
        body: productBulkSchema,
        response: { 200: productBulkResponseSchema },
      },
    },
    async (req) => written(await bulkProducts(db, req.body)),
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
        summary:
          'Update a product: every given field is replaced (gallery and variants as whole lists); without `status` a draft is published',
        params,
        body: productUpdateSchema,
        response: { 200: productSchema },
      },
    },
    async (req) => written(await updateProduct(db, req.params.id, req.body, true)),
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
