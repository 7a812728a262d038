import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer, computed once. @fastify/helmet builds the helmet
 * middleware again for every request (parsing the whole Content-Security-Policy each time): about a
 * quarter of the CPU of a cached catalogue answer. The headers depend only on the options, so helmet
 * runs once here against a stand-in response, and each request gets the same header values.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failed: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers every answer carries, also for answers made without a route (plugins/errors.ts). */
    securityHeaders: Record<string, string>;
  }
}

/** What the store's pages need beyond their own origin. */
interface SecurityHeadersOptions {
  /** Hashes of the page's inline scripts (`'sha256-…'`): the only inline scripts allowed. */
  scriptHashes: string[];
  /** Google reCAPTCHA is the captcha: its scripts, frames and calls are allowed. */
  recaptcha: boolean;
  /** HTTPS only: insecure requests are upgraded and browsers told to keep to HTTPS (HSTS). */
  production: boolean;
}

/**
 * The Content-Security-Policy and the other headers: scripts from this origin, the page's own inline
 * script (by hash), PayPal's checkout and reCAPTCHA when it is the captcha; YouTube videos in frames;
 * images from anywhere over HTTPS; nothing may frame the store.
 */
function helmetOptions({ scriptHashes, recaptcha, production }: SecurityHeadersOptions): HelmetOptions {
  const paypal = ['https://www.paypal.com', 'https://www.sandbox.paypal.com'];
  const google = recaptcha ? ['https://www.google.com', 'https://www.gstatic.com'] : [];
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scriptHashes, ...paypal, ...google],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", ...paypal, ...google],
        frameSrc: ["'self'", 'https://www.youtube-nocookie.com', 'https://www.youtube.com', ...paypal, ...google],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: production ? [] : null,
      },
    },
    hsts: production ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  const headers = securityHeaders(helmetOptions(options));
  app.decorate('securityHeaders', headers);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
