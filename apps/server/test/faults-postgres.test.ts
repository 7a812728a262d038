import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { mailOutbox, orderItems, orders, products } from '../src/db/schema/index.ts';
import { createProduct, createUser } from './factories.ts';
import { orderBody } from './orders-support.ts';
import { queryOn, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';
import { bearerFor, killAll, startServer, waitForHealth, type Started } from './processes.ts';
import { freePort } from './smtp.ts';

/**
 * PostgreSQL restarts, and stops answering, under a real server process. This needs a PostgreSQL the
 * test may restart: a private one (initdb in a temporary directory, its own port), never the machine's,
 * which other suites use at the same time. So both runs of the suite (STORE_TEST_DB=pglite and postgres)
 * run this file the same way, against that private server.
 */
const JWT_SECRET = `pg-faults-${randomBytes(16).toString('hex')}`;
const UNAVAILABLE = { message: 'Service temporarily unavailable, please try again', code: 'SERVICE_UNAVAILABLE' };
const STOCK = 100_000;

let pgServer: PrivatePostgres;
let url: string;
let database: Database;
let server: Started;
let base: string;
let dataDir: string;
let fixture: { productId: string; buyers: Record<string, string>[] };

interface Answer {
  what: 'order' | 'read';
  status: number;
  ms: number;
  at: number;
  body: Record<string, unknown> | null;
  retryAfter: string | null;
}

/** One request; status 0 when it failed without an answer (a hang past 20 s aborts it). */
async function send(what: Answer['what'], path: string, init: RequestInit = {}): Promise<Answer> {
  const at = Date.now();
  try {
    const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(20_000) });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    return { what, status: res.status, ms: Date.now() - at, at, body, retryAfter: res.headers.get('retry-after') };
  } catch (err) {
    return { what, status: 0, ms: Date.now() - at, at, body: { error: String(err) }, retryAfter: null };
  }
}

const order = (headers: Record<string, string>) =>
  send('order', '/api/orders', {
    method: 'POST',
    headers,
    body: JSON.stringify(orderBody([{ product: fixture.productId, qty: 2 }])),
  });

beforeAll(async () => {
  pgServer = await startPrivatePostgres();
  await queryOn(pgServer.url(), 'CREATE DATABASE store');
  url = pgServer.url('store');
  database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  const product = await createProduct(database.db, { name: 'Restart Kettle', countInStock: STOCK });
  const users = await Promise.all(Array.from({ length: 6 }, () => createUser(database.db)));
  fixture = {
    productId: product.id,
    buyers: await Promise.all(users.map((u) => bearerFor(JWT_SECRET, u))),
  };
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-pg-faults-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // MAIL_WORKER=false: the confirmation mails stay in the outbox, where the test counts them
  server = startServer({ DATA_DIR: dataDir, PORT: String(port), JWT_SECRET, DATABASE_URL: url, MAIL_WORKER: 'false' });
  await waitForHealth(port, server, { path: '/readyz' });
}, 120_000);

afterAll(async () => {
  killAll();
  await database?.close().catch(() => {});
  await pgServer?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('PostgreSQL restarting or stalling (a private server of this test)', () => {
  it(
    'answers 503 while PostgreSQL restarts under load, never 500 or a hang, reconnects by itself and writes no half order',
    { timeout: 90_000 },
    async () => {
      const answers: Answer[] = [];
      const readiness: Answer[] = [];
      let load = true;
      const shoppers = fixture.buyers.map(async (headers) => {
        while (load) answers.push(await order(headers));
      });
      const readers = [0, 1].map(async () => {
        while (load) answers.push(await send('read', `/api/products/${fixture.productId}`));
      });
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

      await sleep(1_500);
      const stopped = Date.now();
      await pgServer.stop('fast'); // every session ends at once: queries in flight fail
      const probe = (async () => {
        while (load) {
          readiness.push(await send('read', '/readyz'));
          await sleep(200);
        }
      })();
      await sleep(3_000);
      await pgServer.start();
      const started = Date.now();
      // the same server process places orders again, through fresh connections of its pool
      const t0 = Date.now();
      while (!answers.some((a) => a.what === 'order' && a.status === 201 && a.at > started)) {
        if (Date.now() - t0 > 20_000) throw new Error('no order placed after PostgreSQL came back');
        await sleep(100);
      }
      await sleep(1_000);
      load = false;
      await Promise.all([...shoppers, ...readers, probe]);

      // every answer was a success or a clear 503; none was a 500, none failed without an answer or hung
      const odd = answers.filter((a) => ![200, 201, 503].includes(a.status));
      expect(odd).toEqual([]);
      const refused = answers.filter((a) => a.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused) {
        expect(a.body).toEqual(UNAVAILABLE);
        expect(a.retryAfter).toBe('5');
      }
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(12_000);
      expect(refused.every((a) => a.at + a.ms >= stopped)).toBe(true);
      // load balancers were told to hold traffic while the database was away, and to send it again
      expect(readiness.some((r) => r.status === 503 && r.body?.message === 'Database unreachable')).toBe(true);
      expect((await send('read', '/readyz')).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/unhandled error/);

      // nothing half-written: every order has its items, its confirmation mail, and took its stock;
      // every order the shoppers were told about exists
      const db = database.db;
      const placed = await db.select({ id: orders.id }).from(orders);
      const ids = new Set(placed.map((o) => o.id));
      for (const a of answers.filter((x) => x.status === 201)) expect(ids.has(String(a.body?._id))).toBe(true);
      const [withoutItems] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(sql`not exists (select 1 from ${orderItems} i where i.order_id = ${orders.id})`);
      expect(withoutItems!.n).toBe(0);
      const [held] = await db
        .select({ n: sql<number>`coalesce(sum(${orderItems.qty}), 0)::int` })
        .from(orderItems)
        .where(eq(orderItems.productId, fixture.productId));
      expect(held!.n).toBe(placed.length * 2);
      const [row] = await db
        .select({ n: products.countInStock })
        .from(products)
        .where(eq(products.id, fixture.productId));
      expect(row!.n).toBe(STOCK - held!.n);
      const confirmations = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(mailOutbox)
        .where(sql`${mailOutbox.subject} like 'Order % received%'`);
      expect(confirmations[0]!.n).toBe(placed.length);
    },
  );

  it(
    'gives up on a database that stops answering within its timeouts, then carries on when it answers again',
    { timeout: 60_000 },
    async () => {
      // the same app as the server's, in this process, with short timeouts so the test is quick
      const config = loadConfig(
        { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: 'silent' },
        { jwtSecret: JWT_SECRET, mailWorker: { enabled: false, pollMs: 60_000 } },
      );
      const timeouts = { connectMs: 1_000, statementMs: 1_500, queryMs: 2_000 };
      const stalled = await openDatabase({ databaseUrl: url, poolSize: 3, timeouts });
      let app: FastifyInstance | undefined;
      try {
        app = await buildApp({ config, database: stalled, logger: false });
        await app.ready();
        const products = await Promise.all(
          Array.from({ length: 6 }, (_, i) => createProduct(database.db, { name: `Stalled ${i}` })),
        );
        const inject = app.inject.bind(app);
        expect((await inject({ url: '/api/health' })).statusCode).toBe(200);

        pgServer.freeze();
        let answers: { status: number; body: unknown; ms: number }[];
        try {
          // more requests than connections: some wait for the pool, some for a query that never returns
          answers = await Promise.all(
            [
              ...products.map((p) => ({ url: `/api/products/${p.id}` })),
              { url: '/api/health' },
              {
                method: 'POST' as const,
                url: '/api/orders',
                headers: fixture.buyers[0],
                payload: orderBody([{ product: products[0]!.id, qty: 1 }]),
              },
            ].map(async (req) => {
              const t0 = Date.now();
              const res = await inject(req);
              return { status: res.statusCode, body: res.json(), ms: Date.now() - t0 };
            }),
          );
        } finally {
          pgServer.thaw();
        }
        for (const a of answers) {
          expect(a.status).toBe(503);
          expect(a.body).toEqual(UNAVAILABLE);
          // a query given up after queryMs, or a connection after connectMs (after waiting for the pool)
          expect(a.ms).toBeLessThan(timeouts.queryMs + timeouts.connectMs + 2_000);
        }

        // answering again: the same app serves without a restart
        const t0 = Date.now();
        while ((await inject({ url: '/api/health' })).statusCode !== 200) {
          if (Date.now() - t0 > 10_000) throw new Error('the app did not recover');
          await new Promise((r) => setTimeout(r, 100));
        }
        const placed = await inject({
          method: 'POST',
          url: '/api/orders',
          headers: fixture.buyers[1],
          payload: orderBody([{ product: products[1]!.id, qty: 1 }]),
        });
        expect(placed.statusCode).toBe(201);
      } finally {
        pgServer.thaw();
        await app?.close();
        await stalled.close();
      }
    },
  );
});
