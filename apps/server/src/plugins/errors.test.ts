import { changesSomething } from '@store/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NO_WORKER } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { ConflictError, HttpError } from '../lib/errors.ts';

/**
 * The one error handler: every error answer is `{ message, code }` with a fitting status. Fastify's own
 * refusals of a body, a value the database refuses, the database out of reach and an unexpected throw
 * are each seen here through routes of this test, registered on a real app.
 */
const SECRET_SQL = 'select password_hash from users where email = $1';
const SECRET_PATH = '/srv/store/apps/server/src/modules/secret.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, NO_WORKER, (app) => {
    app.post('/test/echo', async (req) => ({ body: req.body ?? null }));
    app.put(
      '/test/update',
      { schema: { body: changesSomething(z.object({ name: z.string().optional() })) } },
      async () => ({ updated: true }),
    );
    app.get('/test/crash', async () => {
      const err = new Error(`${SECRET_SQL} failed in ${SECRET_PATH}`);
      err.stack = `Error: boom\n    at handler (${SECRET_PATH}:12:3)`;
      throw err;
    });
    // a value PostgreSQL cannot take (not a number where one is needed), refused by the real database
    app.get('/test/bad-value', async () => app.db.execute(sql`select ${'not a number'}::int as n`));
    // the driver's words when the database went away mid-request
    app.get('/test/db-gone', async () => {
      throw new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') });
    });
    app.get('/test/db-refusing', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    app.get('/test/typed', async () => {
      throw new ConflictError('Not enough stock for Lamp', 'OUT_OF_STOCK');
    });
    app.get('/test/status-only', async () => {
      throw new HttpError(502, 'The carrier did not answer');
    });
  });
});
afterAll(async () => t?.close());

const post = (payload: string | Buffer, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': contentType }, payload });

describe('the error handler', () => {
  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await post('{"email": "a@example.com",');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: 'Malformed JSON body', code: 'BAD_REQUEST' });
  });

  it('answers an empty JSON body with 400 BAD_REQUEST', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is empty', code: 'BAD_REQUEST' });
  });

  it('answers a content type no route reads with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await post('<order/>', 'application/xml');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await post(JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 1) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a field that breaks a rule with 400 BAD_REQUEST naming the rule', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/mailing-list/subscribe', payload: { email: 'nope' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid email format', code: 'BAD_REQUEST' });
  });

  it('answers an update that changes nothing with 400 NOTHING_TO_UPDATE', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/test/update', payload: { unknown: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Nothing to update', code: 'NOTHING_TO_UPDATE' });
  });

  it('answers a URL no route serves with 404 NOT_FOUND', async () => {
    const res = await t.app.inject({ url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found: GET /api/nothing/here', code: 'NOT_FOUND' });
  });

  it('answers a value the database refuses with 400 BAD_REQUEST, saying nothing of the SQL', async () => {
    const res = await t.app.inject({ url: '/test/bad-value' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid request', code: 'BAD_REQUEST' });
  });

  it('answers the database out of reach with 503 SERVICE_UNAVAILABLE and Retry-After', async () => {
    for (const url of ['/test/db-gone', '/test/db-refusing']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        message: 'Service temporarily unavailable, please try again',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
  });

  it('answers an unexpected throw with 500 INTERNAL and no stack, SQL or file path', async () => {
    const res = await t.app.inject({ url: '/test/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
    for (const secret of ['select', 'password_hash', '/srv/store', 'secret.ts', 'boom', ' at '])
      expect(res.body).not.toContain(secret);
  });

  it('keeps a typed error’s status, message and code; a status alone gives its usual code', async () => {
    const typed = await t.app.inject({ url: '/test/typed' });
    expect(typed.statusCode).toBe(409);
    expect(typed.json()).toEqual({ message: 'Not enough stock for Lamp', code: 'OUT_OF_STOCK' });
    const plain = await t.app.inject({ url: '/test/status-only' });
    expect(plain.statusCode).toBe(502);
    expect(plain.json()).toEqual({ message: 'The carrier did not answer', code: 'UPSTREAM_FAILED' });
  });
});
