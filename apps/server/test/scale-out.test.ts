import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import {
  coupons,
  mailOutbox,
  orderItems,
  orders,
  payments,
  productVariants,
  products,
} from '../src/db/schema/index.ts';
import { enqueueMail } from '../src/lib/mailer/index.ts';
import { createCoupon, createProduct, createUser } from './factories.ts';
import { orderBody } from './orders-support.ts';
import { WEBHOOK_ID, paypalSandbox, type PaypalSandbox } from './paypal-sandbox.ts';
import { bearerFor, killAll, startServer as startProcess, waitForHealth, type Started } from './processes.ts';
import { TEST_REDIS_URL, redisReachable } from './redis.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';
import { adminQuery, adminUrl, randomDbName, testDbKind, withDatabase } from './test-db.ts';

/**
 * Several server processes on one PostgreSQL and one Redis: real processes, started the way
 * an operator starts them, talking HTTP. The embedded database allows one process, so that run only
 * checks that WORKERS > 1 is refused there.
 */
const REDIS_URL = TEST_REDIS_URL;
const hasRedis = await redisReachable();
if (!hasRedis && testDbKind() === 'postgres')
  console.warn(`SKIPPED: the scale-out tests need Redis at ${REDIS_URL} (TEST_REDIS_URL)`);
const JWT_SECRET = `scale-out-${randomBytes(16).toString('hex')}`;
const dirs: string[] = [];

/** A server process with a data directory of its own (the database is the shared PostgreSQL). */
function startServer(env: Record<string, string>): Started {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-scale-'));
  dirs.push(dataDir);
  return startProcess({ DATA_DIR: dataDir, ...env });
}
const waitReady = (port: number, s: Started) => waitForHealth(port, s, { path: '/readyz' });

const json = async (res: Promise<Response>) => (await (await res).json()) as Record<string, unknown>;

afterAll(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

if (testDbKind() === 'pglite')
  describe('several processes on the embedded database', () => {
    it('refuses WORKERS > 1 without DATABASE_URL, and says why', { timeout: 60_000 }, async () => {
      const s = startServer({ NODE_ENV: 'test', PORT: '3241', WORKERS: '2' });
      expect(await s.exited).toBe(1);
      expect(s.output()).toMatch(/WORKERS: more than one process needs DATABASE_URL/);
    });
  });

if (testDbKind() === 'postgres')
  describe.skipIf(!hasRedis)('two server processes on one PostgreSQL and Redis', () => {
    const name = randomDbName();
    const ports = [3251, 3252];
    const base = ports.map((p) => `http://127.0.0.1:${p}`);
    let servers: Started[] = [];
    let database: Database;
    let smtp: TestSmtp;
    let pp: PaypalSandbox;

    beforeAll(async () => {
      await adminQuery(`CREATE DATABASE ${name}`);
      smtp = await startSmtp();
      pp = await paypalSandbox();
      const env = {
        NODE_ENV: 'production',
        JWT_SECRET,
        DATABASE_URL: withDatabase(adminUrl(), name),
        REDIS_URL,
        REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}:`,
        SMTP_URL: smtp.url,
        TRUST_PROXY: '127.0.0.1',
        PAYPAL_CLIENT_ID: 'client-id',
        PAYPAL_CLIENT_SECRET: 'client-secret',
        PAYPAL_API_BASE: pp.url,
        PAYPAL_WEBHOOK_ID: WEBHOOK_ID,
        PAYPAL_RECONCILE_SECONDS: '0.5',
      };
      // started together: they race to migrate the fresh database (an advisory lock lets one do it)
      servers = ports.map((port) => startServer({ ...env, PORT: String(port) }));
      await Promise.all(ports.map((port, i) => waitReady(port, servers[i]!)));
      database = await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: 4 });
    }, 120_000);

    afterAll(async () => {
      await Promise.all(
        servers.map(async (s) => {
          s.child.kill('SIGTERM');
          await s.exited;
        }),
      );
      await database?.close();
      await smtp?.close();
      await pp?.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it(
      'never oversells: 40 concurrent orders over both for 10 units, exactly 10 succeed',
      { timeout: 60_000 },
      async () => {
        const product = await createProduct(database.db, { countInStock: 10, priceCents: 1000 });
        const buyers = await Promise.all(
          Array.from({ length: 8 }, async () => {
            const user = await createUser(database.db);
            return await bearerFor(JWT_SECRET, user);
          }),
        );
        const statuses = await Promise.all(
          Array.from({ length: 40 }, async (_, i) => {
            const res = await fetch(`${base[i % 2]}/api/orders`, {
              method: 'POST',
              // shoppers at many addresses, as a load balancer reports them (TRUST_PROXY): the per-address
              // order limit stays out of the way
              headers: { ...buyers[i % buyers.length]!, 'x-forwarded-for': `198.51.100.${i + 1}` },
              body: JSON.stringify(orderBody([{ product: product.id, qty: 1 }])),
            });
            return res.status === 201 || res.status === 409 ? res.status : `${res.status} ${await res.text()}`;
          }),
        );
        expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
        expect(statuses.filter((s) => s === 201)).toHaveLength(10);
        const [row] = await database.db.select().from(products).where(eq(products.id, product.id));
        expect(row!.countInStock).toBe(0);
        // both processes answer the new stock
        for (const b of base) expect((await json(fetch(`${b}/api/products/${product.id}`))).countInStock).toBe(0);
      },
    );

    it(
      'a variant’s last units and a code’s last uses over both: 60 orders, 10 units, a code for 5 → 10 sold, 5 redeemed',
      { timeout: 60_000 },
      async () => {
        const product = await createProduct(database.db, {
          countInStock: 500,
          priceCents: 1000,
          variants: [{ name: 'Blue', countInStock: 10 }],
        });
        const blue = product.variantRows[0]!;
        const coupon = await createCoupon(database.db, { type: 'fixed', value: 100, usageLimit: 5 });
        const buyers = await Promise.all(
          Array.from({ length: 8 }, async () => bearerFor(JWT_SECRET, await createUser(database.db))),
        );
        const placed = await Promise.all(
          Array.from({ length: 60 }, async (_, i) => {
            const res = await fetch(`${base[i % 2]}/api/orders`, {
              method: 'POST',
              headers: { ...buyers[i % buyers.length]!, 'x-forwarded-for': `198.51.100.${100 + i}` },
              // five orders without the code: the code's five uses take the other five units
              body: JSON.stringify(
                orderBody(
                  [{ product: product.id, qty: 1, selectedColorsVariants: blue.id }],
                  i % 12 === 0 ? {} : { couponCode: coupon.code },
                ),
              ),
            });
            const body = (await res.json()) as { couponCode?: string | null; code?: string };
            return { status: res.status, body };
          }),
        );
        expect(placed.filter((p) => ![201, 400, 409].includes(p.status))).toEqual([]);
        const sold = placed.filter((p) => p.status === 201);
        expect(sold).toHaveLength(10);
        expect(sold.filter((p) => p.body.couponCode === coupon.code)).toHaveLength(5);
        const [variant] = await database.db.select().from(productVariants).where(eq(productVariants.id, blue.id));
        expect(variant!.countInStock).toBe(0);
        const [code] = await database.db.select().from(coupons).where(eq(coupons.id, coupon.id));
        expect(code!.timesUsed).toBe(5);
        const [row] = await database.db.select().from(products).where(eq(products.id, product.id));
        expect(row!.countInStock).toBe(500);
        // both processes show the variant sold out
        for (const b of base)
          expect(
            ((await json(fetch(`${b}/api/products/${product.id}`))).colorsVariants as { countInStock: number }[])[0]!
              .countInStock,
          ).toBe(0);
      },
    );

    it(
      'orders sharing placing statements over both: a statement one short pool refuses places its other orders one by one',
      { timeout: 60_000 },
      async () => {
        // each process's stock gate lets 6 orders for Few through, and the other process takes units too:
        // statements asking Few for more than is left are refused whole, and their orders placed alone
        const plenty = await createProduct(database.db, { countInStock: 1000, priceCents: 500 });
        const few = await createProduct(database.db, { countInStock: 6, priceCents: 500 });
        const buyers = await Promise.all(
          Array.from({ length: 8 }, async () => bearerFor(JWT_SECRET, await createUser(database.db))),
        );
        const wantsFew = (i: number) => i % 3 === 0;
        const statuses = await Promise.all(
          Array.from({ length: 90 }, async (_, i) => {
            const res = await fetch(`${base[i % 2]}/api/orders`, {
              method: 'POST',
              headers: { ...buyers[i % buyers.length]!, 'x-forwarded-for': `198.51.100.${(i % 200) + 20}` },
              body: JSON.stringify(orderBody([{ product: wantsFew(i) ? few.id : plenty.id, qty: 1 }])),
            });
            return res.status === 201 || res.status === 409 ? res.status : `${res.status} ${await res.text()}`;
          }),
        );
        expect(statuses.filter((_, i) => !wantsFew(i))).toEqual(Array(60).fill(201));
        expect(statuses.filter((s, i) => wantsFew(i) && s === 201)).toHaveLength(6);
        expect(statuses.filter((s, i) => wantsFew(i) && s !== 201 && s !== 409)).toEqual([]);
        const stock = async (id: string) =>
          (await database.db.select().from(products).where(eq(products.id, id)))[0]!.countInStock;
        expect(await stock(few.id)).toBe(0);
        expect(await stock(plenty.id)).toBe(940);
        // the refused left no line behind
        const lines = await database.db
          .select({ id: orderItems.id })
          .from(orderItems)
          .where(inArray(orderItems.productId, [few.id, plenty.id]));
        expect(lines).toHaveLength(66);
      },
    );

    /** An order placed through one process and paid through the other, as the PayPal buttons do. */
    async function paidOrder(headers: Record<string, string>, ip: string) {
      const product = await createProduct(database.db, { countInStock: 100, priceCents: 1000 }); // $11.50 in all
      const h = { ...headers, 'x-forwarded-for': ip };
      const order = await json(
        fetch(`${base[0]}/api/orders`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify(orderBody([{ product: product.id, qty: 1 }])),
        }),
      );
      const started = await json(
        fetch(`${base[1]}/api/orders/${order._id as string}/paypal`, { method: 'POST', headers: h, body: '{}' }),
      );
      return { id: order._id as string, paypalOrderId: started.id as string, h };
    }

    it('refunds racing over both processes never add up to more than was paid', { timeout: 60_000 }, async () => {
      const buyer = await bearerFor(JWT_SECRET, await createUser(database.db));
      const admin = await bearerFor(JWT_SECRET, await createUser(database.db, { isAdmin: true }));
      const { id, paypalOrderId, h } = await paidOrder(buyer, '198.51.100.201');
      pp.approve(paypalOrderId);
      const paid = await fetch(`${base[0]}/api/orders/${id}/paypal/capture`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ paypalOrderId }),
      });
      expect(paid.status).toBe(200);
      pp.state.delayMs = 20;
      const statuses = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const res = await fetch(`${base[i % 2]}/api/orders/${id}/refunds`, {
            method: 'POST',
            headers: { ...admin, 'x-forwarded-for': '198.51.100.202' },
            body: JSON.stringify({ amount: 3, reason: `race ${i}` }),
          });
          return res.status;
        }),
      );
      pp.state.delayMs = 0;
      expect(statuses.filter((s) => s !== 200 && s !== 400)).toEqual([]);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3); // 3 × $3 of $11.50
      const captureId = pp.capture(paypalOrderId).id;
      expect(pp.refunds.filter((r) => r.captureId === captureId).reduce((n, r) => n + r.amount, 0)).toBe(900);
      const [row] = await database.db.select().from(orders).where(eq(orders.id, id));
      expect(row!.refundedCents).toBe(900);
    });

    it(
      'records one payment when the capture, the webhook and both sweeps race over both processes',
      { timeout: 60_000 },
      async () => {
        const buyer = await bearerFor(JWT_SECRET, await createUser(database.db));
        for (let round = 0; round < 3; round++) {
          const { id, paypalOrderId, h } = await paidOrder(buyer, `198.51.100.${210 + round}`);
          pp.approve(paypalOrderId);
          const hook = pp.webhook('CHECKOUT.ORDER.APPROVED', { id: paypalOrderId, status: 'APPROVED' });
          const [captured, hooked] = await Promise.all([
            fetch(`${base[round % 2]}/api/orders/${id}/paypal/capture`, {
              method: 'POST',
              headers: h,
              body: JSON.stringify({ paypalOrderId }),
            }),
            fetch(`${base[(round + 1) % 2]}/api/paypal/webhook`, {
              method: 'POST',
              headers: { ...hook.headers, 'content-type': 'application/json' },
              body: JSON.stringify(hook.payload),
            }),
          ]);
          expect(captured.status).toBe(200);
          expect(hooked.status).toBe(200);
          // the sweeps of both processes run meanwhile, every half second
          await new Promise((r) => setTimeout(r, 1200));
          expect(await database.db.select().from(payments).where(eq(payments.orderId, id))).toHaveLength(1);
        }
        // a payment whose browser never came back is recorded by a sweep, once
        const lost = await paidOrder(buyer, '198.51.100.220');
        pp.approve(lost.paypalOrderId);
        pp.captureBehindOurBack(lost.paypalOrderId);
        await expect
          .poll(async () => (await database.db.select().from(orders).where(eq(orders.id, lost.id)))[0]!.isPaid, {
            timeout: 15_000,
          })
          .toBe(true);
        await new Promise((r) => setTimeout(r, 1200));
        expect(await database.db.select().from(payments).where(eq(payments.orderId, lost.id))).toHaveLength(1);
      },
    );

    it('counts a rate limit across both processes', { timeout: 30_000 }, async () => {
      // sign-in: 10 attempts per account per 15 minutes (production limits)
      const email = `nobody.${randomBytes(4).toString('hex')}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const res = await fetch(`${base[i % 2]}/api/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'Wrong-password-1' }),
        });
        statuses.push(res.status);
      }
      // (no captcha answer: 400 'Captcha required'; the limit is checked on arrival, before that)
      expect(statuses).toEqual([...Array(10).fill(400), 429, 429, 429, 429]);
    });

    it('shows a product edited through one process fresh through the other', { timeout: 30_000 }, async () => {
      const product = await createProduct(database.db, { name: 'Before edit' });
      const admin = await createUser(database.db, { isAdmin: true });
      const url = `/api/products/${product.id}`;
      for (const b of base) expect((await json(fetch(b + url))).name).toBe('Before edit'); // cached in both
      const etag = (await fetch(base[1] + url)).headers.get('etag')!;

      const put = await fetch(base[0] + url, {
        method: 'PUT',
        headers: await bearerFor(JWT_SECRET, admin),
        body: JSON.stringify({ name: 'After edit' }),
      });
      expect(put.status).toBe(200);
      const res = await fetch(base[1] + url, { headers: { 'if-none-match': etag } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { name: string }).name).toBe('After edit');
    });

    it('sends each queued mail exactly once', { timeout: 60_000 }, async () => {
      const before = smtp.messages.length;
      const tag = randomBytes(4).toString('hex');
      for (let i = 0; i < 30; i++)
        await enqueueMail(database.db, {
          to: `m${i}.${tag}@example.com`,
          subject: `Mail ${i}`,
          html: '<p>x</p>',
          text: 'x',
        });
      // both workers poll the outbox (every 5 s) and claim with FOR UPDATE SKIP LOCKED
      const t0 = Date.now();
      while (
        smtp.messages.filter((m) => m.to[0]?.endsWith(`.${tag}@example.com`)).length < 30 &&
        Date.now() - t0 < 30_000
      )
        await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 6_000)); // another poll of each: nothing is sent twice
      const mine = smtp.messages.slice(before).filter((m) => m.to[0]?.endsWith(`.${tag}@example.com`));
      expect(mine).toHaveLength(30);
      expect(new Set(mine.map((m) => m.to[0])).size).toBe(30);
      const rows = await database.db.select().from(mailOutbox);
      expect(
        rows.filter((r) => r.to.endsWith(`.${tag}@example.com`)).every((r) => r.status === 'sent' && r.attempts === 1),
      ).toBe(true);
      // the order confirmations of the earlier tests went out once each too (one per order number)
      const confirmations = smtp.messages.filter((m) => /^Order #\d+ received/.test(m.subject));
      expect(confirmations.length).toBeGreaterThan(0);
      expect(new Set(confirmations.map((m) => m.subject)).size).toBe(confirmations.length);
    });

    it(
      'WORKERS=2 without Redis: both workers search the one index the primary holds, and a write in one drops it for both',
      { timeout: 120_000 },
      async () => {
        const word = `zephyr${randomBytes(3).toString('hex')}`;
        for (let i = 0; i < 3; i++) await createProduct(database.db, { name: `${word} Lamp ${i}` });
        const spare = await createProduct(database.db, { name: `Plain Box ${word.slice(6)}` });
        const s = startServer({
          NODE_ENV: 'production',
          JWT_SECRET,
          DATABASE_URL: withDatabase(adminUrl(), name),
          WORKERS: '2',
          PORT: '3254',
          SEARCH_INDEX_MIN_PRODUCTS: '0',
          // the primary reads its index in a worker thread (the bundle's own file), as a large shop does
          INDEX_WORKER_MIN_PRODUCTS: '0',
        });
        await waitReady(3254, s);
        for (let t0 = Date.now(); !/2 worker processes/.test(s.output()) && Date.now() - t0 < 60_000;)
          await new Promise((r) => setTimeout(r, 100));
        let n = 0;
        // a distinct page size per request: no answer cache in the way, every request ranks and counts
        const totals = (count: number) =>
          Promise.all(
            Array.from({ length: count }, async () => {
              const res = await fetch(
                `http://127.0.0.1:3254/api/products?keyword=${word}&pageSize=${10 + (n++ % 80)}`,
                {
                  headers: { connection: 'close' },
                },
              );
              return ((await res.json()) as { total: number }).total;
            }),
          );
        expect(new Set(await totals(4))).toEqual(new Set([3]));
        // a product the index cannot know of (written behind the store's back): once the primary's index is
        // built, every worker's answer leaves it out, which only the index does
        await new Promise((r) => setTimeout(r, 1500));
        await createProduct(database.db, { name: `${word} Lamp unannounced` });
        expect(await totals(12)).toEqual(Array(12).fill(3));
        expect(s.output()).toMatch(/"msg":"catalogue index read in a worker thread","index":"keyword"/);
        // an admin's write through one worker drops the index for both: SQL (or a fresh index) sees all 4
        const admin = await bearerFor(JWT_SECRET, await createUser(database.db, { isAdmin: true }));
        const removed = await fetch(`http://127.0.0.1:3254/api/products/${spare.id}`, {
          method: 'DELETE',
          headers: { authorization: admin.authorization },
        });
        expect(removed.status).toBe(200);
        expect(await totals(12)).toEqual(Array(12).fill(4));
        s.child.kill('SIGTERM');
        expect(await s.exited).toBe(0);
      },
    );

    it('WORKERS=2 serves from two worker processes and stops them all on SIGTERM', { timeout: 120_000 }, async () => {
      const s = startServer({
        NODE_ENV: 'production',
        JWT_SECRET,
        DATABASE_URL: withDatabase(adminUrl(), name),
        REDIS_URL,
        WORKERS: '2',
        PORT: '3253',
      });
      await waitReady(3253, s);
      // the primary says so once every worker listens
      for (let t0 = Date.now(); !/2 worker processes/.test(s.output()) && Date.now() - t0 < 60_000;)
        await new Promise((r) => setTimeout(r, 100));
      const answers = await Promise.all(Array.from({ length: 20 }, () => fetch('http://127.0.0.1:3253/healthz')));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(s.output()).toMatch(/2 worker processes/);
      expect(s.output()).not.toMatch(/exited|error/i);
    });
  });
