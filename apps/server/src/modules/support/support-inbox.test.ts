import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportThreads } from '#server/db/schema/index.ts';
import { NO_WORKER, createAccount, lastMailTo, mailCount } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const send = (headers: Headers, content: string, recipient?: string) =>
  call('POST', '/api/messages/send', headers, { content, ...(recipient ? { recipient } : {}) });
const inbox = async (headers: Headers, query = '') => {
  const res = await call('GET', `/api/support/inbox${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    conversations: {
      _id: string;
      kind: string;
      recipient: string;
      name: string;
      username: string | null;
      email: string;
      subject: string;
      lastMessage: { content: string; fromAdmin: boolean };
      unread: number;
    }[];
    hasMore: boolean;
  };
};
const unread = async (headers: Headers) => {
  const res = await call('GET', '/api/support/unread', headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { unread: number; inbox?: number };
};

describe('support inbox', () => {
  beforeAll(async () => {
    t = await createTestApp({ CAPTCHA_PROVIDER: 'none' }, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('lists conversations newest first with their sender, last message and unread count; contact senders too', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const ann = await createAccount(t, { username: 'ann_in', firstName: 'Ann', lastName: 'Lee', email: 'ann@in.test' });
    const ben = await createAccount(t, { username: 'ben_in', firstName: '', lastName: '', email: 'ben@in.test' });
    expect((await send(ann.headers, 'Where is my parcel?')).statusCode).toBe(201);
    expect((await send(ben.headers, 'Do you ship to Canada?')).statusCode).toBe(201);
    const contact = await call(
      'POST',
      '/api/contact',
      {},
      {
        name: 'Cleo Contact',
        email: 'Cleo@In.Test',
        subject: 'Wholesale',
        message: 'Can I buy 100?',
      },
    );
    expect(contact.statusCode, contact.body).toBe(201);
    expect((await send(ann.headers, 'Any news?')).statusCode).toBe(201);

    const list = (await inbox(admin.headers)).conversations;
    expect(list.slice(0, 3).map((c) => c.recipient)).toEqual([ann.user.id, 'cleo@in.test', ben.user.id]);
    expect(list[0]).toMatchObject({
      kind: 'user',
      name: 'Ann Lee',
      username: 'ann_in',
      email: 'ann@in.test',
      lastMessage: { content: 'Any news?', fromAdmin: false },
      unread: 2,
    });
    expect(list[1]).toMatchObject({
      kind: 'contact',
      name: 'Cleo Contact',
      email: 'cleo@in.test',
      subject: 'Wholesale',
      unread: 1,
    });
    // an account without names is shown by its username
    expect(list[2]).toMatchObject({ name: 'ben_in', unread: 1 });
    expect((await unread(admin.headers)).inbox).toBe(3);

    // opening a conversation and marking it read clears it from the count
    const read = await call('PUT', `/api/support/conversations/${ann.user.id}/read`, admin.headers);
    expect(read.statusCode, read.body).toBe(200);
    expect((await unread(admin.headers)).inbox).toBe(2);
    const onlyUnread = (await inbox(admin.headers, '?unread=true')).conversations.map((c) => c.recipient);
    expect(onlyUnread).toEqual(['cleo@in.test', ben.user.id]);
    // a contact thread is named by its e-mail
    await call('PUT', '/api/support/conversations/CLEO@in.test/read', admin.headers);
    expect((await unread(admin.headers)).inbox).toBe(1);

    // an answer moves the conversation up, counts as read by support and as unread for the shopper
    expect((await send(admin.headers, 'On its way.', 'ben_in')).statusCode).toBe(201);
    expect((await unread(admin.headers)).inbox).toBe(0);
    const [top] = (await inbox(admin.headers)).conversations;
    expect(top).toMatchObject({
      recipient: ben.user.id,
      unread: 0,
      lastMessage: { content: 'On its way.', fromAdmin: true },
    });
  });

  it('tells the shopper a reply is waiting and clears it when they read it; each sees only their own', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const dee = await createAccount(t, { username: 'dee_in', email: 'dee@in.test' });
    const eve = await createAccount(t, { username: 'eve_in', email: 'eve@in.test' });
    await send(dee.headers, 'Hello?');
    expect(await unread(dee.headers)).toEqual({ unread: 0 });
    await send(admin.headers, 'Hi Dee', dee.user.id);
    await send(admin.headers, 'Anything else?', 'dee_in');
    expect(await unread(dee.headers)).toEqual({ unread: 2 });
    expect(await unread(eve.headers)).toEqual({ unread: 0 });

    // nobody marks another's conversation read, nor lists the inbox
    for (const id of [dee.user.id, 'dee_in', 'dee@in.test']) {
      const res = await call('PUT', `/api/support/conversations/${encodeURIComponent(id)}/read`, eve.headers);
      expect(res.statusCode, id).toBe(403);
      expect(res.json().message).toBe('Not authorized to view this conversation');
    }
    expect(await unread(dee.headers)).toEqual({ unread: 2 });
    expect((await call('GET', '/api/support/inbox', eve.headers)).statusCode).toBe(403);
    expect((await call('GET', '/api/support/inbox')).statusCode).toBe(401);
    expect((await call('GET', '/api/support/unread')).statusCode).toBe(401);
    expect((await call('PUT', `/api/support/conversations/${dee.user.id}/read`)).statusCode).toBe(401);
    expect((await call('PUT', '/api/support/conversations/nobody_here/read', admin.headers)).statusCode).toBe(404);

    expect((await call('PUT', '/api/support/conversations/me/read', dee.headers)).statusCode).toBe(200);
    expect(await unread(dee.headers)).toEqual({ unread: 0 });
    // reading it as the shopper leaves the admins' side alone
    expect((await send(dee.headers, 'Thanks')).statusCode).toBe(201);
    await call('PUT', `/api/support/conversations/${dee.user.id}/read`, dee.headers);
    const deeRow = (await inbox(admin.headers)).conversations.find((c) => c.recipient === dee.user.id);
    expect(deeRow?.unread).toBe(1);
  });

  it('e-mails the shopper that a reply is waiting, at most once per conversation an hour', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const fay = await createAccount(t, { username: 'fay_in', firstName: 'Fay', email: 'fay@in.test' });
    const gus = await createAccount(t, { username: 'gus_in', email: 'gus@in.test' });
    await send(fay.headers, 'Question');
    await send(admin.headers, 'Answer one', fay.user.id);
    expect(await mailCount(t.database.db, 'fay@in.test')).toBe(1);
    const mail = await lastMailTo(t.database.db, 'fay@in.test');
    expect(mail?.subject).toContain('Support replied to your message');
    expect(mail?.text).toContain('/contactsupport');
    // the reply itself is read in the shop, not in the e-mail
    expect(mail?.text).not.toContain('Answer one');

    await send(admin.headers, 'Answer two', fay.user.id);
    await send(admin.headers, 'Answer three', 'fay_in');
    expect(await mailCount(t.database.db, 'fay@in.test')).toBe(1);
    // another conversation has its own turn
    await send(admin.headers, 'Hello Gus', gus.user.id);
    expect(await mailCount(t.database.db, 'gus@in.test')).toBe(1);

    // an hour later the next reply is announced again
    await t.database.db
      .update(supportThreads)
      .set({ replyMailAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(supportThreads.threadUserId, fay.user.id));
    await send(admin.headers, 'Answer four', fay.user.id);
    expect(await mailCount(t.database.db, 'fay@in.test')).toBe(2);
    // two replies racing take one turn between them
    await t.database.db
      .update(supportThreads)
      .set({ replyMailAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(supportThreads.threadUserId, fay.user.id));
    await Promise.all([send(admin.headers, 'Race A', fay.user.id), send(admin.headers, 'Race B', fay.user.id)]);
    expect(await mailCount(t.database.db, 'fay@in.test')).toBe(3);
  });

  it('gives conversations written before the inbox existed their rows, as the migration does', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const old = await createAccount(t, {
      username: 'old_in',
      firstName: 'Olga',
      lastName: 'Old',
      email: 'olga@in.test',
    });
    await send(old.headers, 'First question');
    await send(admin.headers, 'An answer', old.user.id);
    await send(old.headers, 'Second question');
    await send(old.headers, 'Third question');
    await call('POST', '/api/contact', {}, { name: 'Pat', email: 'pat@in.test', subject: 'Old one', message: 'Hello' });
    const before = await t.database.db.select().from(supportThreads);
    // the migration's own statement, run again on an empty table
    const migration = readFileSync(
      new URL('../../db/migrations/0011_support_inbox_list_sorts.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('WITH m AS'));
    await t.database.db.delete(supportThreads);
    await t.database.db.execute(sql.raw(backfill));
    const after = await t.database.db.select().from(supportThreads);
    const ours = new Set([`u:${old.user.id}`, 'e:pat@in.test']);
    const view = (rows: typeof before) =>
      rows
        .filter((r) => ours.has(r.threadKey))
        .map((r) => ({
          key: r.threadKey,
          user: r.threadUserId,
          email: r.email,
          name: r.name,
          subject: r.subject,
          last: r.lastContent,
          fromAdmin: r.lastFromAdmin,
          adminUnread: r.adminUnread,
          at: r.lastMessageAt.getTime(),
        }))
        .sort((a, b) => a.key.localeCompare(b.key));
    expect(view(after)).toHaveLength(2);
    expect(view(after)).toEqual(view(before));
    const olga = after.find((r) => r.threadUserId === old.user.id);
    expect(olga).toMatchObject({ adminUnread: 2, lastContent: 'Third question', name: 'Olga Old' });
  });

  it('pages the inbox', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const people = await Promise.all(
      Array.from({ length: 21 }, (_, i) => createAccount(t, { username: `pg_in_${i}` })),
    );
    for (const p of people) await send(p.headers, 'hello');
    const first = await inbox(admin.headers);
    expect(first.conversations).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const second = await inbox(admin.headers, '?pageNumber=2');
    const seen = new Set([...first.conversations, ...second.conversations].map((c) => c._id));
    expect(seen.size).toBe(first.conversations.length + second.conversations.length);
    expect((await call('GET', '/api/support/inbox?pageNumber=0', admin.headers)).statusCode).toBe(400);
  });

  it('answers the inbox, its unread count and a shopper’s count each from an index', async () => {
    const plans: [string, string][] = [
      [
        'select id from support_threads order by last_message_at desc nulls last, id desc nulls last limit 21',
        'support_threads_last_idx',
      ],
      [
        'select id from support_threads where admin_unread > 0 order by last_message_at desc nulls last, id desc nulls last limit 21',
        'support_threads_admin_unread_idx',
      ],
      ['select count(*) from support_threads where admin_unread > 0', 'support_threads_admin_unread_idx'],
      [
        "select user_unread from support_threads where thread_key = 'u:0123456789abcdef01234567'",
        'support_threads_key_uq',
      ],
      [
        "update support_threads set admin_unread = 0 where thread_key = 'u:0123456789abcdef01234567' and admin_unread > 0",
        'support_threads_key_uq',
      ],
    ];
    try {
      for (const s of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await t.app.db.execute(sql.raw(`set ${s} = off`));
      for (const [query, index] of plans) {
        const plan = await t.app.db.execute<{ 'QUERY PLAN': string }>(sql.raw(`explain ${query}`));
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, query).toContain(index);
        expect(text, query).not.toMatch(/^\s*(->\s*)?Sort\s+\(/m);
      }
    } finally {
      for (const s of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await t.app.db.execute(sql.raw(`reset ${s}`));
    }
  });
});
