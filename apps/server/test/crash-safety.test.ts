import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { mailOutbox, orderItems, orders, products } from '../src/db/schema/index.ts';
import { createProduct, createUser } from './factories.ts';
import { orderBody } from './orders-support.ts';
import { bearerFor, killAll, startServer, stop, waitForHealth, type Started } from './processes.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';
import { adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from './test-db.ts';

/**
 * The store survives being killed (SIGKILL mid-burst of orders) and stops gracefully on
 * SIGTERM (an order in flight completes). Real processes, on the embedded database or PostgreSQL,
 * whichever this run of the suite is for.
 */
const JWT_SECRET = `crash-${randomBytes(16).toString('hex')}`;
const PORT = 3271;
const base = `http://127.0.0.1:${PORT}`;
const kind = testDbKind();

let dataDir: string;
let dbName: string | undefined;
let smtp: TestSmtp;
let env: Record<string, string>;

/** Opens the store's database from the test while no server runs (PGlite allows one process). */
async function withDb<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, poolSize: 2 } : { dataDir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-crash-'));
  smtp = await startSmtp();
  env = { DATA_DIR: dataDir, PORT: String(PORT), JWT_SECRET, SMTP_URL: smtp.url };
  if (kind === 'postgres') {
    dbName = randomDbName();
    await adminQuery(`CREATE DATABASE ${dbName}`);
    env.DATABASE_URL = withDatabase(adminUrl(), dbName);
  }
});

afterAll(async () => {
  killAll();
  await smtp?.close();
  if (dbName) await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
});

/** One order request; answers the status (0: the connection failed, as it does once the server is gone). */
async function order(headers: Record<string, string>, productId: string): Promise<{ status: number; id?: string }> {
  try {
    const res = await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify(orderBody([{ product: productId, qty: 2 }])),
    });
    const body = (await res.json()) as { _id?: string };
    return { status: res.status, id: body._id };
  } catch {
    return { status: 0 };
  }
}

describe(`crash safety and graceful shutdown (${kind})`, () => {
  it(
    'SIGKILL mid-burst loses no confirmed order, no stock, and no mail; the restart is clean',
    { timeout: 240_000 },
    async () => {
      const STOCK = 1000;
      const { product, buyers } = await withDb(async (db) => ({
        product: await createProduct(db, { name: 'Crash Kettle', countInStock: STOCK, priceCents: 1500 }),
        buyers: await Promise.all(Array.from({ length: 6 }, () => createUser(db))),
      }));
      const headers = await Promise.all(buyers.map((b) => bearerFor(JWT_SECRET, b)));

      // mails queue up during the burst (MAIL_WORKER=false): the kill leaves them in the outbox
      let server: Started = startServer({ ...env, MAIL_WORKER: 'false' });
      await waitForHealth(PORT, server);
      // a steady burst: 6 shoppers keep ordering until the server dies under them
      let dead = false;
      const told: { status: number; id?: string }[] = [];
      const shoppers = headers.map(async (h) => {
        while (!dead) told.push(await order(h, product.id));
      });
      await new Promise((r) => setTimeout(r, 1500));
      server.child.kill('SIGKILL');
      await server.exited;
      dead = true;
      await Promise.all(shoppers);
      const confirmed = told.filter((t) => t.status === 201).map((t) => t.id!);
      expect(confirmed.length).toBeGreaterThan(0);
      expect(told.every((t) => t.status === 201 || t.status === 0)).toBe(true);

      server = startServer({ ...env, MAIL_WORKER: 'false' });
      await waitForHealth(PORT, server);
      expect(server.output()).not.toMatch(/error/i);
      // every order the client was told about exists, with its items
      for (const id of confirmed)
        expect((await fetch(`${base}/api/orders/${id}`, { headers: headers[0] })).status).not.toBe(404);
      await stop(server);

      await withDb(async (db) => {
        const existing = await db.select({ id: orders.id }).from(orders);
        const ids = new Set(existing.map((o) => o.id));
        for (const id of confirmed) expect(ids.has(id)).toBe(true);
        // stock = start − what the existing orders hold; nothing taken by an order that was lost
        const [held] = await db
          .select({ n: sql<number>`coalesce(sum(${orderItems.qty}), 0)::int` })
          .from(orderItems)
          .where(eq(orderItems.productId, product.id));
        const [row] = await db.select({ n: products.countInStock }).from(products).where(eq(products.id, product.id));
        expect(row!.n).toBe(STOCK - held!.n);
        expect(held!.n).toBe(existing.length * 2);
      });

      // each queued confirmation mail goes out exactly once after the restart
      const orderCount = await withDb(async (db) => db.$count(orders));
      expect(smtp.messages).toHaveLength(0);
      const perOrder = () => {
        const counts = new Map<string, number>();
        for (const m of smtp.messages) {
          const id = /Order #(\d+) received/.exec(m.subject)?.[1];
          if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        return counts;
      };
      server = startServer(env);
      await waitForHealth(PORT, server);
      await expect.poll(() => perOrder().size, { timeout: 60_000, interval: 250 }).toBe(orderCount);
      await new Promise((r) => setTimeout(r, 2000)); // a duplicate would arrive meanwhile
      expect(await stop(server)).toBe(0);
      expect([...perOrder().values()].every((n) => n === 1)).toBe(true);
      await withDb(async (db) => {
        expect(await db.$count(mailOutbox, sql`${mailOutbox.status} <> 'sent'`)).toBe(0);
      });
    },
  );

  it('SIGTERM lets an order in flight complete, then exits 0', { timeout: 120_000 }, async () => {
    const { product, buyer } = await withDb(async (db) => ({
      product: await createProduct(db, { name: 'Shutdown Teapot', countInStock: 5, priceCents: 900 }),
      buyer: await createUser(db),
    }));
    const headers = await bearerFor(JWT_SECRET, buyer);
    const server = startServer(env);
    await waitForHealth(PORT, server);

    // the request is in flight (headers and half of its body sent) when the signal arrives
    const body = JSON.stringify(orderBody([{ product: product.id, qty: 1 }]));
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${base}/api/orders`,
        { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 500);
      }, 300);
    });
    const res = await answer;
    expect(res.status).toBe(201);
    const placed = JSON.parse(res.body) as { _id: string };
    expect(await server.exited).toBe(0);
    // new connections are refused once it has stopped
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    await withDb(async (db) => {
      expect(await db.$count(orders, eq(orders.id, placed._id))).toBe(1);
      const [row] = await db.select({ n: products.countInStock }).from(products).where(eq(products.id, product.id));
      expect(row!.n).toBe(4);
    });
  });
});
