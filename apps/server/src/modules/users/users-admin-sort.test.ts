import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, signedIn, type Auth } from '#test/orders-support.ts';

let t: TestContext;
let admin: Auth;
const usernames = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/users?search=srt_&${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().users as { username: string }[]).map((u) => u.username);
};

describe('admin user list sorting', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true, username: 'boss_sort' });
    // [username, first, last, e-mail, minutes ago]
    const people: [string, string, string, string, number][] = [
      ['srt_carl', 'Carl', 'Adams', 'zed@srt.test', 30],
      ['SRT_anna', 'Anna', 'Cole', 'mid@srt.test', 10],
      ['srt_bob', 'Bob', 'Baker', 'abe@srt.test', 20],
    ];
    for (const [username, firstName, lastName, email, ago] of people) {
      await signedIn(t.app, { username, firstName, lastName, email, createdAt: new Date(Date.now() - ago * 60_000) });
    }
    // guests never appear
    await guest(t.app.db, 'srt_guest@srt.test');
  });
  afterAll(async () => t?.close());

  it('sorts accounts on the server by date, username, name or e-mail, either way', async () => {
    expect(await usernames('sortBy=createdAt')).toEqual(['SRT_anna', 'srt_bob', 'srt_carl']);
    expect(await usernames('sortBy=createdAt&order=asc')).toEqual(['srt_carl', 'srt_bob', 'SRT_anna']);
    expect(await usernames('sortBy=username')).toEqual(['SRT_anna', 'srt_bob', 'srt_carl']);
    expect(await usernames('sortBy=username&order=desc')).toEqual(['srt_carl', 'srt_bob', 'SRT_anna']);
    expect(await usernames('sortBy=name')).toEqual(['srt_carl', 'srt_bob', 'SRT_anna']);
    expect(await usernames('sortBy=email')).toEqual(['srt_bob', 'SRT_anna', 'srt_carl']);
    expect(await usernames('sortBy=email&order=desc')).toEqual(['srt_carl', 'SRT_anna', 'srt_bob']);
    // pages follow the sort
    const p1 = await usernames('sortBy=email&pageSize=2&pageNumber=1');
    const p2 = await usernames('sortBy=email&pageSize=2&pageNumber=2');
    expect([...p1, ...p2]).toEqual(['srt_bob', 'SRT_anna', 'srt_carl']);
    const bad = await t.app.inject({ method: 'GET', url: '/api/users?sortBy=password', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
  });

  it('answers each sort from an index', async () => {
    const orderBys = [
      'created_at desc nulls last, id desc nulls last',
      'created_at asc nulls first, id asc nulls first',
      'lower(username) asc nulls last, id asc nulls last',
      'lower(username) desc nulls first, id desc nulls first',
      'lower(last_name) asc nulls last, lower(first_name) asc nulls last, id asc nulls last',
      'email desc nulls first, id desc nulls first',
    ];
    try {
      for (const s of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await t.app.db.execute(sql.raw(`set ${s} = off`));
      for (const orderBy of orderBys) {
        const plan = await t.app.db.execute<{ 'QUERY PLAN': string }>(
          sql.raw(`explain select id from users where is_guest = false order by ${orderBy} limit 20`),
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, `${orderBy}\n${text}`).toMatch(/Index (Only )?Scan (Backward )?using users_/);
        expect(text, `${orderBy}\n${text}`).not.toMatch(/^\s*(->\s*)?Sort\s+\(/m);
      }
    } finally {
      for (const s of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await t.app.db.execute(sql.raw(`reset ${s}`));
    }
  });
});
