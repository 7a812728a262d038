import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, NOTHING_TO_UPDATE, type ApiErrorBody, type ErrorCode } from '@store/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import { HttpError, ServiceUnavailableError, codeForStatus } from '../lib/errors.ts';
import { pgErrorOf } from '../lib/sql.ts';

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

/** The body of every error answer: what went wrong for people, and its code for programs. */
const errorBody = (message: string, code: ErrorCode): ApiErrorBody => ({ message, code });

/** Fastify's own client errors (bad JSON, too large, unsupported media type, rate limit): message and code. */
function clientError(err: FastifyError, status: number): ApiErrorBody {
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError')
    return errorBody('Malformed JSON body', ERROR_CODES.BAD_REQUEST);
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return errorBody('Request body is too large', ERROR_CODES.PAYLOAD_TOO_LARGE);
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return errorBody('Unsupported content type', ERROR_CODES.UNSUPPORTED_MEDIA_TYPE);
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return errorBody('Request body is empty', ERROR_CODES.BAD_REQUEST);
  if (err.validation)
    return errorBody(
      err.message.replace(/^(body|querystring|params|headers)\/?/, '').trim() || 'Invalid request',
      ERROR_CODES.BAD_REQUEST,
    );
  return errorBody(err.message, codeForStatus(status));
}

/**
 * One error handler: typed errors keep their status, message and code; anything else is a 500 that says
 * nothing inside. Every answer is `{ message, code }`.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = (err.validation as unknown as ValidationIssue[])[0];
      const message = first ? describe(first) : 'Invalid request';
      const code = message === NOTHING_TO_UPDATE ? ERROR_CODES.NOTHING_TO_UPDATE : ERROR_CODES.BAD_REQUEST;
      return reply.code(400).send(errorBody(message, code));
    }
    if (err instanceof HttpError) {
      if (err.statusCode === 503) reply.header('retry-after', '5');
      return reply.code(err.statusCode).send(errorBody(err.message, err.code));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(clientError(err, status));
    // PostgreSQL refused a value the request carried (a NUL byte in text, a number out of range): bad input
    const dbCode = pgErrorOf(err)?.code;
    if (dbCode && BAD_INPUT_SQLSTATES.has(dbCode)) {
      req.log.warn({ err }, 'the database refused a value of the request');
      return reply.code(400).send(errorBody('Invalid request', ERROR_CODES.BAD_REQUEST));
    }
    // the database restarting or out of reach: the request may work in a moment (the pool reconnects)
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      const unavailable = new ServiceUnavailableError();
      return reply
        .code(unavailable.statusCode)
        .header('retry-after', '5')
        .send(errorBody(unavailable.message, unavailable.code));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('Internal server error', ERROR_CODES.INTERNAL));
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
 * over maxParamLength) is answered `{ message, code }` like every other error, with the security headers and
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
    .send(errorBody(message, codeForStatus(status)));
}

/** A raw HTTP answer for a connection Node's parser gave up on: `{ message, code }`, then the connection closes. */
function rawAnswer(status: number, message: string, headers: Record<string, string>): string {
  const body = JSON.stringify(errorBody(message, codeForStatus(status)));
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

/** Fastify's `clientErrorHandler` option: the parser's refusals get `{ message, code }` like every other error. */
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
 * What Fastify and Node answer themselves, made `{ message, code }`: a request while the server shuts down
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
    if (closing)
      return reply
        .code(503)
        .header('connection', 'close')
        .send(errorBody(FRAMEWORK_MESSAGES.closing, ERROR_CODES.SERVICE_UNAVAILABLE));
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined)
      return reply.code(400).send(errorBody(FRAMEWORK_MESSAGES.noHost, ERROR_CODES.BAD_REQUEST));
  });
  app.server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = JSON.stringify(errorBody(FRAMEWORK_MESSAGES.expectation, ERROR_CODES.BAD_REQUEST));
    res.writeHead(417, {
      ...headersOf(app),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });
}
