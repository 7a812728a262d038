import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase, type Database } from '#server/db/client.ts';
import { NO_WORKER, lastMailTo } from '../accounts.ts';
import { solveCaptcha } from '../captcha.ts';
import { createProduct } from '../factories.ts';
import { orderBody, usAddress } from '../orders-support.ts';
import { paypalOrder, paypalStandIn } from '../paypal-stand-in.ts';
import { linkToken } from '../smtp.ts';
import { PGLITE_TEMPLATE, adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from '../test-db.ts';
import { capture } from './routes.ts';

vi.mock('fastify', async (importOriginal) => (await import('./routes.ts')).wrapFastify(await importOriginal()));

/**
 * The structured log of a whole journey at LOG_LEVEL=trace: register, confirm, sign in, reset a
 * password, a guest with its cookie, an order, a PayPal payment through the local stand-in, a guest access
 * token. No secret the client or PayPal sent may appear in it, and every answer's x-request-id names the
 * log lines of its request.
 */
const answers = new Map<string, { status: number; body: unknown }>();
let paypal: Awaited<ReturnType<typeof paypalStandIn>>;
let app: FastifyInstance;
let database: Database;
let dataDir: string;
let drop: () => Promise<void> = async () => {};
const secrets = new Map<string, string>();
const responses: LightMyRequestResponse[] = [];

async function send(o: InjectOptions) {
  const res = await app.inject(o);
  responses.push(res);
  return res;
}

describe('log redaction and request ids', () => {
  beforeAll(async () => {
    paypal = await paypalStandIn(answers);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-log-'));
    const config = {
      ...loadConfig(
        {
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          CAPTCHA_DIFFICULTY: 'low',
          LOG_LEVEL: 'trace',
          PAYPAL_CLIENT_ID: 'client-id',
          PAYPAL_CLIENT_SECRET: 'client-secret',
          PAYPAL_API_BASE: paypal.url,
        },
        { jwtSecret: 'log-test-secret-log-test-secret-0123456789' },
      ),
      ...NO_WORKER,
    };
    if (testDbKind() === 'postgres') {
      const name = randomDbName();
      await adminQuery(`CREATE DATABASE ${name} TEMPLATE store_tpl_${process.env.STORE_TEST_RUN}`);
      database = await openDatabase({ databaseUrl: withDatabase(adminUrl(), name), poolSize: 3 });
      drop = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } else {
      database = await openDatabase({ pgliteDump: new Blob([readFileSync(PGLITE_TEMPLATE)]) });
    }
    capture.on = true;
    app = await buildApp({ config, database, logger: true });
    await app.ready();
    capture.on = false;
    secrets.set('the PayPal client secret', 'client-secret');
    secrets.set('the PayPal client id:secret', Buffer.from('client-id:client-secret').toString('base64'));
    secrets.set('the PayPal access token', 'A21AA-token');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await drop();
    await paypal?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a whole journey', async () => {
    const email = 'log.person@example.com';
    const password = 'Log-secret-pass-1';
    const captcha1 = await solveCaptcha(app);
    secrets.set('a captcha answer', captcha1);
    secrets.set('the password', password);
    const reg = await send({
      method: 'POST',
      url: '/api/users',
      payload: { firstName: 'Log', lastName: 'Person', username: 'log_person', email, password, grecaptcha: captcha1 },
    });
    expect(reg.statusCode).toBe(201);
    secrets.set('the sign-up token', reg.json().registerToken);
    const confirmToken = linkToken((await lastMailTo(database.db, email))!, `${app.config.publicUrl}/user/confirm`);
    secrets.set('the confirmation token', confirmToken);
    expect((await send({ method: 'POST', url: `/api/users/confirm/${confirmToken}` })).statusCode).toBe(200);

    const captcha2 = await solveCaptcha(app);
    secrets.set('a second captcha answer', captcha2);
    const login = await send({
      method: 'POST',
      url: '/api/users/login',
      payload: { email, password, grecaptcha: captcha2 },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().token as string;
    secrets.set('the bearer token', token);
    secrets.set('the bearer token signature', token.split('.')[2]!);
    const bearer = { authorization: `Bearer ${token}` };

    expect((await send({ method: 'POST', url: '/api/users/fpw', payload: { email } })).statusCode).toBe(200);
    const resetToken = linkToken((await lastMailTo(database.db, email))!, `${app.config.publicUrl}/users/resetpw`);
    secrets.set('the reset token', resetToken);
    const newPassword = 'Log-new-secret-2';
    secrets.set('the new password', newPassword);
    expect(
      (await send({ method: 'POST', url: `/api/users/resetpw/${resetToken}`, payload: { newPassword } })).statusCode,
    ).toBe(200);
    const relogin = await send({
      method: 'POST',
      url: '/api/users/login',
      payload: { email, password: newPassword, grecaptcha: await solveCaptcha(app) },
    });
    const token2 = relogin.json().token as string;
    secrets.set('the second bearer token', token2);
    const auth = { authorization: `Bearer ${token2}` };

    // a guest: the cookie's token
    const guest = await send({
      method: 'POST',
      url: '/api/users/guest',
      payload: { grecaptcha: await solveCaptcha(app) },
    });
    const cookie = String([guest.headers['set-cookie']].flat()[0]).split(';')[0]!;
    secrets.set('the guest cookie token', cookie.split('=')[1]!);
    expect((await send({ method: 'GET', url: '/api/users/session', headers: { cookie } })).statusCode).toBe(200);
    await send({
      method: 'PUT',
      url: '/api/users/profile',
      headers: { cookie },
      payload: { shippingAddress: usAddress, email: 'guest.log@example.com' },
    });

    // an order, paid through the PayPal stand-in
    const product = await createProduct(database.db, { priceCents: 2000, countInStock: 10 });
    const order = await send({
      method: 'POST',
      url: '/api/orders',
      headers: auth,
      payload: orderBody([{ product: product.id, qty: 1 }]),
    });
    expect(order.statusCode).toBe(201);
    answers.set('PAYPAL-ORDER-1', {
      status: 200,
      body: paypalOrder('PAYPAL-ORDER-1', order.json().totalPrice.toFixed(2)),
    });
    const paid = await send({
      method: 'PUT',
      url: `/api/orders/${order.json()._id}/pay`,
      headers: auth,
      payload: { paymentResult: { id: 'PAYPAL-ORDER-1', status: 'COMPLETED', email_address: 'payer@example.com' } },
    });
    expect(paid.statusCode, paid.body).toBe(200);

    // the guest's order and a guest access token for it
    const gOrder = await send({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie },
      payload: orderBody([{ product: product.id, qty: 1 }]),
    });
    expect(gOrder.statusCode).toBe(201);
    const access = await send({
      method: 'POST',
      url: `/api/orders/${gOrder.json()._id}/guest-access`,
      payload: { email: 'guest.log@example.com', postalCode: usAddress.postalCode },
    });
    const accessToken = access.json().accessToken as string;
    secrets.set('the guest access token', accessToken);
    expect(
      (await send({ method: 'GET', url: `/api/orders/${gOrder.json()._id}/guest?accessToken=${accessToken}` }))
        .statusCode,
    ).toBe(200);
    // the old token is refused (and the refusal is logged)
    expect((await send({ method: 'GET', url: '/api/orders/myorders', headers: bearer })).statusCode).toBe(401);
    await send({ method: 'POST', url: '/api/users/logout', headers: { cookie } });
  });

  it('logged the journey at trace level, as JSON lines', () => {
    expect(capture.lines.length).toBeGreaterThan(30);
    for (const line of capture.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('never writes a password, token, cookie, captcha answer or PayPal credential into the log', () => {
    const log = capture.lines.join('');
    expect(log.length).toBeGreaterThan(1000);
    const found = [...secrets].filter(([, value]) => value.length >= 8 && log.includes(value)).map(([what]) => what);
    expect(found).toEqual([]);
    // the requests themselves are logged, with the secrets of their URLs cut out: the check above is not vacuous
    expect(log).toContain('/api/users/confirm/[redacted]');
    expect(log).toContain('/api/users/resetpw/[redacted]');
    expect(log).toContain('/guest?accessToken=[redacted]');
  });

  it('answers every request with an x-request-id that names its log lines', () => {
    const ids = new Map<string, number>();
    for (const line of capture.lines) {
      const reqId = (JSON.parse(line) as { reqId?: string }).reqId;
      if (reqId) ids.set(reqId, (ids.get(reqId) ?? 0) + 1);
    }
    expect(responses.length).toBeGreaterThan(15);
    const seen = new Set<string>();
    for (const res of responses) {
      const id = String(res.headers['x-request-id'] ?? '');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(ids.get(id) ?? 0, `log lines of request ${id}`).toBeGreaterThanOrEqual(2); // incoming + completed
      expect(seen.has(id)).toBe(false);
      seen.add(id);
    }
  });
});
