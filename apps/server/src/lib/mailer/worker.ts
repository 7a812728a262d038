import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';

export const MAX_ATTEMPTS = 8;
/** Mails sent over SMTP per claim. */
const BATCH = 20;
/** Mails kept per claim when there is no SMTP server (outbox mode). */
const OUTBOX_BATCH = 200;
/** A claimed row left in 'sending' this long (a crash mid-send) is claimed again. */
const LOCK_MS = 2 * 60_000;
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 2 * 60 * 60_000;
/**
 * One send never takes longer than this, whatever the SMTP server does (nodemailer's own timeouts cover
 * each step: connecting 10 s, the greeting 10 s, silence mid-session 20 s).
 */
export const SEND_TIMEOUT_MS = 25_000;
/** Shutdown waits this long for a send in progress; a mail still claimed then is sent again later. */
const STOP_WAIT_MS = 5_000;
/** Failures of one mail (a refused recipient or message); any other failure is the SMTP server's. */
const PER_MAIL_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'ESTREAM']);

/** 1, 2, 4 … minutes after each failed attempt, at most two hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

/** The web addresses in a mail's text (a sentence's closing punctuation left out), each once, in order. */
export function linksOf(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"')]+/g) ?? [];
  return [...new Set(found.map((url) => url.replace(/[.,;:!?]+$/, '')))];
}

export interface Mailer {
  /** Sends every mail due at `now` once; answers how many were delivered. */
  runOnce(now?: Date): Promise<number>;
  /** Asks the worker to look at the outbox soon (after a commit that queued mail). */
  kick(): void;
  start(): void;
  stop(): Promise<void>;
}

export function createMailer(db: Db, config: Config, log: FastifyBaseLogger): Mailer {
  const transport: Transporter | null = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let started = false;
  /** Shutting down: the current run sends no further mail of its batch. */
  let stopping = false;

  /**
   * Claims due mail: for sending (`sending`, locked for LOCK_MS), or, with no SMTP server, as kept
   * (`sent` at once: nothing leaves the process). SKIP LOCKED lets several processes share the outbox on
   * PostgreSQL. Mail due for an attempt and mail whose claim ran out (a crash mid-send) are each found by
   * a walk of the status index that stops at the batch's size. Every claim and send leaves an index entry
   * of the row's old status until vacuum comes (under a stream of orders, tens of thousands); a walk marks
   * each one dead the first time it passes it, and later walks skip them. A bitmap scan, the planner's
   * choice for so few live rows, reads them all every time: 16 ms per claim at 40,000 such entries and
   * 150 ms at 110,000 under load, against ~1 ms for the walk.
   */
  async function claim(now: Date, size: number, as: 'sending' | 'sent') {
    return db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const due = tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)))
        .orderBy(asc(mailOutbox.status), asc(mailOutbox.nextAttemptAt))
        .limit(size)
        .for('update', { skipLocked: true });
      const expired = tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'sending'), lt(mailOutbox.lockedUntil, now)))
        .limit(size)
        .for('update', { skipLocked: true });
      return tx
        .update(mailOutbox)
        .set({
          attempts: sql`${mailOutbox.attempts} + 1`,
          ...(as === 'sent'
            ? { status: 'sent', sentAt: new Date(), lockedUntil: null, lastError: null }
            : { status: 'sending', lockedUntil: new Date(now.getTime() + LOCK_MS) }),
        })
        .where(sql`${mailOutbox.id} in (select id from (${due}) due union all select id from (${expired}) expired)`)
        .returning();
    });
  }

  /** Sends one mail over SMTP. */
  async function deliver(smtp: Transporter, mail: typeof mailOutbox.$inferSelect) {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('SMTP send timed out'), { code: 'ETIMEDOUT' })),
        SEND_TIMEOUT_MS,
      );
    });
    const send = smtp.sendMail({
      from: config.mailFrom,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });
    send.catch(() => {}); // a send given up on may still fail later
    try {
      await Promise.race([send, deadline]);
    } finally {
      clearTimeout(timer);
    }
    log.info({ mailId: mail.id, to: mail.to, subject: mail.subject }, 'mail sent');
  }

  /**
   * Outbox mode: the database keeps the mail. Outside production the log has its text, and its links (a
   * confirmation link, say) in the message itself, where a developer reading the console finds them;
   * production logs neither, as links carry single-use tokens.
   */
  function kept(mail: typeof mailOutbox.$inferSelect) {
    const fields = { mailId: mail.id, to: mail.to, subject: mail.subject };
    if (config.isProduction) {
      log.info(fields, 'mail kept in the outbox (no SMTP_URL)');
      return;
    }
    const links = linksOf(mail.text);
    log.info(
      { ...fields, links, text: mail.text },
      `mail kept in the outbox (no SMTP_URL) to ${mail.to}: "${mail.subject}"${links.length ? ` ${links.join(' ')}` : ''}`,
    );
  }

  /**
   * Mails claimed but not tried go back to the outbox, their attempt not counted: when the SMTP server is
   * down (refused, silent, timed out: with the same back-off, instead of waiting out each timeout in
   * turn), or when the process is shutting down (due at once, for the next start or another process).
   */
  async function putBack(mails: (typeof mailOutbox.$inferSelect)[], nextAttemptAt: Date) {
    if (mails.length === 0) return;
    await db
      .update(mailOutbox)
      .set({ status: 'pending', lockedUntil: null, attempts: sql`${mailOutbox.attempts} - 1`, nextAttemptAt })
      .where(
        inArray(
          mailOutbox.id,
          mails.map((m) => m.id),
        ),
      );
  }

  async function run(now: Date): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (!transport) {
        // outbox mode: a batch is kept in one statement, and a larger one
        if (stopping) return delivered;
        const batch = await claim(now, OUTBOX_BATCH, 'sent');
        for (const mail of batch) kept(mail);
        delivered += batch.length;
        if (batch.length < OUTBOX_BATCH) return delivered;
        continue;
      }
      const batch = await claim(now, BATCH, 'sending');
      for (const [i, mail] of batch.entries()) {
        if (stopping) {
          await putBack(batch.slice(i), now);
          return delivered;
        }
        try {
          await deliver(transport, mail);
          await db
            .update(mailOutbox)
            .set({ status: 'sent', sentAt: new Date(), lockedUntil: null, lastError: null })
            .where(eq(mailOutbox.id, mail.id));
          delivered++;
        } catch (err) {
          const failed = mail.attempts >= MAX_ATTEMPTS;
          const lastError = String((err as Error)?.message ?? err).slice(0, 1000);
          const nextAttemptAt = new Date(now.getTime() + retryDelayMs(mail.attempts));
          await db
            .update(mailOutbox)
            .set({ status: failed ? 'failed' : 'pending', lockedUntil: null, lastError, nextAttemptAt })
            .where(eq(mailOutbox.id, mail.id));
          log[failed ? 'error' : 'warn'](
            { mailId: mail.id, attempts: mail.attempts, err: lastError },
            failed ? 'mail failed for good' : 'mail failed; will retry',
          );
          const code = (err as { code?: unknown })?.code;
          if (!PER_MAIL_CODES.has(typeof code === 'string' ? code : '')) {
            const rest = batch.slice(i + 1);
            await putBack(rest, nextAttemptAt);
            if (rest.length) log.warn({ mails: rest.length }, 'SMTP server unavailable; the other mails wait too');
            return delivered;
          }
        }
      }
      if (batch.length < BATCH) return delivered;
    }
  }

  function runOnce(now = new Date()): Promise<number> {
    // one run at a time per process; a kick during a run asks for another right after
    if (running) {
      again = true;
      return running;
    }
    running = run(now).finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(ms: number) {
    if (!started) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runOnce()
        .catch((err) => log[started ? 'error' : 'debug']({ err }, 'mail worker run failed'))
        .finally(() => {
          const next = again ? 0 : config.mailWorker.pollMs;
          again = false;
          schedule(next);
        });
    }, ms);
    timer.unref();
  }

  return {
    runOnce,
    kick() {
      if (!started) return;
      if (running) again = true;
      else schedule(0);
    },
    start() {
      if (started) return;
      started = true;
      stopping = false;
      // The embedded database has one process (its lock file): a row still 'sending' was claimed by a
      // process that died mid-send, so it goes out again now rather than after LOCK_MS. (On PostgreSQL
      // another live process may hold it: there the lock simply expires.)
      const orphans = config.databaseUrl
        ? Promise.resolve()
        : db
            .update(mailOutbox)
            .set({ status: 'pending', lockedUntil: null })
            .where(eq(mailOutbox.status, 'sending'))
            .then(() => undefined);
      orphans
        .catch((err: unknown) => log.error({ err }, 'could not release mails of a previous run'))
        .finally(() => schedule(0));
    },
    async stop() {
      started = false;
      stopping = true;
      clearTimeout(timer);
      // a send stuck on a silent SMTP server does not hold up the shutdown: its mail keeps its claim and
      // is sent again later (never lost; possibly twice if the server took it at that very moment)
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        running?.catch(() => {}),
        new Promise((resolve) => {
          wait = setTimeout(resolve, STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(wait);
      transport?.close();
    },
  };
}
