import type { Db, Tx } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/index.ts';

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
  const [row] = await tx
    .insert(mailOutbox)
    // due "now" by the app's clock, the clock the worker compares with (the database's may run ahead by microseconds)
    .values({
      to: mail.to,
      subject: mail.subject.slice(0, 300),
      html: mail.html,
      text: mail.text,
      nextAttemptAt: new Date(),
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}
