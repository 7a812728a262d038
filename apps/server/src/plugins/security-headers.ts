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

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeaders(options);
  app.decorate('securityHeaders', headers);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
