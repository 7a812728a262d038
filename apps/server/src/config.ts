import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * The environment, parsed once: nothing else reads process.env. A bad value stops start-up with a
 * message naming the variable.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  TRUST_PROXY: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, : _ - only')
    .default('store:'),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SEED_DEMO: bool.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Store <no-reply@store.local>'),
  MAIL_WORKER: bool.optional(),
  CAPTCHA_PROVIDER: z.enum(['altcha', 'recaptcha', 'none']).default('altcha'),
  CAPTCHA_DIFFICULTY: z.enum(['normal', 'low']).default('normal'),
  RECAPTCHA_SECRET: z.string().optional(),
  RECAPTCHA_SITE_KEY: z.string().optional(),
  RECAPTCHA_API_BASE: z.url().default('https://www.google.com'),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_API_BASE: z.url().default('https://api-m.sandbox.paypal.com'),
  PAYPAL_WEBHOOK_ID: z.string().trim().min(1).max(64).optional(),
  // how often the reconciliation sweep asks PayPal about payments never recorded; 0 turns it off
  PAYPAL_RECONCILE_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  TRACKING_PROVIDER: z.enum(['manual', 'parcelsapp']).default('manual'),
  TRACKING_API_KEY: z.string().optional(),
  TRACKING_API_BASE: z.url().default('https://parcelsapp.com'),
  ADDRESS_PROVIDER: z.enum(['builtin', 'usps']).default('builtin'),
  USPS_CLIENT_ID: z.string().optional(),
  USPS_CLIENT_SECRET: z.string().optional(),
  USPS_API_BASE: z.url().default('https://apis.usps.com'),
  ALIEXPRESS_APP_KEY: z.string().optional(),
  ALIEXPRESS_APP_SECRET: z.string().optional(),
  ALIEXPRESS_CALLBACK_URL: z.url().optional(),
  ALIEXPRESS_API_BASE: z.url().default('https://api-sg.aliexpress.com'),
  SHIPPING_RATES: z.string().optional(),
  ORDER_HOLD_MINUTES: z.coerce.number().int().min(0).max(525_600).default(60),
  SEARCH_INDEX_MIN_PRODUCTS: z.coerce.number().int().min(0).default(10_000),
  INDEX_WORKER_MIN_PRODUCTS: z.coerce.number().int().min(0).default(20_000),
  WEB_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // PostgreSQL's auto_explain for statements at least this slow (ms); unset: off
  SLOW_QUERY_PLAN_MS: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  // statements run again and again go as named prepared statements (PostgreSQL); false: all unnamed
  DB_PREPARED_STATEMENTS: bool.optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Limit {
  max: number;
  windowMs: number;
}
/** A route's limits: one per client address, and one per account (the e-mail the request names) where set. */
export interface RouteLimits {
  ip: Limit;
  account?: Limit;
}

/**
 * Every rate limit of the API, in one table: routes read `app.config.rateLimits.<name>`. Each route is
 * limited per client address (checked on arrival, before the body is read); sign-in and the mail-sending
 * account routes also per e-mail address, guest access also per order.
 */
export interface RateLimits {
  login: RouteLimits;
  register: RouteLimits;
  fpw: RouteLimits;
  resend: RouteLimits;
  guest: RouteLimits;
  confirmEmail: RouteLimits;
  /** Placing an order holds stock and queues a mail. */
  order: RouteLimits;
  review: RouteLimits;
  /** Encoding three WebP widths per image costs CPU. */
  upload: RouteLimits;
  /** The contact form mails the admins. */
  contact: RouteLimits;
  supportMessage: RouteLimits;
  subscribe: RouteLimits;
  /** Each captcha challenge costs an HMAC and a random counter. */
  captchaChallenge: RouteLimits;
  aliexpressCallback: RouteLimits;
  /** Each address validation may cost a carrier API call. */
  addressValidation: RouteLimits;
  /** Each shipment lookup may cost carrier API quota. */
  tracking: RouteLimits;
  /** Each tracking e-mail reaches a person's inbox. */
  trackingEmail: RouteLimits;
  /** Guessing a postal code is cheap: a few tries per client address, and per order from any address. */
  guestAccess: { ip: Limit; order: Limit };
  /** Trying discount codes: enough for a shopper's typos, too few to guess codes by brute force. */
  couponApply: RouteLimits;
  /** Starting and capturing PayPal payments: each is a call to PayPal. */
  paypal: RouteLimits;
  /** PayPal's webhook deliveries: each is verified with a call to PayPal. */
  paypalWebhook: RouteLimits;
}

const MINUTE = 60_000;
export const DEFAULT_RATE_LIMITS: RateLimits = {
  login: { ip: { max: 30, windowMs: 15 * MINUTE }, account: { max: 10, windowMs: 15 * MINUTE } },
  register: { ip: { max: 10, windowMs: 60 * MINUTE } },
  fpw: { ip: { max: 10, windowMs: 15 * MINUTE }, account: { max: 3, windowMs: 60 * MINUTE } },
  resend: { ip: { max: 10, windowMs: 15 * MINUTE }, account: { max: 5, windowMs: 60 * MINUTE } },
  guest: { ip: { max: 30, windowMs: 60 * MINUTE } },
  confirmEmail: { ip: { max: 20, windowMs: 15 * MINUTE } },
  order: { ip: { max: 30, windowMs: 15 * MINUTE } },
  review: { ip: { max: 30, windowMs: 15 * MINUTE } },
  upload: { ip: { max: 30, windowMs: MINUTE } },
  contact: { ip: { max: 5, windowMs: 15 * MINUTE } },
  supportMessage: { ip: { max: 30, windowMs: 5 * MINUTE } },
  subscribe: { ip: { max: 10, windowMs: MINUTE } },
  captchaChallenge: { ip: { max: 60, windowMs: MINUTE } },
  aliexpressCallback: { ip: { max: 20, windowMs: 15 * MINUTE } },
  addressValidation: { ip: { max: 30, windowMs: MINUTE } },
  tracking: { ip: { max: 30, windowMs: MINUTE } },
  trackingEmail: { ip: { max: 20, windowMs: 15 * MINUTE } },
  guestAccess: { ip: { max: 20, windowMs: 15 * MINUTE }, order: { max: 10, windowMs: 15 * MINUTE } },
  couponApply: { ip: { max: 20, windowMs: 15 * MINUTE } },
  paypal: { ip: { max: 40, windowMs: 15 * MINUTE } },
  paypalWebhook: { ip: { max: 300, windowMs: MINUTE } },
};

/**
 * NODE_ENV=test: every limit a thousand times higher, since the test suite sends far more requests from one
 * address than people do; the rate-limit tests configure the real (or smaller) limits themselves.
 */
function relaxed(limits: RateLimits): RateLimits {
  const up = (l: Limit): Limit => ({ ...l, max: l.max * 1000 });
  return Object.fromEntries(
    Object.entries(limits).map(([name, keyed]: [string, Record<string, Limit>]) => [
      name,
      Object.fromEntries(Object.entries(keyed).map(([key, l]) => [key, up(l)])),
    ]),
  ) as unknown as RateLimits;
}

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  trustProxy: boolean | number | string | undefined;
  /** Settings allowed here but unsafe (refused in production): logged as warnings when the server starts. */
  warnings: string[];
  /** Base of the links in e-mails and meta tags (PUBLIC_URL; by default http://localhost:PORT), printed at start-up. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so several stores (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Server processes started by main.ts (node:cluster); more than one needs DATABASE_URL. */
  workers: number;
  jwtSecret: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The outbox worker: started by buildApp unless disabled (tests then call app.mailer.runOnce()). */
  mailWorker: { enabled: boolean; pollMs: number };
  /** PostgreSQL: repeated statements run as named prepared statements (db/prepared-statements.ts). */
  preparedStatements: boolean;
  rateLimits: RateLimits;
  captcha: {
    provider: Env['CAPTCHA_PROVIDER'];
    difficulty: Env['CAPTCHA_DIFFICULTY'];
    recaptchaSecret?: string;
    recaptchaSiteKey?: string;
    recaptchaApiBase: string;
  };
  paypal: { clientId?: string; clientSecret?: string; apiBase: string; webhookId?: string; reconcileMs: number };
  tracking: { provider: Env['TRACKING_PROVIDER']; apiKey?: string; apiBase: string };
  address: { provider: Env['ADDRESS_PROVIDER']; clientId?: string; clientSecret?: string; apiBase: string };
  aliexpress: { appKey?: string; appSecret?: string; callbackUrl?: string; apiBase: string };
  shippingRates: string | undefined;
  /** Unpaid orders hold their stock this long, then a sweeper cancels them (0: never). */
  orderHold: { minutes: number; sweepMs: number };
  /** Keyword searches use the in-process index from this many products (search-index.ts). */
  searchIndexMinProducts: number;
  /**
   * PostgreSQL only: from this many active products the keyword index and the facet table are read in a
   * worker thread, not on the event loop (background-builds.ts).
   */
  indexWorkerMinProducts: number;
  logLevel: Env['LOG_LEVEL'];
  /**
   * PostgreSQL only: the plan (EXPLAIN ANALYZE, BUFFERS) of every statement taking at least this many ms is
   * logged at warn (auto_explain); undefined: off, at no cost.
   */
  slowQueryPlanMs: number | undefined;
  /** Where the built web app lives; undefined in API-only tests. */
  webDist: string | undefined;
}

export class ConfigError extends Error {}

function parseTrustProxy(v: string | undefined): Config['trustProxy'] {
  if (v === undefined || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** The ranges proxy-addr (Fastify's trustProxy) knows by name. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * One comma-separated entry of TRUST_PROXY as proxy-addr reads it: an address, a CIDR range (or an IPv4
 * address with a netmask) or a range name; 'everyone' for a range of every address (a /0).
 */
function proxyEntry(entry: string): 'ok' | 'everyone' | 'bad' {
  if (PROXY_RANGE_NAMES.has(entry)) return 'ok';
  const [address = '', mask, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return 'bad';
  if (mask === undefined) return 'ok';
  if (family === 4 && isIP(mask) === 4) return /^0+\.0+\.0+\.0+$/.test(mask) ? 'everyone' : 'ok';
  if (!/^\d{1,3}$/.test(mask) || Number(mask) > (family === 4 ? 32 : 128)) return 'bad';
  return Number(mask) === 0 ? 'everyone' : 'ok';
}

/**
 * TRUST_PROXY's problem, if any: not a hop count, addresses or ranges; or, in production, trusting every
 * proxy (true, or a /0 range), with which any client can write its own X-Forwarded-For and so choose the
 * address the rate limits count it under. Outside production that is only warned about.
 */
function trustProxyProblem(v: string | undefined, isProduction: boolean): { problem?: string; warning?: string } {
  if (v === undefined || v === '' || v === 'false' || /^\d+$/.test(v)) return {};
  const kinds = v === 'true' ? [] : v.split(',').map((e) => proxyEntry(e.trim()));
  if (kinds.includes('bad'))
    return {
      problem:
        'TRUST_PROXY: must be the number of proxies in front of the server (e.g. 1), or their addresses or CIDR ranges separated by commas (e.g. 10.0.0.0/8), or false',
    };
  if (v !== 'true' && !kinds.includes('everyone')) return {};
  const instead =
    "the number of proxies in front of the server (e.g. TRUST_PROXY=1) or the load balancer's addresses (e.g. TRUST_PROXY=10.0.0.0/8)";
  return isProduction
    ? {
        problem: `TRUST_PROXY: ${v} trusts every proxy, so any client can forge X-Forwarded-For and escape the rate limits; set ${instead}`,
      }
    : {
        warning: `TRUST_PROXY=${v} trusts every proxy: any client can forge X-Forwarded-For and escape the rate limits. Set ${instead}; NODE_ENV=production refuses this setting.`,
      };
}

/**
 * Where the server listens, as a URL: HOST and PORT, with 'localhost' for the any-address hosts. Start-up
 * names PUBLIC_URL (the base of e-mail links, so the browser opened is the site those links reach: a
 * browser keeps the cart per site, and localhost and 127.0.0.1 are two) and adds this when it differs.
 */
export function listenUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Reads (or creates once) the JWT secret kept in the data dir. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  // Empty strings count as unset, as most shells and .env files mean them.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const problems: string[] = [];
  if (isProduction) {
    if (!e.JWT_SECRET) problems.push('JWT_SECRET: required (at least 32 characters) when NODE_ENV=production');
    if (e.CAPTCHA_PROVIDER === 'none') problems.push('CAPTCHA_PROVIDER: none is not allowed when NODE_ENV=production');
    if (e.CAPTCHA_DIFFICULTY === 'low')
      problems.push('CAPTCHA_DIFFICULTY: low is not allowed when NODE_ENV=production');
  }
  if (e.CAPTCHA_PROVIDER === 'recaptcha' && (!e.RECAPTCHA_SECRET || !e.RECAPTCHA_SITE_KEY))
    problems.push(
      'RECAPTCHA_SECRET: RECAPTCHA_SECRET and RECAPTCHA_SITE_KEY are required when CAPTCHA_PROVIDER=recaptcha',
    );
  if (Boolean(e.PAYPAL_CLIENT_ID) !== Boolean(e.PAYPAL_CLIENT_SECRET))
    problems.push('PAYPAL_CLIENT_SECRET: set both PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET, or neither');
  if (e.WORKERS > 1 && !e.DATABASE_URL)
    problems.push(
      'WORKERS: more than one process needs DATABASE_URL (the embedded database allows one process); set DATABASE_URL to a PostgreSQL server or WORKERS=1',
    );
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD))
    problems.push('ADMIN_PASSWORD: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither');
  const trustProxy = trustProxyProblem(e.TRUST_PROXY, isProduction);
  if (trustProxy.problem) problems.push(trustProxy.problem);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);

  const dataDir = path.resolve(e.DATA_DIR);
  const warnings = trustProxy.warning ? [trustProxy.warning] : [];
  if (e.SLOW_QUERY_PLAN_MS !== undefined && !e.DATABASE_URL)
    warnings.push('SLOW_QUERY_PLAN_MS needs DATABASE_URL (PostgreSQL): the embedded database logs no query plans.');
  const config: Config = {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    warnings,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    workers: e.WORKERS,
    jwtSecret: e.JWT_SECRET ?? overrides.jwtSecret ?? persistentSecret(dataDir),
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailWorker: { enabled: e.MAIL_WORKER ?? true, pollMs: 5_000 },
    preparedStatements: e.DB_PREPARED_STATEMENTS ?? true,
    rateLimits: e.NODE_ENV === 'test' ? relaxed(DEFAULT_RATE_LIMITS) : DEFAULT_RATE_LIMITS,
    captcha: {
      provider: e.CAPTCHA_PROVIDER,
      difficulty: e.CAPTCHA_DIFFICULTY,
      recaptchaSecret: e.RECAPTCHA_SECRET,
      recaptchaSiteKey: e.RECAPTCHA_SITE_KEY,
      recaptchaApiBase: e.RECAPTCHA_API_BASE,
    },
    paypal: {
      clientId: e.PAYPAL_CLIENT_ID,
      clientSecret: e.PAYPAL_CLIENT_SECRET,
      apiBase: e.PAYPAL_API_BASE,
      webhookId: e.PAYPAL_WEBHOOK_ID,
      reconcileMs: Math.round(e.PAYPAL_RECONCILE_SECONDS * 1000),
    },
    tracking: { provider: e.TRACKING_PROVIDER, apiKey: e.TRACKING_API_KEY, apiBase: e.TRACKING_API_BASE },
    address: {
      provider: e.ADDRESS_PROVIDER,
      clientId: e.USPS_CLIENT_ID,
      clientSecret: e.USPS_CLIENT_SECRET,
      apiBase: e.USPS_API_BASE,
    },
    aliexpress: {
      appKey: e.ALIEXPRESS_APP_KEY,
      appSecret: e.ALIEXPRESS_APP_SECRET,
      callbackUrl: e.ALIEXPRESS_CALLBACK_URL,
      apiBase: e.ALIEXPRESS_API_BASE,
    },
    shippingRates: e.SHIPPING_RATES,
    orderHold: { minutes: e.ORDER_HOLD_MINUTES, sweepMs: 60_000 },
    searchIndexMinProducts: e.SEARCH_INDEX_MIN_PRODUCTS,
    indexWorkerMinProducts: e.INDEX_WORKER_MIN_PRODUCTS,
    logLevel: e.LOG_LEVEL,
    slowQueryPlanMs: e.SLOW_QUERY_PLAN_MS,
    webDist: undefined,
  };
  // WEB_DIST (a built web app elsewhere, e.g. a second e2e run's) wins over the caller's default
  return { ...config, ...overrides, ...(e.WEB_DIST ? { webDist: path.resolve(e.WEB_DIST) } : {}) };
}
