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

  it("keeps every request in production's log at info", async () => {
    const { app, lines } = await appWithLog({ ...PRODUCTION, LOG_LEVEL: 'info' });
    await app.inject({ url: '/api/products' });
    expect(requestLines(lines).map((l) => [l.msg, l.level])).toEqual([
      ['incoming request', INFO],
      ['request completed', INFO],
    ]);
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
