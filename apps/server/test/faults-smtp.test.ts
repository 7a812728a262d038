import net from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema/index.ts';
import { enqueueMail } from '../src/lib/mailer/index.ts';
import { createProduct } from './factories.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { orderBody, placeOrder, signedIn } from './orders-support.ts';
import { freePort, startSmtp } from './smtp.ts';

/**
 * The SMTP server refuses connections, then accepts them and says nothing, then works again. Mail waits
 * in the outbox with its back-off and goes out once SMTP is back; no request ever waits on SMTP, and a
 * silent SMTP server holds neither the other mails (one timeout per run, not one per mail) nor shutdown.
 * The app's own mail worker runs on its timer (polling every 200 ms); the SMTP servers are real sockets.
 */
const MINUTE = 60_000;
/** What nodemailer says when a server never greets, or the worker's own deadline. */
const TIMED_OUT = /greeting|timed? ?out/i;
let t: TestContext;
let port: number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = (ids: string[]) => t.database.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
/** The back-off passes: those of the mails still waiting to be sent are due now. */
const due = (ids: string[]) =>
  t.database.db
    .update(mailOutbox)
    .set({ nextAttemptAt: new Date() })
    .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.status, 'pending')));

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000) {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

/** A TCP server on `port` that accepts every connection and never says a word (no SMTP greeting). */
/** Waits until the worker has opened a connection to the silent server. */
const connected = (silent: { connections: () => number | Promise<number> }) =>
  until(
    'a connection to the silent server',
    async () => silent.connections(),
    (c) => c > 0,
    5_000,
  );

async function silentServer(onPort: number) {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => srv.listen(onPort, '127.0.0.1', resolve));
  return {
    connections: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => srv.close(resolve));
    },
  };
}

/** An order through the app, timed: the shopper's request never waits on SMTP. */
async function timedOrder(productId: string, buyer: Awaited<ReturnType<typeof signedIn>>) {
  const t0 = Date.now();
  const res = await placeOrder(t.app, buyer, orderBody([{ product: productId, qty: 1 }]));
  return { status: res.statusCode, ms: Date.now() - t0, id: res.json()._id as string };
}

beforeAll(async () => {
  port = await freePort();
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { mailWorker: { enabled: true, pollMs: 200 } });
});
afterAll(async () => t?.close());

describe('SMTP refusing or hanging', () => {
  it(
    'keeps mail in the outbox with back-off and sends it once SMTP returns; no request waits on it',
    {
      timeout: 60_000,
    },
    async () => {
      const db = t.database.db;
      const product = await createProduct(db, { countInStock: 100 });
      const buyer = await signedIn(t.app);

      // refused: the order is answered at once; its confirmation waits a minute before the next try
      const first = await timedOrder(product.id, buyer);
      expect(first.status).toBe(201);
      expect(first.ms).toBeLessThan(1_000);
      const [queued] = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(eq(mailOutbox.to, buyer.user.email!));
      const ids = [queued!.id];
      const [refused] = await until(
        'a first attempt',
        () => rows(ids),
        ([r]) => r!.attempts === 1 && r!.status === 'pending',
      );
      expect(refused!.lastError).toMatch(/ECONNREFUSED/);
      expect(refused!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(MINUTE - 5_000);

      // silent: a server that accepts and never greets. Four mails are due; the run gives up on the first
      // after the greeting timeout (10 s) and puts the others back untried, with the same back-off
      const silent = await silentServer(port);
      for (const n of [1, 2, 3])
        ids.push(
          await enqueueMail(db, { to: `later${n}@example.com`, subject: `Later ${n}`, html: '<p>x</p>', text: 'x' }),
        );
      const batch = [...ids];
      await due(batch);
      t.app.mailer.kick();
      await connected(silent);
      const hangStarted = Date.now();
      // meanwhile shoppers are answered as fast as ever (their mails queue behind)
      for (let i = 0; i < 3; i++) {
        const o = await timedOrder(product.id, buyer);
        expect(o.status).toBe(201);
        expect(o.ms).toBeLessThan(1_000);
      }
      const gaveUp = await until(
        'the run to give up',
        () => rows(batch),
        (rs) => rs.every((r) => r.status === 'pending') && rs.some((r) => TIMED_OUT.test(r.lastError ?? '')),
      );
      expect(Date.now() - hangStarted).toBeLessThan(15_000); // one greeting timeout, not one per mail
      expect(gaveUp.filter((r) => TIMED_OUT.test(r.lastError ?? ''))).toHaveLength(1);
      // one attempt counted in this run (plus the refused one before): the mails put back were not tried
      expect(gaveUp.reduce((n, r) => n + r.attempts, 0)).toBe(2);
      for (const r of gaveUp) expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
      await silent.close();
      const all = async () => db.select().from(mailOutbox);
      await until('no mail being sent', all, (rs) => rs.every((r) => r.status !== 'sending'));
      ids.splice(0, ids.length, ...(await all()).map((r) => r.id));
      expect(ids).toHaveLength(7);

      // back: every mail goes out exactly once when it is due. The worker's own run (asked for by the
      // orders placed during the hang) may have started between the silent server's close and the real
      // one's start, been refused, and put its mails back with a minute of back-off after they were made
      // due here: each look makes what is still pending due again
      const smtp = await startSmtp(port);
      try {
        await until(
          'all mails sent',
          async () => {
            await due(ids);
            t.app.mailer.kick();
            return rows(ids);
          },
          (rs) => rs.every((r) => r.status === 'sent'),
        );
        await sleep(500); // a second run would send duplicates meanwhile
        expect(smtp.messages).toHaveLength(ids.length);
        const subjects = smtp.messages.map((m) => m.subject);
        expect(new Set(subjects).size).toBe(ids.length);
        expect(subjects.filter((s) => /^Order #\d+ received/.test(s))).toHaveLength(4);
      } finally {
        await smtp.close();
      }
    },
  );

  it(
    'does not hold up shutdown on a silent SMTP server, and keeps the mail it was sending',
    {
      timeout: 30_000,
    },
    async () => {
      const db = t.database.db;
      const silent = await silentServer(port);
      try {
        const id = await enqueueMail(db, { to: 'stuck@example.com', subject: 'Stuck', html: '<p>x</p>', text: 'x' });
        t.app.mailer.kick();
        await connected(silent);
        const t0 = Date.now();
        await t.app.mailer.stop();
        expect(Date.now() - t0).toBeLessThan(7_000);
        // still claimed: a later run (here, or in another process once the claim expires) sends it again
        const [row] = await rows([id]);
        expect(row).toMatchObject({ status: 'sending', attempts: 1 });
      } finally {
        await silent.close();
      }
    },
  );
});
