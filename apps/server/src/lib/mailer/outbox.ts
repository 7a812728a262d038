import type { Db, Tx } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * Queues a mail in the caller's transaction: it is sent only if the change that causes it commits,
 * and a crash after the commit loses nothing (the worker finds it in the outbox).
 */
export async function enqueueMail(tx: Db | Tx, mail: MailMessage): Promise<string> {
  const [row] = await tx.insert(mailOutbox).values(outboxRow(mail)).returning({ id: mailOutbox.id });
  return row!.id;
}

/** The outbox row of a mail, for callers that insert it within a statement of their own. */
export function outboxRow(mail: MailMessage): typeof mailOutbox.$inferInsert {
  return {
    to: mail.to,
    subject: mail.subject.slice(0, 300),
    html: mail.html,
    text: mail.text,
    // due "now" by the app's clock, the clock the worker compares with (the database's may run ahead by microseconds)
    nextAttemptAt: new Date(),
  };
}
