import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ERROR_CODES,
  escapeHtml,
  imageSrcSet,
  isClientRoute,
  productStructuredData,
  TOP_SLIDE_SIZES,
  type Product,
} from '@store/shared';
import {
  categorySlugs,
  getCategory,
  getProduct,
  sitemapEntries,
  topProducts,
} from '../modules/catalog/catalog.service.ts';
import { etagMatches, etagOf, onlyStock } from '../lib/cache.ts';
import { HttpError } from '../lib/errors.ts';

const HEAD_MARK = '<!--app-head-->';

/** SHA-256 sources of the inline scripts of the built page, for the Content-Security-Policy. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

export function loadIndexHtml(webDist: string | undefined): string | undefined {
  if (!webDist) return undefined;
  const file = path.join(webDist, 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** JSON for a <script type="application/ld+json">: `<` escaped so text can never close the tag. */
function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

function productHead(p: Product, publicUrl: string): string {
  const { product, crumbs, description, url, image } = productStructuredData(p, publicUrl);
  const title = `${p.name} | Store`;
  const e = escapeHtml;
  return [
    `<title>${e(title)}</title>`,
    `<meta name="description" content="${e(description)}">`,
    `<link rel="canonical" href="${e(url)}">`,
    `<meta property="og:type" content="product">`,
    `<meta property="og:title" content="${e(p.name)}">`,
    `<meta property="og:description" content="${e(description)}">`,
    `<meta property="og:url" content="${e(url)}">`,
    image ? `<meta property="og:image" content="${e(image)}">` : '',
    `<meta property="product:price:amount" content="${p.price.toFixed(2)}">`,
    `<meta property="product:price:currency" content="USD">`,
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${e(p.name)}">`,
    `<meta name="twitter:description" content="${e(description)}">`,
    image ? `<meta name="twitter:image" content="${e(image)}">` : '',
    `<script type="application/ld+json" id="ld-product">${jsonLd(product)}</script>`,
    `<script type="application/ld+json" id="ld-breadcrumbs">${jsonLd(crumbs)}</script>`,
  ]
    .filter(Boolean)
    .join('\n    ');
}

/** A category page's head: title, description, canonical (page 1 is the category's address) and breadcrumbs. */
function categoryHead(
  c: { name: string; slug: string; parent?: { name: string; slug: string } | undefined },
  page: number,
  publicUrl: string,
): string {
  const e = escapeHtml;
  const base = `${publicUrl}/category/${encodeURIComponent(c.slug)}`;
  const url = page > 1 ? `${base}/page/${page}` : base;
  const title = `${c.name}${page > 1 ? `, page ${page}` : ''} | Store`;
  const description = `Shop ${c.name}${c.parent ? ` in ${c.parent.name}` : ''}: compare brands, prices and ratings, with fast shipping and easy checkout.`;
  const trail = [
    { name: 'Home', item: `${publicUrl}/` },
    ...(c.parent ? [{ name: c.parent.name, item: `${publicUrl}/category/${encodeURIComponent(c.parent.slug)}` }] : []),
    { name: c.name, item: base },
  ];
  const crumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((t, i) => ({ '@type': 'ListItem', position: i + 1, name: t.name, item: t.item })),
  };
  return [
    `<title>${e(title)}</title>`,
    `<meta name="description" content="${e(description)}">`,
    `<link rel="canonical" href="${e(url)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${e(c.name)}">`,
    `<meta property="og:description" content="${e(description)}">`,
    `<meta property="og:url" content="${e(url)}">`,
    `<script type="application/ld+json" id="ld-breadcrumbs">${jsonLd(crumbs)}</script>`,
  ].join('\n    ');
}

/** The head of an address that is no page: the app shows its "not found" page, and no search engine lists it. */
const NOT_FOUND_HEAD = '<title>Page not found | Store</title><meta name="robots" content="noindex">';

const DEFAULT_HEAD = [
  '<title>Store</title>',
  '<meta name="description" content="Shop quality products with fast shipping and easy checkout.">',
].join('\n    ');

/** The home page's head: the default one, plus a preload of the carousel's first image (its sizes too). */
function homeHead(firstImage: string | undefined): string {
  if (!firstImage) return DEFAULT_HEAD;
  const e = escapeHtml;
  const srcset = imageSrcSet(firstImage);
  return [
    DEFAULT_HEAD,
    `<link rel="preload" as="image" href="${e(firstImage)}"${srcset ? ` imagesrcset="${e(srcset)}" imagesizes="${TOP_SLIDE_SIZES}"` : ''} fetchpriority="high">`,
  ].join('\n    ');
}

export async function registerWeb(app: FastifyInstance) {
  const { config } = app;
  const uploadsDir = path.join(config.dataDir, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });

  app.register(fastifyStatic, {
    root: uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    // an uploaded image's name carries a hash of its bytes (and each width its own name): never changes
    maxAge: '365d',
    immutable: true,
    index: false,
    allowedPath: (pathName) => !pathName.includes('..'),
  });

  app.get('/robots.txt', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send(
        [
          'User-agent: *',
          'Allow: /',
          'Disallow: /admin',
          'Disallow: /api/',
          'Disallow: /order/',
          'Disallow: /profile',
          '',
          `Sitemap: ${config.publicUrl}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );

  let sitemap: { xml: string; at: number } | undefined;
  // a product published, hidden or removed changes the sitemap: a catalogue write drops it
  app.catalogCache.onDrop((reason) => {
    if (!onlyStock(reason)) sitemap = undefined;
  });
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_req, reply) => {
    if (!sitemap || Date.now() - sitemap.at > 5 * 60_000) {
      const [rows, slugs] = await Promise.all([sitemapEntries(app.db), categorySlugs(app.db)]);
      const pages = [
        ...['/', '/contact', '/login', '/register'],
        ...slugs.map((slug) => `/category/${encodeURIComponent(slug)}`),
      ].map((p) => `  <url><loc>${escapeHtml(config.publicUrl + p)}</loc></url>`);
      const products = rows.map(
        (r) =>
          `  <url><loc>${escapeHtml(`${config.publicUrl}/product/${r.slug}`)}</loc><lastmod>${r.updatedAt.toISOString()}</lastmod></url>`,
      );
      sitemap = {
        xml: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${[...pages, ...products].join('\n')}\n</urlset>\n`,
        at: Date.now(),
      };
    }
    return reply.type('application/xml; charset=utf-8').send(sitemap.xml);
  });

  const template = loadIndexHtml(config.webDist);
  if (!config.webDist || !template) {
    if (config.webDist) app.log.warn('web app not built: only the API is served (run npm run build)');
    app.setNotFoundHandler((req, reply) =>
      reply
        .code(404)
        .send({ message: `Not found: ${req.method} ${req.url.split('?')[0]}`, code: ERROR_CODES.NOT_FOUND }),
    );
    return;
  }

  app.register(fastifyStatic, {
    root: config.webDist,
    prefix: '/',
    index: false,
    wildcard: false,
    preCompressed: true,
    // hashed assets never change; everything else is revalidated
    setHeaders: (reply, filePath) => {
      reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=300',
      );
    },
  });

  const sendPage = (reply: FastifyReply, head: string, status = 200) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(template.replace(HEAD_MARK, head));

  // the page's tag: the head's, salted with this build's template
  const templateTag = etagOf(template);

  /**
   * A page whose head comes from the catalogue cache: sent with its tag (304 when the browser has it), or,
   * when `load` finds nothing (404), a not-found page titled `missing`.
   */
  const headPage = async (
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    load: () => Promise<string>,
    productsOf: () => string[],
    missing: string,
  ) => {
    try {
      const head = await app.catalogCache.entry(key, load, productsOf);
      const etag = etagOf(templateTag + head.etag);
      reply.header('etag', etag);
      if (etagMatches(req.headers['if-none-match'], etag))
        return reply.code(304).header('cache-control', 'no-cache').send();
      return sendPage(reply, JSON.parse(head.value) as string);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404)
        return sendPage(reply, `<title>${missing} | Store</title><meta name="robots" content="noindex">`, 404);
      throw err;
    }
  };

  app.get('/product/:idOrSlug', { schema: { hide: true } }, async (req, reply) => {
    const { idOrSlug } = req.params as { idOrSlug: string };
    // the head shows the product's availability: an order for it drops this entry (lib/cache.ts)
    let productId = '';
    return headPage(
      req,
      reply,
      `head:${idOrSlug}`,
      async () => {
        const product = await getProduct(app.db, idOrSlug);
        productId = product._id;
        return productHead(product, config.publicUrl);
      },
      () => [productId],
      'Product not found',
    );
  });

  // a category page: its head names the category; an unknown category is a 404 page
  const categoryPage = async (req: FastifyRequest, reply: FastifyReply, slug: string, pageRaw: string | undefined) => {
    const page = pageRaw === undefined ? 1 : Number(pageRaw);
    if (!Number.isInteger(page) || page < 1 || page > 100000) return sendPage(reply, NOT_FOUND_HEAD, 404);
    return headPage(
      req,
      reply,
      `head:category:${slug.toLowerCase()}:${page}`,
      async () => {
        const c = await getCategory(app.db, slug);
        return categoryHead({ name: c.name, slug: c.slug, parent: c.parent }, page, config.publicUrl);
      },
      () => [],
      'Category not found',
    );
  };
  app.get('/category/:slug', { schema: { hide: true } }, async (req, reply) =>
    categoryPage(req, reply, (req.params as { slug: string }).slug, undefined),
  );
  app.get('/category/:slug/page/:pageNumber', { schema: { hide: true } }, async (req, reply) => {
    const { slug, pageNumber } = req.params as { slug: string; pageNumber: string };
    return categoryPage(req, reply, slug, pageNumber);
  });

  // home: the first top product's image is the largest paint; preload it so it does not wait for the app
  app.get('/', { schema: { hide: true } }, async (_req, reply) => {
    const head = await app.catalogCache
      .entry(
        'head:/',
        async () => homeHead((await topProducts(app.db))[0]?.image),
        () => [],
      )
      .catch(() => undefined);
    return sendPage(reply, head ? (JSON.parse(head.value) as string) : DEFAULT_HEAD);
  });

  // A page of the web app (the shared list of its routes) answers the app; any other page address answers
  // the app too, which shows its "not found" page, but with status 404 so crawlers do not index it. API
  // paths and missing files answer a JSON 404.
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if ((req.method === 'GET' || req.method === 'HEAD') && !url.startsWith('/api/') && url !== '/api') {
      if (isClientRoute(url)) return sendPage(reply, DEFAULT_HEAD);
      if (!/\.[a-z0-9]{2,5}$/i.test(url)) return sendPage(reply, NOT_FOUND_HEAD, 404);
    }
    return reply.code(404).send({ message: `Not found: ${req.method} ${url}`, code: ERROR_CODES.NOT_FOUND });
  });
}
