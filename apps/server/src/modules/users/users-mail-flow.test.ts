import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { solveCaptcha } from '#test/captcha.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { freePort, linkToken, startSmtp, type TestSmtp } from '#test/smtp.ts';

const PUBLIC_URL = 'https://shop.example.test';

describe('the mails of an account, through a real SMTP server', () => {
  let t: TestContext;
  let smtp: TestSmtp;
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

  beforeAll(async () => {
    smtp = await startSmtp();
    // the worker runs as in production: woken after each commit that queued mail
    t = await createTestApp({ PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'Store <shop@example.test>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('register → confirm link → sign in → forgot → reset link → sign in with the new password', async () => {
    const email = 'mail.flow@example.com';
    const reg = await post('/api/users', {
      firstName: 'Mail',
      lastName: 'Flow',
      username: 'mailflow',
      email: 'Mail.Flow@Example.com',
      password: 'First-pass-1',
      grecaptcha: await solveCaptcha(t.app),
    });
    expect(reg.statusCode, reg.body).toBe(201);

    const [confirmMail] = await smtp.waitFor(1);
    expect(confirmMail!.to).toEqual([email]);
    expect(confirmMail!.from).toBe('shop@example.test');
    expect(confirmMail!.subject).toBe('Confirm your e-mail address | Store');
    expect(confirmMail!.html).toContain(`href="${PUBLIC_URL}/user/confirm/`);
    const confirmToken = linkToken(confirmMail!, `${PUBLIC_URL}/user/confirm`);
    expect((await post(`/api/users/confirm/${confirmToken}`, {})).statusCode).toBe(200);

    const login = await post('/api/users/login', {
      email,
      password: 'First-pass-1',
      grecaptcha: await solveCaptcha(t.app),
    });
    expect(login.statusCode, login.body).toBe(200);

    expect((await post('/api/users/fpw', { email })).statusCode).toBe(200);
    const mails = await smtp.waitFor(2);
    expect(mails[1]!.subject).toBe('Reset your password | Store');
    const resetToken = linkToken(mails[1]!, `${PUBLIC_URL}/users/resetpw`);
    expect((await post(`/api/users/resetpw/${resetToken}`, { newPassword: 'Second-pass-2' })).statusCode).toBe(200);

    const old = await post('/api/users/login', {
      email,
      password: 'First-pass-1',
      grecaptcha: await solveCaptcha(t.app),
    });
    expect(old.statusCode).toBe(401);
    const fresh = await post('/api/users/login', {
      email,
      password: 'Second-pass-2',
      grecaptcha: await solveCaptcha(t.app),
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ email, isActive: true });
    expect(smtp.messages).toHaveLength(2);
  });
});

describe('a mail failure never fails the request', () => {
  it('registers while the SMTP server is down; the mail waits in the outbox to be retried', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, CAPTCHA_PROVIDER: 'none' });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: {
          firstName: 'Down',
          lastName: 'Time',
          username: 'downtime',
          email: 'down@example.com',
          password: 'Down-time-1',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      await t.app.mailer.runOnce();
      const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'down@example.com'));
      expect(mail).toMatchObject({ status: 'pending', attempts: 1 });
      expect(mail!.lastError).toBeTruthy();
      expect(mail!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await t.close();
    }
  });
});
