import cluster from 'node:cluster';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { connectCacheBus } from './lib/cache-bus.ts';
import { AnswerCache, onlyStock } from './lib/cache.ts';
import { createCaptcha, type Captcha } from './lib/captcha.ts';
import { TooManyRequestsError } from './lib/errors.ts';
import { bufferedStdout } from './lib/log-destination.ts';
import { createMailer, type Mailer } from './lib/mailer/index.ts';
import { tooManyMessage } from './lib/rate-limit.ts';
import { verifyPreparedShapes } from './lib/prepared-shapes.ts';
import { fallbackRateLimitStore } from './lib/rate-limit-store.ts';
import { RedisHealth } from './lib/redis-health.ts';
import { aliexpressRoutes } from './modules/aliexpress/aliexpress.routes.ts';
import { adminStatsRoutes } from './modules/admin-stats/admin-stats.routes.ts';
import { captchaRoutes } from './modules/captcha/captcha.routes.ts';
import { couponsAdminRoutes } from './modules/coupons/coupons-admin.routes.ts';
import { couponsRoutes } from './modules/coupons/coupons.routes.ts';
import { catalogRoutes } from './modules/catalog/catalog.routes.ts';
import { mailingListRoutes } from './modules/mailing-list/mailing-list.routes.ts';
import { fulfilmentRoutes } from './modules/orders/fulfilment.routes.ts';
import { guestAccessRoutes } from './modules/orders/guest-access.routes.ts';
import { registerOrders } from './modules/orders/orders.plugin.ts';
import { ordersBulkRoutes } from './modules/orders/orders-bulk.routes.ts';
import { ordersExportRoutes } from './modules/orders/orders-export.routes.ts';
import { ordersRoutes } from './modules/orders/orders.routes.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { paymentLifecycleRoutes } from './modules/orders/payment-lifecycle.routes.ts';
import { paymentsRoutes } from './modules/orders/payments.routes.ts';
import { productsAdminRoutes } from './modules/products-admin/products-admin.routes.ts';
import { productsCsvRoutes } from './modules/products-admin/products-csv.routes.ts';
import { reviewsRoutes } from './modules/reviews/reviews.routes.ts';
import { shippingRoutes } from './modules/shipping/shipping.routes.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { trackingRoutes } from './modules/tracking/tracking.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { usersAdminRoutes } from './modules/users/users-admin.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { catalogBuilds, type CatalogBuilds } from './modules/catalog/background-builds.ts';
import { ClusterSearchIndex } from './modules/catalog/cluster-search-index.ts';
import { SearchIndex, type KeywordSearch } from './modules/catalog/search-index.ts';
import { registerAuth } from './plugins/auth.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandling,
  registerFrameworkErrors,
} from './plugins/errors.ts';
import { inlineScriptHashes, loadIndexHtml, registerWeb } from './plugins/web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    catalogCache: AnswerCache;
    /**
     * Keyword index of large catalogues, dropped with the catalogue cache (search-index.ts): held here, or
     * in a cluster by the primary, which every worker asks (cluster-search-index.ts).
     */
    searchIndex: KeywordSearch;
    /** Builds the keyword index and the facet table: in a worker thread for a large shop (background-builds.ts). */
    catalogBuilds: CatalogBuilds;
    captcha: Captcha;
    mailer: Mailer;
    /** Whether Redis (when configured) answers now: /readyz reports it. */
    redisHealth: RedisHealth;
  }
}

/** Single-use secrets travel in some URLs (confirm and reset links, guest access tokens): never into the log. */
export function redactUrl(url: string): string {
  return url
    .replace(/^(\/api\/users\/(?:confirm|confirm-email|registerconfirm|resetpw)\/)[^/?#]+/, '$1[redacted]')
    .replace(/([?&](?:accessToken|token|code|state)=)[^&#]*/gi, '$1[redacted]');
}

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: boolean;
  /** Where the log lines go (standard output when left out); tests read them here. */
  logStream?: { write(line: string): void };
}

/**
 * Each request's 'incoming request' and 'request completed' lines at debug, not info: outside production
 * the console then shows what a developer looks for (start-up, warnings, the links of outbox mails), and
 * LOG_LEVEL=debug brings the requests back. A request that failed is still logged at error.
 */
class DebugRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.isLogDisabled(request)) return super.requestCompleted(error, request, reply);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The error a request failed with, kept until its log line is written (only failing requests are in it). */
const failures = new WeakMap<FastifyRequest, unknown>();

/**
 * Production's log: one line per request, written when it completes, with what an operator searches by
 * (method, route pattern, redacted URL, status, time in ms; the request id comes with the request's own
 * logger). A request that failed (a 5xx, or an error ending its response) is logged at error, with the
 * error's detail; nothing is logged when it comes in.
 */
class RequestLine extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const url = redactUrl(request.url);
    const statusCode = reply.statusCode;
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? url,
      url,
      statusCode,
      responseTime: reply.elapsedTime,
    };
    const err = error ?? (statusCode >= 500 ? failures.get(request) : undefined);
    if (err || statusCode >= 500) reply.log.error(err ? { ...line, err } : line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count n means "the n nearest proxies are ours": passed as a
 * function, since Fastify's own numeric option leaves req.ip at the proxy's address (tested).
 */
function trustProxyOption(v: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof v === 'number') return (_address, hop) => hop < v;
  return v ?? false;
}

/**
 * zlib for @fastify/compress, whose answers in one piece (the JSON of an order, a list, a form's result)
 * are compressed with brotliCompressSync: here each is told its own size. Without the hint brotli sets up
 * its full 4 MB window for every answer, and with the C heap's fixed mmap threshold (npm start's
 * MALLOC_MMAP_THRESHOLD_) those buffers are fresh pages each time: 390 µs for a 1.2 KB order against 28 µs
 * with the hint, the same bytes out. Streams go on through zlib's own createBrotliCompress.
 */
const zlibWithBrotliSizeHint = {
  ...zlib,
  brotliCompressSync: (payload: zlib.InputType, options: zlib.BrotliOptions = {}) =>
    zlib.brotliCompressSync(payload, {
      ...options,
      params: {
        ...options.params,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]:
          typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength,
      },
    }),
};

/** The whole app: used by main.ts and by every test. */
export async function buildApp({ config, database, logger = true, logStream }: BuildOptions): Promise<FastifyInstance> {
  // standard output, written in chunks (lib/log-destination.ts)
  const stdout = logger && !logStream ? bufferedStdout() : undefined;
  const app = Fastify({
    logger: logger
      ? {
          level: config.logLevel,
          stream: logStream ?? stdout!.stream,
          redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
          serializers: {
            req: (req: FastifyRequest) => ({
              method: req.method,
              url: redactUrl(req.url),
              host: req.host,
              remoteAddress: req.ip,
              remotePort: req.socket?.remotePort,
            }),
          },
        }
      : false,
    // production's JSON log: one line per request at info; elsewhere the requests are at debug
    logController: config.isProduction ? new RequestLine() : new DebugRequestLog(),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500 },
    // what the router and Node's HTTP parser refuse is answered { message, code } too (plugins/errors.ts)
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    http: { requireHostHeader: false },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // a statement kept per shape is checked against a fresh build on every run, but in production
  verifyPreparedShapes(!config.isProduction);
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('database', database);
  // SLOW_QUERY_PLAN_MS: slow statements' plans in the log (PostgreSQL); nothing at all when unset
  if (config.slowQueryPlanMs !== undefined) database.logSlowQueryPlans?.(config.slowQueryPlanMs, app.log);
  app.decorate('catalogCache', new AnswerCache(5_000, 2_000));
  const builds = catalogBuilds(database, config.indexWorkerMinProducts, app.log);
  app.decorate('catalogBuilds', builds);
  app.addHook('onClose', async () => builds.close());
  const searchIndex: KeywordSearch = cluster.isWorker
    ? new ClusterSearchIndex()
    : new SearchIndex(
        (min) => builds.keyword(min),
        config.searchIndexMinProducts,
        (index, ms) => app.log.info({ products: index.size, bytes: index.bytesHeld, ms }, 'keyword index built'),
      );
  app.decorate('searchIndex', searchIndex);
  // orders and their expiry change stock, never a search vector: only other writes drop the index
  app.catalogCache.onDrop((reason) => !onlyStock(reason) && app.searchIndex.drop());
  app.decorate('captcha', createCaptcha(config, database.db, app.log));
  app.decorate('mailer', createMailer(database.db, config, app.log));
  // the outbox worker runs beside the app; tests may disable it and call app.mailer.runOnce()
  if (config.mailWorker.enabled) app.addHook('onReady', async () => app.mailer.start());
  app.addHook('onClose', async () => app.mailer.stop());
  // what is waiting goes out at close (and at exit, whatever ends the process)
  if (stdout) app.addHook('onClose', async () => stdout.close());
  // settings allowed outside production but unsafe (config.ts) are said at every start
  app.addHook('onListen', async () => {
    for (const warning of config.warnings) app.log.warn(warning);
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // the error a request fails with goes into its log line (the hook runs only for errors)
  if (config.isProduction)
    app.addHook('onError', (req, _reply, err, done) => {
      failures.set(req, err);
      done();
    });

  registerErrorHandling(app);

  registerSecurityHeaders(app, {
    // the built page's own inline script is allowed by its hash
    scriptHashes: inlineScriptHashes(loadIndexHtml(config.webDist) ?? ''),
    recaptcha: config.captcha.provider === 'recaptcha',
    production: config.isProduction,
  });
  registerFrameworkErrors(app);
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    // brotli's default (quality 11) costs milliseconds per answer; 4 compresses nearly as well, far faster
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlib: zlibWithBrotliSizeHint,
  });
  await app.register(fastifyCookie);
  // shared counters across processes when REDIS_URL is set. While Redis is away the store keeps serving:
  // commands fail at once (no offline queue, a short timeout), limits count in this process, and the
  // clients reconnect on their own (redis-health.ts logs both changes)
  app.decorate('redisHealth', new RedisHealth(app.log, Boolean(config.redisUrl)));
  // ioredis is loaded only when it is used (about 20 MB of a process that has no Redis)
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        connectTimeout: 500,
        commandTimeout: 500,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      })
    : undefined;
  if (redis) {
    app.redisHealth.watch(redis, 'rate limits');
    // every process drops its catalogue answers when any process writes the catalogue
    const bus = connectCacheBus(
      app.catalogCache,
      redis,
      `${config.redisPrefix}catalog-invalidate`,
      app.log,
      app.redisHealth,
    );
    app.addHook('onReady', async () => {
      await bus.ready;
      await app.redisHealth.ready(1000);
    });
    app.addHook('onClose', async () => {
      app.redisHealth.close();
      await bus.close();
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { store: fallbackRateLimitStore(redis, `${config.redisPrefix}rate-limit:`) } : {}),
    // thrown by the plugin, answered by the error handler: { message, code: 'RATE_LIMITED' }
    errorResponseBuilder: (_req, ctx) => new TooManyRequestsError(tooManyMessage(ctx.ttl)),
  });
  registerAuth(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Store API',
        version: '1.0.0',
        description:
          'JSON API of the store. Every entity carries `_id`, a 24-character hex string; money is a number of US dollars with at most two decimals; dates are ISO-8601 strings. A failed call answers a fitting status with `{ "message": "…", "code": "…" }`: the message is for people, the code (a fixed name such as OUT_OF_STOCK or TOKEN_FAILED) for programs.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(systemRoutes);
  await app.register(catalogRoutes);
  await app.register(productsAdminRoutes);
  await app.register(productsCsvRoutes);
  await app.register(uploadsRoutes);
  await app.register(captchaRoutes);
  await app.register(usersRoutes);
  await app.register(usersAdminRoutes);
  registerOrders(app);
  await app.register(ordersRoutes);
  await app.register(ordersExportRoutes);
  await app.register(ordersBulkRoutes);
  await app.register(paymentsRoutes);
  await app.register(paymentLifecycleRoutes);
  await app.register(guestAccessRoutes);
  await app.register(fulfilmentRoutes);
  await app.register(couponsAdminRoutes);
  await app.register(couponsRoutes);
  await app.register(adminStatsRoutes);
  await app.register(trackingRoutes);
  await app.register(shippingRoutes);
  await app.register(mailingListRoutes);
  await app.register(aliexpressRoutes);
  await app.register(reviewsRoutes);
  await app.register(supportRoutes);
  await registerWeb(app);

  return app;
}
