import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { NO_WORKER } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { freePort, startSmtp } from '#test/smtp.ts';
import {
  MAX_ATTEMPTS,
  confirmEmailMail,
  contactNoticeMail,
  createMailer,
  enqueueMail,
  orderConfirmationMail,
  orderShippedMail,
  resetPasswordMail,
  retryDelayMs,
} from './index.ts';

const mail = (to: string) => ({ to, subject: 'Hello', html: '<p>Hi</p>', text: 'Hi there' });
const MINUTE = 60_000;

function captureLog() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const push = (obj: Record<string, unknown>, msg: string) => void lines.push({ obj, msg });
  const log = { info: push, warn: push, error: push, debug: push } as unknown as FastifyBaseLogger;
  return { log, lines };
}

async function row(t: TestContext, id: string) {
  const [r] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return r!;
}

describe('the outbox (no SMTP_URL)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('queues mail only when the transaction commits', async () => {
    const db = t.database.db;
    await db.transaction(async (tx) => enqueueMail(tx, mail('kept@example.com')));
    await db
      .transaction(async (tx) => {
        await enqueueMail(tx, mail('rolled-back@example.com'));
        throw new Error('the change failed');
      })
      .catch(() => {});
    const rows = await db.select().from(mailOutbox);
    expect(rows.map((r) => r.to)).toEqual(['kept@example.com']);
  });

  it('marks mail sent and logs it, with the text outside production only', async () => {
    const id = await enqueueMail(t.database.db, mail('dev@example.com'));
    const dev = captureLog();
    await createMailer(t.database.db, t.config, dev.log).runOnce();
    expect(await row(t, id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(dev.lines.find((l) => l.obj.mailId === id)?.obj).toMatchObject({
      to: 'dev@example.com',
      subject: 'Hello',
      text: 'Hi there',
    });

    const id2 = await enqueueMail(t.database.db, mail('prod@example.com'));
    const prod = captureLog();
    await createMailer(t.database.db, { ...t.config, isProduction: true }, prod.log).runOnce();
    const line = prod.lines.find((l) => l.obj.mailId === id2)!;
    expect(line.obj).toMatchObject({ to: 'prod@example.com', subject: 'Hello' });
    expect(line.obj.text).toBeUndefined();
  });

  it('claims a mail again when a process died while sending it', async () => {
    const id = await enqueueMail(t.database.db, mail('crash@example.com'));
    await t.database.db
      .update(mailOutbox)
      .set({ status: 'sending', attempts: 1, lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(mailOutbox.id, id));
    await t.app.mailer.runOnce();
    expect(await row(t, id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('keeps a backlog of hundreds in one run, shared by two workers racing, each mail once', async () => {
    const db = t.database.db;
    const ids = new Set<string>();
    for (let i = 0; i < 450; i++) ids.add(await enqueueMail(db, mail(`backlog${i}@example.com`)));
    const a = captureLog();
    const b = captureLog();
    const [na, nb] = await Promise.all([
      createMailer(db, t.config, a.log).runOnce(),
      createMailer(db, t.config, b.log).runOnce(),
    ]);
    expect(na + nb).toBe(450);
    const logged = [...a.lines, ...b.lines].map((l) => l.obj.mailId as string).filter((id) => ids.has(id));
    expect(logged).toHaveLength(450);
    expect(new Set(logged).size).toBe(450);
    const rows = (await db.select().from(mailOutbox)).filter((r) => ids.has(r.id));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1 && r.sentAt !== null)).toBe(true);
    expect(await createMailer(db, t.config, a.log).runOnce()).toBe(0);
  });
});

describe('SMTP delivery with retries', () => {
  let t: TestContext;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` }, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('backs off exponentially', () => {
    expect([1, 2, 3, 4, 8].map(retryDelayMs)).toEqual([MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 120 * MINUTE]);
  });

  it('retries while the server is down and delivers exactly once when it is back', async () => {
    const id = await enqueueMail(t.database.db, mail('retry@example.com'));
    expect(await t.app.mailer.runOnce()).toBe(0);
    const failed = await row(t, id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(50_000);
    // not due yet: nothing is tried
    expect(await t.app.mailer.runOnce()).toBe(0);
    expect((await row(t, id)).attempts).toBe(1);

    const smtp = await startSmtp(port);
    try {
      const later = new Date(Date.now() + 2 * MINUTE);
      expect(await t.app.mailer.runOnce(later)).toBe(1);
      expect(await t.app.mailer.runOnce(new Date(Date.now() + 60 * MINUTE))).toBe(0);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]).toMatchObject({ to: ['retry@example.com'], subject: 'Hello' });
      expect(smtp.messages[0]!.text.trim()).toBe('Hi there');
      expect(await row(t, id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    } finally {
      await smtp.close();
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const id = await enqueueMail(t.database.db, mail('never@example.com'));
    let now = Date.now();
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      await t.app.mailer.runOnce(new Date(now));
      now += 3 * 60 * MINUTE;
    }
    expect(await row(t, id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
  });
});

describe('templates', () => {
  const base = 'https://shop.example.test';
  it('build working links from PUBLIC_URL, in HTML and text', () => {
    const confirm = confirmEmailMail(base, 'a@example.com', 'Ada', 'tok123');
    expect(confirm.text).toContain(`${base}/user/confirm/tok123`);
    expect(confirm.html).toContain(`href="${base}/user/confirm/tok123"`);
    expect(confirm.subject).toBe('Confirm your e-mail address | Store');
    expect(resetPasswordMail(base, 'a@example.com', 'Ada', 'r1').text).toContain(`${base}/users/resetpw/r1`);

    const order = orderConfirmationMail(base, {
      to: 'a@example.com',
      name: 'Ada',
      orderId: 'abc',
      orderNumber: 1042,
      items: [{ name: 'Mug', qty: 2, price: 9.5 }],
      totalPrice: 21.85,
    });
    expect(order.subject).toBe('Order #1042 received | Store');
    expect(order.text).toContain(`${base}/order/abc`);
    expect(order.text).toContain('2 x Mug at $9.50');
    expect(order.text).toContain('$21.85');
    const shipped = orderShippedMail(base, {
      to: 'a@example.com',
      name: 'Ada',
      orderId: 'abc',
      orderNumber: 1042,
      trackingNumbers: [{ number: '1Z999', trackingItem: ['Mug'] }],
    });
    expect(shipped.subject).toBe('Order #1042 has shipped | Store');
    expect(shipped.text).toContain('1Z999 (Mug)');
    expect(shipped.html).toContain(`${base}/order/abc`);
  });

  it('escapes what people typed', () => {
    const notice = contactNoticeMail(base, {
      to: 'admin@example.com',
      name: 'Eve',
      email: 'eve@example.com',
      subject: 'Hi',
      message: '<script>alert(1)</script>',
    });
    expect(notice.html).not.toContain('<script>');
    expect(notice.html).toContain('&lt;script&gt;');
  });
});
