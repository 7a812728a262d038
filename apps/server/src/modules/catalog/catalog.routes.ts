import {
  categorySchema,
  objectIdSchema,
  productListQuerySchema,
  productListResponseSchema,
  productSchema,
  productSummarySchema,
  type Product,
  type ProductListResponse,
} from '@store/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  childCategories,
  getProduct,
  getProductBySlug,
  listProducts,
  maxNameLength,
  rootCategories,
  topProducts,
  withoutSupplier,
} from './catalog.service.ts';

const tags = ['catalog'];

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // Catalogue reads are the hot path: answers are kept as JSON text for a few seconds and dropped on
  // any catalogue write (app.catalogCache.invalidate()).
  const cache = app.catalogCache;
  const json = (reply: FastifyReply, body: string) => reply.type('application/json; charset=utf-8').send(body);

  // The supplier's purchase link is the merchant's business: only admins see it. A bad or stale token
  // only makes the caller anonymous here, so browsing never fails on it.
  const isAdmin = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (!req.headers.authorization) return false;
    try {
      await app.optionalUser.call(app, req, reply);
      return req.user?.isAdmin === true;
    } catch {
      return false;
    }
  };
  const listFor = async (
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: () => Promise<ProductListResponse>,
  ) => {
    if (await isAdmin(req, reply)) return json(reply, await cache.get(`admin:${key}`, produce));
    return json(
      reply,
      await cache.get(key, async () => {
        const r = await produce();
        return { ...r, products: r.products.map(withoutSupplier) };
      }),
    );
  };
  const productFor = async (req: FastifyRequest, reply: FastifyReply, key: string, produce: () => Promise<Product>) => {
    if (await isAdmin(req, reply)) return json(reply, await cache.get(`admin:${key}`, produce));
    return json(reply, await cache.get(key, async () => withoutSupplier(await produce())));
  };

  app.get(
    '/api/products',
    {
      schema: {
        tags,
        summary: 'List or search products',
        querystring: productListQuerySchema,
        response: { 200: productListResponseSchema },
      },
    },
    async (req, reply) => listFor(req, reply, `list:${JSON.stringify(req.query)}`, () => listProducts(db, req.query)),
  );

  app.get(
    '/api/products/top',
    { schema: { tags, summary: 'Top-rated products', response: { 200: z.array(productSummarySchema) } } },
    async (_req, reply) =>
      json(reply, await cache.get('top', async () => (await topProducts(db)).map(withoutSupplier))),
  );

  app.get(
    '/api/products/max-name-length',
    {
      schema: {
        tags,
        summary: 'Search text limit (spec §5)',
        response: { 200: z.object({ maxNameLength: z.number() }) },
      },
    },
    async (_req, reply) =>
      json(reply, await cache.get('max-name-length', async () => ({ maxNameLength: await maxNameLength(db) }))),
  );

  app.get(
    '/api/products/slug/:slug',
    {
      schema: {
        tags,
        summary: 'Product by slug (former slugs too)',
        params: z.object({ slug: z.string().max(200) }),
        response: { 200: productSchema },
      },
    },
    async (req, reply) =>
      productFor(req, reply, `slug:${req.params.slug}`, () => getProductBySlug(db, req.params.slug)),
  );

  app.get(
    '/api/products/:id',
    {
      schema: {
        tags,
        summary: 'Product by id (or slug)',
        params: z.object({ id: z.string().max(200) }),
        response: { 200: productSchema },
      },
    },
    async (req, reply) => productFor(req, reply, `id:${req.params.id}`, () => getProduct(db, req.params.id)),
  );

  app.get(
    '/api/categories/roots',
    { schema: { tags, summary: 'Root categories', response: { 200: z.array(categorySchema) } } },
    async (_req, reply) => json(reply, await cache.get('roots', () => rootCategories(db))),
  );

  app.get(
    '/api/categories/:id/children',
    {
      schema: {
        tags,
        summary: 'Children of a category',
        params: z.object({ id: objectIdSchema }),
        response: { 200: z.array(categorySchema) },
      },
    },
    async (req) => childCategories(db, req.params.id),
  );
};
