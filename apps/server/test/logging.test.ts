import { afterEach, describe, expect, it } from 'vitest';
import { confirmEmailMail, enqueueMail } from '../src/lib/mailer/index.ts';
import { createTestApp, type TestContext } from './helpers.ts';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}
const INFO = 30;
const DEBUG = 20;
const ERROR = 50;
const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), CAPTCHA_DIFFICULTY: 'normal' };

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** An app whose log lines (JSON, at LOG_LEVEL) are kept for the test; the mail worker runs only when asked. */
async function appWithLog(env: Record<string, string>) {
  const lines: LogLine[] = [];
  t = await createTestApp({ MAIL_WORKER: 'false', ...env }, {}, undefined, {
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
  return { app: t.app, lines };
}

const requestLines = (lines: LogLine[]) =>
  lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');

describe('the server log', () => {
  it('logs requests at debug outside production, so they stay out of an info log', async () => {
    const { app, lines } = await appWithLog({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
    expect((await app.inject({ url: '/api/products' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/no-such-route' })).statusCode).toBe(404);
    expect(requestLines(lines)).toEqual([]);
  });

  it('shows them with LOG_LEVEL=debug', async () => {
    const { app, lines } = await appWithLog({ NODE_ENV: 'development', LOG_LEVEL: 'debug' });
    await app.inject({ url: '/api/products' });
    const logged = requestLines(lines);
    expect(logged.map((l) => [l.msg, l.level])).toEqual([
      ['incoming request', DEBUG],
      ['request completed', DEBUG],
    ]);
    expect(logged[0]).toMatchObject({ req: { method: 'GET', url: '/api/products' } });
    expect(logged[1]).toMatchObject({ res: { statusCode: 200 } });
  });

  it('writes one line per request in production, when it completes, with what an operator searches by', async () => {
    const { app, lines } = await appWithLog({ ...PRODUCTION, LOG_LEVEL: 'info' });
    const sent = [
      await app.inject({ url: '/api/products?pageNumber=1' }),
      await app.inject({ url: '/api/no-such-route?token=tok-in-query-123' }),
      await app.inject({
        method: 'POST',
        url: '/api/users/confirm/tok-in-path-456',
        headers: { authorization: 'Bearer secret-bearer-789', cookie: 'jwt=secret-cookie-012' },
      }),
    ];
    expect(requestLines(lines).map((l) => l.msg)).toEqual([
      'request completed',
      'request completed',
      'request completed',
    ]);
    const ids = sent.map((res) => String(res.headers['x-request-id']));
    // every line of these requests is its one request line
    expect(ids.map((id) => lines.filter((l) => l.reqId === id).length)).toEqual([1, 1, 1]);
    const [page, missing, confirm] = ids.map((id) => lines.find((l) => l.reqId === id)!);
    expect(page).toEqual({
      ...page,
      level: INFO,
      method: 'GET',
      route: '/api/products',
      url: '/api/products?pageNumber=1',
      statusCode: 200,
      responseTime: expect.any(Number),
    });
    // no route matched: the route is the (redacted) URL
    expect(missing).toMatchObject({
      level: INFO,
      method: 'GET',
      route: '/api/no-such-route?token=[redacted]',
      url: '/api/no-such-route?token=[redacted]',
      statusCode: 404,
    });
    expect(confirm).toMatchObject({
      level: INFO,
      method: 'POST',
      route: '/api/users/confirm/:token',
      url: '/api/users/confirm/[redacted]',
      statusCode: sent[2]!.statusCode,
    });
    const log = JSON.stringify(lines);
    for (const secret of ['tok-in-query-123', 'tok-in-path-456', 'secret-bearer-789', 'secret-cookie-012'])
      expect(log).not.toContain(secret);
  });

  it("logs a failed request's line at error, with the error's detail", async () => {
    const lines: LogLine[] = [];
    t = await createTestApp(
      { MAIL_WORKER: 'false', ...PRODUCTION, LOG_LEVEL: 'info' },
      {},
      (app) => {
        app.get('/api/test-broken/:id', async () => {
          throw new Error('the broken detail');
        });
        app.get('/api/test-unavailable', async (_req, reply) => reply.code(503).send({ message: 'later' }));
      },
      { logStream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
    );
    const broken = await t.app.inject({ url: '/api/test-broken/7' });
    const unavailable = await t.app.inject({ url: '/api/test-unavailable' });
    expect([broken.statusCode, unavailable.statusCode]).toEqual([500, 503]);
    const lineOf = (res: typeof broken) => requestLines(lines).filter((l) => l.reqId === res.headers['x-request-id']);
    const [brokenLine] = lineOf(broken);
    expect(lineOf(broken)).toHaveLength(1);
    expect(brokenLine).toMatchObject({
      level: ERROR,
      method: 'GET',
      route: '/api/test-broken/:id',
      url: '/api/test-broken/7',
      statusCode: 500,
      responseTime: expect.any(Number),
      err: { type: 'Error', message: 'the broken detail', stack: expect.stringContaining('the broken detail') },
    });
    expect(lineOf(unavailable)).toEqual([
      expect.objectContaining({ level: ERROR, route: '/api/test-unavailable', statusCode: 503 }),
    ]);
    expect(lineOf(unavailable)[0]).not.toHaveProperty('err');
  });

  it('without SMTP_URL, writes the recipient, subject and links of each outbox mail at info', async () => {
    const { app, lines } = await appWithLog({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
    const link = `${app.config.publicUrl}/user/confirm/tok-123`;
    await enqueueMail(app.db, confirmEmailMail(app.config.publicUrl, 'new@example.com', 'Nia', 'tok-123'));
    expect(await app.mailer.runOnce()).toBe(1);
    const mail = lines.find((l) => l.msg.startsWith('mail kept in the outbox'));
    expect(mail).toMatchObject({
      level: INFO,
      to: 'new@example.com',
      subject: expect.stringContaining('Confirm your e-mail address'),
      links: [link],
    });
    // in the message itself, where a reader of the console sees it
    expect(mail!.msg).toContain('new@example.com');
    expect(mail!.msg).toContain('Confirm your e-mail address');
    expect(mail!.msg).toContain(link);
  });

  it('writes no link of a mail in production, where links carry single-use tokens', async () => {
    const { app, lines } = await appWithLog({ ...PRODUCTION, LOG_LEVEL: 'info' });
    await enqueueMail(app.db, confirmEmailMail(app.config.publicUrl, 'prod@example.com', 'Pat', 'tok-456'));
    expect(await app.mailer.runOnce()).toBe(1);
    const mail = lines.find((l) => l.msg.startsWith('mail kept in the outbox'));
    expect(mail).toMatchObject({ level: INFO, to: 'prod@example.com' });
    expect(JSON.stringify(mail)).not.toContain('tok-456');
  });
});
