import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, supportMessages } from '#server/db/schema/index.ts';
import { NO_WORKER, createAccount, lastMailTo } from '#test/accounts.ts';
import { solveCaptcha } from '#test/captcha.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest } from '#test/orders-support.ts';

let t: TestContext;
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

const contact = (o: Record<string, unknown> = {}) => ({
  name: 'Grace Hopper',
  email: 'Grace@Example.com',
  subject: 'Where is my parcel?',
  message: 'Hello,\nit has been a week.',
  ...o,
});

describe('contact form', () => {
  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('applies every rule of the contact form', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'All fields are required'],
      [{ subject: '   ' }, 'All fields are required'],
      [{ message: undefined }, 'All fields are required'],
      [{ email: 'not-an-email' }, 'Invalid email'],
      [{ subject: '<script>alert(1)</script>' }, 'HTML/script not allowed'],
      [{ message: 'hi <b>there</b>' }, 'HTML/script not allowed'],
      // never cut: a message longer than the form takes is refused, so nothing the shopper wrote is lost
      [{ message: 'm'.repeat(2501) }, 'Message must be at most 2,500 characters'],
      [{ name: 'N'.repeat(81) }, 'Name must be at most 80 characters'],
      [{ subject: 's'.repeat(151) }, 'Subject must be at most 150 characters'],
    ];
    for (const [o, message] of cases) {
      const res = await post('/api/contact', contact({ ...o, grecaptcha: 'x' }));
      expect(res.statusCode, JSON.stringify(o)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const noCaptcha = await post('/api/contact', contact());
    expect(noCaptcha.statusCode).toBe(400);
    expect(noCaptcha.json().message).toBe('Captcha required');
    const badCaptcha = await post('/api/contact', contact({ grecaptcha: 'bad' }));
    expect(badCaptcha.json().message).toBe('Captcha verification failed');
  });

  it('stores a cleaned contact message (at its limits) and tells every admin through the outbox', async () => {
    const admin1 = await createAccount(t, { isAdmin: true, email: 'boss1@example.com' });
    const admin2 = await createAccount(t, { isAdmin: true, email: 'boss2@example.com' });
    const before = (await t.database.db.select().from(mailOutbox)).length;
    const res = await post(
      '/api/contact',
      contact({
        name: 'N'.repeat(80),
        subject: 'Parcel\u0007 late\nagain',
        message: `Line one\r\nline\u200b two ${'m'.repeat(2500 - 'Line one line two '.length)}`,
        grecaptcha: await solveCaptcha(t.app),
      }),
    );
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(supportMessages)
      .where(eq(supportMessages.threadEmail, 'grace@example.com'));
    expect(row).toMatchObject({ isContact: true, senderEmail: 'grace@example.com', subject: 'Parcel late again' });
    expect(row!.senderName).toHaveLength(80);
    expect(row!.content.startsWith('Line one line two m')).toBe(true);
    expect(row!.content).toHaveLength(2500);
    const after = (await t.database.db.select().from(mailOutbox)).length;
    expect(after - before).toBeGreaterThanOrEqual(2);
    for (const a of [admin1, admin2]) {
      const mail = await lastMailTo(t.database.db, a.user.email!);
      expect(mail?.subject).toContain('New contact message: Parcel late again');
      expect(mail?.text).toContain('grace@example.com');
    }
  });

  it('needs no captcha with CAPTCHA_PROVIDER=none', async () => {
    const t2 = await createTestApp({ CAPTCHA_PROVIDER: 'none' }, NO_WORKER);
    try {
      const res = await t2.app.inject({ method: 'POST', url: '/api/contact', payload: contact() });
      expect(res.statusCode).toBe(201);
    } finally {
      await t2.close();
    }
  });
});

describe('support messages', () => {
  beforeAll(async () => {
    t = await createTestApp({ CAPTCHA_PROVIDER: 'none' }, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('lets a user write to support and read only their own conversation', async () => {
    const alice = await createAccount(t, { username: 'alice_s' });
    const bob = await createAccount(t, { username: 'bob_s' });
    const sent = await post(
      '/api/messages/send',
      { sender: 'bob_s', recipient: 'admin', content: '  Where is\u200b my order?  ' },
      alice.headers,
    );
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ sender: 'alice_s', recipient: 'admin', content: 'Where is my order?' });
    // the body's sender is ignored: nothing landed in Bob's conversation
    expect((await get(`/api/messages/get/${bob.user.id}`, bob.headers)).json()).toEqual([]);
    const mine = await get('/api/messages/get/alice_s', alice.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toHaveLength(1);
    expect((await get(`/api/messages/get/${alice.user.id}`, alice.headers)).json()).toHaveLength(1);
    for (const other of [bob.user.id, 'bob_s', 'grace@example.com']) {
      const res = await get(`/api/messages/get/${other}`, alice.headers);
      expect(res.statusCode, other).toBe(403);
    }
    // a user cannot address another user
    const toBob = await post('/api/messages/send', { recipient: 'bob_s', content: 'hi' }, alice.headers);
    expect(toBob.statusCode).toBe(400);
    expect(toBob.json().message).toBe('Select a valid recipient from the list.');
  });

  it('refuses visitors and guests', async () => {
    expect((await post('/api/messages/send', { content: 'hi' })).statusCode).toBe(401);
    const g = await guest(t.database.db, 'guest@example.com');
    expect((await post('/api/messages/send', { content: 'hi' }, g.headers)).statusCode).toBe(401);
    expect((await get('/api/messages/get/admin', g.headers)).statusCode).toBe(401);
  });

  it('applies the support-message rules', async () => {
    const u = await createAccount(t);
    const cases: [unknown, string][] = [
      ['', 'Message cannot be empty.'],
      ['   \u200b ', 'Message cannot be empty.'],
      [undefined, 'Message cannot be empty.'],
      ['<script>x</script>', 'HTML or script tags are not allowed.'],
      ['x'.repeat(2501), 'Message must be at most 2500 characters.'],
    ];
    for (const [content, message] of cases) {
      const res = await post('/api/messages/send', { content }, u.headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const admin = await createAccount(t, { isAdmin: true });
    for (const recipient of [undefined, '', 'admin', 'nobody_here', 'stranger@example.com']) {
      const res = await post('/api/messages/send', { recipient, content: 'hello' }, admin.headers);
      expect(res.statusCode, String(recipient)).toBe(400);
      expect(res.json().message).toBe('Select a valid recipient from the list.');
    }
  });

  it('lets an admin answer a user and read any conversation, oldest first', async () => {
    const carol = await createAccount(t, { username: 'carol_s' });
    const admin = await createAccount(t, { isAdmin: true });
    await post('/api/messages/send', { content: 'first' }, carol.headers);
    const reply = await post(
      '/api/messages/send',
      { recipient: 'carol_s', content: 'second', sender: 'x' },
      admin.headers,
    );
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({ sender: 'admin', recipient: 'carol_s', fromAdmin: true });
    await post('/api/messages/send', { recipient: carol.user.id, content: 'third' }, admin.headers);
    const seenByAdmin = await get(`/api/messages/get/${carol.user.id}`, admin.headers);
    expect(seenByAdmin.json().map((m: { content: string }) => m.content)).toEqual(['first', 'second', 'third']);
    const seenByCarol = (await get('/api/messages/get/carol_s', carol.headers)).json();
    expect(seenByCarol.map((m: { content: string }) => m.content)).toEqual(['first', 'second', 'third']);
    expect(Object.keys(seenByCarol[0])).toEqual(
      expect.arrayContaining(['_id', 'sender', 'recipient', 'content', 'timestamp', 'isContact', 'senderEmail']),
    );
    expect((await get('/api/messages/get/nobody_here', admin.headers)).statusCode).toBe(404);
  });

  it('mails an admin answer to a contact sender', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    expect((await post('/api/contact', contact({ email: 'dora@example.com', name: 'Dora' }))).statusCode).toBe(201);
    const res = await post(
      '/api/messages/send',
      { recipient: 'Dora@example.com', content: 'We found it.' },
      admin.headers,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isContact: true, recipient: 'dora@example.com', fromAdmin: true });
    const mail = await lastMailTo(t.database.db, 'dora@example.com');
    expect(mail?.subject).toContain('Re: Where is my parcel?');
    expect(mail?.text).toContain('We found it.');
    const thread = (await get('/api/messages/get/dora@example.com', admin.headers)).json();
    expect(thread.map((m: { content: string }) => m.content)).toEqual(['Hello, it has been a week.', 'We found it.']);
    expect(thread[0]).toMatchObject({ isContact: true, senderEmail: 'dora@example.com' });
  });

  it('requires a captcha from users but not from admins', async () => {
    const t2 = await createTestApp({}, NO_WORKER);
    try {
      const u = await createAccount(t2);
      const admin = await createAccount(t2, { isAdmin: true });
      const res = await t2.app.inject({
        method: 'POST',
        url: '/api/messages/send',
        headers: u.headers,
        payload: { content: 'hi' },
      });
      expect(res.json().message).toBe('Captcha required');
      const ok = await t2.app.inject({
        method: 'POST',
        url: '/api/messages/send',
        headers: u.headers,
        payload: { content: 'hi', grecaptcha: await solveCaptcha(t2.app) },
      });
      expect(ok.statusCode).toBe(201);
      const adminRes = await t2.app.inject({
        method: 'POST',
        url: '/api/messages/send',
        headers: admin.headers,
        payload: { recipient: u.user.username, content: 'hello' },
      });
      expect(adminRes.statusCode).toBe(201);
    } finally {
      await t2.close();
    }
  });

  it('suggests at most 50 recipients among accounts and contact senders, for admins only', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const user = await createAccount(t);
    await Promise.all(Array.from({ length: 60 }, (_, i) => createAccount(t, { username: `zeta_${i}` })));
    await post('/api/contact', contact({ email: 'zeta.contact@example.com', name: 'Zed' }));
    const res = await get('/api/messages/recipients?q=ZETA', admin.headers);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; kind: string }[];
    expect(list).toHaveLength(50);
    expect(list.filter((r) => r.kind === 'contact').map((r) => r.id)).toEqual(['zeta.contact@example.com']);
    const some = (await get('/api/messages/recipients?q=zeta_5', admin.headers)).json();
    expect(some.map((r: { username: string }) => r.username)).toEqual([
      'zeta_5',
      ...Array.from({ length: 10 }, (_, i) => `zeta_5${i}`),
    ]);
    // invisible and control characters (a NUL byte PostgreSQL cannot take) are dropped before the search
    const cleaned = await get('/api/messages/recipients?q=%00zeta_5%E2%80%8B', admin.headers);
    expect(cleaned.statusCode, cleaned.body).toBe(200);
    expect(cleaned.json()).toEqual(some);
    expect((await get('/api/messages/recipients?q=zeta', user.headers)).statusCode).toBe(403);
    expect((await get('/api/messages/recipients?q=zeta')).statusCode).toBe(401);
  });
});
