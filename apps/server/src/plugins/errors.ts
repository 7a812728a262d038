import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import { HttpError, ServiceUnavailableError } from '../lib/errors.ts';

interface ValidationIssue {
  message?: string;
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

/** zod's own wording ("Invalid input: expected string") gets the field name; our messages stand alone. */
function describe(issue: ValidationIssue): string {
  const inner = issue.params?.issue;
  const message = inner?.message ?? issue.message ?? 'Invalid input';
  const field = (inner?.path ?? []).map(String).join('.') || issue.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  const generic =
    /^(Invalid|Too (big|small)|Expected|Unrecognized|Required)/i.test(message) &&
    /expected|invalid input|too (big|small)|unrecognized/i.test(message);
  return field && generic ? `${field}: ${message}` : message;
}

/** SQLSTATEs of values PostgreSQL cannot take: untranslatable or invalid text, numbers or dates out of range. */
const BAD_INPUT_SQLSTATES = new Set(['22021', '22P05', '22P02', '22003', '22007', '22008']);

/** One error handler: typed errors keep their status and message; anything else is a 500 that says nothing inside. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = (err.validation as unknown as ValidationIssue[])[0];
      return reply.code(400).send({ message: first ? describe(first) : 'Invalid request' });
    }
    if (err instanceof HttpError) {
      if (err.statusCode === 503) reply.header('retry-after', '5');
      return reply.code(err.statusCode).send({ message: err.message });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, too large, unsupported media type, rate limit)
      let message = err.message;
      if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError') message = 'Malformed JSON body';
      else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) message = 'Request body is too large';
      else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'Unsupported content type';
      else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') message = 'Request body is empty';
      else if (err.validation)
        message = err.message.replace(/^(body|querystring|params|headers)\/?/, '').trim() || 'Invalid request';
      return reply.code(status).send({ message });
    }
    // PostgreSQL refused a value the request carried (a NUL byte in text, a number out of range): bad input
    const dbCode = (err as { code?: unknown }).code ?? (err.cause as { code?: unknown } | undefined)?.code;
    if (typeof dbCode === 'string' && BAD_INPUT_SQLSTATES.has(dbCode)) {
      req.log.warn({ err }, 'the database refused a value of the request');
      return reply.code(400).send({ message: 'Invalid request' });
    }
    // the database restarting or out of reach: the request may work in a moment (the pool reconnects)
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      const unavailable = new ServiceUnavailableError();
      return reply.code(unavailable.statusCode).header('retry-after', '5').send({ message: unavailable.message });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Internal server error' });
  });
}

// ---- errors answered before any route runs ---------------------------------------------------------

const FRAMEWORK_MESSAGES = {
  badUrl: 'Malformed URL',
  urlTooLong: 'URL is too long',
  headersTooLarge: 'Request headers are too large',
  badRequest: 'Bad request',
  timeout: 'Request timed out',
  noHost: 'Host header is required',
  expectation: 'Only Expect: 100-continue is supported',
  closing: 'Server is shutting down',
  internal: 'Internal server error',
} as const;

/** The status and message of an error Fastify's router raises before any route (and its hooks) runs. */
function routerAnswer(code: string): [number, string] {
  if (code === 'FST_ERR_BAD_URL') return [400, FRAMEWORK_MESSAGES.badUrl];
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return [414, FRAMEWORK_MESSAGES.urlTooLong];
  return [500, FRAMEWORK_MESSAGES.internal];
}

/** The security headers registerSecurityHeaders gives every routed answer, for answers made without a route. */
const headersOf = (app: FastifyInstance): Record<string, string> =>
  (app.hasDecorator('securityHeaders') && app.securityHeaders) || {};

/**
 * Fastify's `frameworkErrors` option: a URL the router cannot take (bad percent-encoding, a path parameter
 * over maxParamLength) is answered `{ message }` like every other error, with the security headers and
 * the request id, and without the URL echoed back (Fastify's own answer repeats it and adds its fields).
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const [status, message] = routerAnswer(err.code);
  if (status >= 500) req.log.error({ err }, 'router error');
  void reply
    .code(status)
    .headers(headersOf(req.server))
    .header('x-request-id', req.id)
    .type('application/json; charset=utf-8')
    .send({ message });
}

/** A raw HTTP answer for a connection Node's parser gave up on: `{ message }`, then the connection closes. */
function rawAnswer(status: number, message: string, headers: Record<string, string>): string {
  const body = JSON.stringify({ message });
  const lines = Object.entries({
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  }).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * What Node's HTTP parser refused: headers over the size limit are 431, unless the request line alone
 * takes most of that room (then the URL is at fault: 414); a request that took too long is 408; anything
 * else the parser cannot read is 400.
 */
function parserAnswer(err: Error & { code?: string; rawPacket?: unknown }): [number, string] {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, FRAMEWORK_MESSAGES.timeout];
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
    const lineEnd = raw?.indexOf('\r\n') ?? 0;
    const requestLine = lineEnd === -1 ? (raw?.length ?? 0) : lineEnd;
    return requestLine > http.maxHeaderSize / 2
      ? [414, FRAMEWORK_MESSAGES.urlTooLong]
      : [431, FRAMEWORK_MESSAGES.headersTooLarge];
  }
  return [400, FRAMEWORK_MESSAGES.badRequest];
}

/** Fastify's `clientErrorHandler` option: the parser's refusals get `{ message }` like every other error. */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex): void {
  // a connection the client reset, or already gone: nobody to answer
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = parserAnswer(err);
  this.log.debug({ err }, 'client error');
  // an answer already under way on this connection cannot be followed by another one
  const answering = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage?.headersSent;
  if (socket.writable && !answering) socket.end(rawAnswer(status, message, headersOf(this)));
  else socket.destroy(err);
}

/**
 * What Fastify and Node answer themselves, made `{ message }`: a request while the server shuts down
 * (Fastify's own 503 is turned off by return503OnClosing: false), an HTTP/1.1 request without a Host
 * header (Node's own 400 has no body; requireHostHeader: false leaves it to this hook), and an Expect
 * header other than 100-continue (Node's own 417 has no body). Registered after the security headers, so
 * these answers carry them.
 */
export function registerFrameworkErrors(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (req, reply) => {
    if (closing) return reply.code(503).header('connection', 'close').send({ message: FRAMEWORK_MESSAGES.closing });
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined)
      return reply.code(400).send({ message: FRAMEWORK_MESSAGES.noHost });
  });
  app.server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = JSON.stringify({ message: FRAMEWORK_MESSAGES.expectation });
    res.writeHead(417, {
      ...headersOf(app),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });
}
