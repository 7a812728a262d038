import {
  categoryPageSchema,
  categorySchema,
  objectIdSchema,
  productCardListResponseSchema,
  productListQuerySchema,
  productListResponseSchema,
  productSchema,
  productSummarySchema,
  type Product,
  type ProductListResponse,
  type ProductSummary,
} from '@store/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onlyStock, privateAnswer, publicAnswer, type ProductsOf } from '#server/lib/cache.ts';
import {
  childCategories,
  getCategory,
  getProduct,
  getProductBySlug,
  listProducts,
  inStockOf,
  maxNameLength,
  prepareAnchors,
  rootCategories,
  topProducts,
  withoutSupplier,
} from './catalog.service.ts';
import { toCard } from './catalog.view.ts';
import { FacetIndex } from './facet-index.ts';
import { ListMemo } from './list-memo.ts';

const tags = ['catalog'];

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // Catalogue reads are the hot path: answers are kept as bytes for a few seconds and dropped on
  // any catalogue write (app.catalogCache.invalidate(), across processes when REDIS_URL is set).
  const cache = app.catalogCache;
  // totals and deep-page anchors of the product list, dropped with every catalogue write (list-memo.ts)
  const listMemo = new ListMemo();
  // brand, category, price, rating and stock of every active product, for the facets (facet-index.ts)
  const facetIndex = new FacetIndex(
    () => app.catalogBuilds.facets(),
    10,
    (ids) => inStockOf(db, ids),
  );
  // built once the server listens, in the background, not on the first shopper's filter
  app.addHook('onListen', async () => {
    facetIndex.current(false);
    prepareAnchors(db, listMemo);
  });
  cache.onDrop((reason, productIds) => {
    if (onlyStock(reason)) {
      listMemo.dropStock();
      facetIndex.dropStock(productIds);
    } else {
      listMemo.drop();
      facetIndex.drop();
    }
  });

  // answers go out as the bytes kept with the cache entry, each coding compressed once (lib/cache.ts)
  const shared = async (
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: () => Promise<unknown>,
    productsOf: ProductsOf,
  ) => publicAnswer(req, reply, await cache.entry(key, produce, productsOf));
  // which products' stock an answer shows: an order drops only those answers (lib/cache.ts)
  const noStock: ProductsOf = () => [];
  const listed: ProductsOf = (v) => (v as ProductListResponse).products.map((p) => p._id);
  const oneProduct: ProductsOf = (v) => [(v as Product)._id];

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
  // An admin's reads include drafts (with their status); a shopper's behave as if drafts did not exist.
  // A list filtered to what is in stock changes with any product's stock: dropped on every stock change.
  const listFor = async (
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: (withDrafts: boolean) => Promise<ProductListResponse>,
    opts: { card: boolean; stockWide: boolean },
  ) => {
    const productsOf = opts.stockWide ? undefined : listed;
    const shape = (r: ProductListResponse) =>
      opts.card ? { ...r, products: r.products.map(toCard) } : { ...r, products: r.products.map(withoutSupplier) };
    if (await isAdmin(req, reply))
      return privateAnswer(
        req,
        reply,
        await cache.entry(
          `admin:${key}`,
          async () => {
            const r = await produce(true);
            return opts.card ? shape(r) : r;
          },
          productsOf,
        ),
      );
    return publicAnswer(req, reply, await cache.entry(key, async () => shape(await produce(false)), productsOf));
  };
  const productFor = async (
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    produce: (withDrafts: boolean) => Promise<Product>,
  ) => {
    if (await isAdmin(req, reply))
      return privateAnswer(req, reply, await cache.entry(`admin:${key}`, () => produce(true), oneProduct));
    return shared(req, reply, key, async () => withoutSupplier(await produce(false)), oneProduct);
  };

  app.get(
    '/api/products',
    {
      compress: false,
      schema: {
        tags,
        summary: 'List or search products',
        querystring: productListQuerySchema,
        response: { 200: z.union([productListResponseSchema, productCardListResponseSchema]) },
      },
    },
    async (req, reply) =>
      listFor(
        req,
        reply,
        `list:${JSON.stringify(req.query)}`,
        (withDrafts) => listProducts(db, req.query, listMemo, app.searchIndex, withDrafts, facetIndex),
        { card: req.query.fields === 'card', stockWide: req.query.inStock === true },
      ),
  );

  app.get(
    '/api/products/top',
    {
      compress: false,
      schema: { tags, summary: 'Top-rated products', response: { 200: z.array(productSummarySchema) } },
    },
    async (req, reply) =>
      shared(
        req,
        reply,
        'top',
        async () => (await topProducts(db)).map(withoutSupplier),
        (v) => (v as ProductSummary[]).map((p) => p._id),
      ),
  );

  app.get(
    '/api/products/max-name-length',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Search text limit: the longest product name, clamped to 32..256',
        response: { 200: z.object({ maxNameLength: z.number() }) },
      },
    },
    async (req, reply) =>
      shared(req, reply, 'max-name-length', async () => ({ maxNameLength: await maxNameLength(db) }), noStock),
  );

  app.get(
    '/api/products/slug/:slug',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Product by slug (former slugs too)',
        params: z.object({ slug: z.string().max(200) }),
        response: { 200: productSchema },
      },
    },
    async (req, reply) =>
      productFor(req, reply, `slug:${req.params.slug}`, (withDrafts) =>
        getProductBySlug(db, req.params.slug, withDrafts),
      ),
  );

  app.get(
    '/api/products/:id',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Product by id (or slug)',
        params: z.object({ id: z.string().max(200) }),
        response: { 200: productSchema },
      },
    },
    async (req, reply) =>
      productFor(req, reply, `id:${req.params.id}`, (withDrafts) => getProduct(db, req.params.id, withDrafts)),
  );

  app.get(
    '/api/categories/roots',
    { compress: false, schema: { tags, summary: 'Root categories', response: { 200: z.array(categorySchema) } } },
    async (req, reply) => shared(req, reply, 'roots', () => rootCategories(db), noStock),
  );

  app.get(
    '/api/categories/slug/:slug',
    {
      compress: false,
      schema: {
        tags,
        summary: 'A category by slug, with its parent (a category page)',
        params: z.object({ slug: z.string().max(100) }),
        response: { 200: categoryPageSchema },
      },
    },
    async (req, reply) =>
      shared(
        req,
        reply,
        `category:${req.params.slug.toLowerCase()}`,
        async () => {
          const c = await getCategory(db, req.params.slug);
          return {
            _id: c.id,
            name: c.name,
            slug: c.slug,
            parent: c.parent ? { _id: c.parent.id, name: c.parent.name, slug: c.parent.slug } : null,
            hasChildren: c.childIds.length > 0,
          };
        },
        noStock,
      ),
  );

  app.get(
    '/api/categories/:id/children',
    {
      compress: false,
      schema: {
        tags,
        summary: 'Children of a category',
        params: z.object({ id: objectIdSchema }),
        response: { 200: z.array(categorySchema) },
      },
    },
    async (req, reply) =>
      shared(req, reply, `children:${req.params.id}`, () => childCategories(db, req.params.id), noStock),
  );
};
