import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/errors.ts';

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

/** SQLSTATEs of values PostgreSQL cannot take: untranslatable or invalid text, numbers out of range. */
const BAD_INPUT_SQLSTATES = new Set(['22021', '22P05', '22P02', '22003']);

/** One error handler: typed errors keep their status and message; anything else is a 500 that says nothing inside. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = (err.validation as unknown as ValidationIssue[])[0];
      return reply.code(400).send({ message: first ? describe(first) : 'Invalid request' });
    }
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ message: err.message });
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
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Internal server error' });
  });
}
