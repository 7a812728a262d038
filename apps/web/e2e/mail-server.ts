import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

import { E2E_PORT, MAIL_PORT } from './env.ts';

/** Every accepted message, appended as JSON (the tests read it; see accounts.ts). */
export const MAIL_FILE = path.resolve(import.meta.dirname, `../../../.test-data/e2e-mail-${E2E_PORT}.json`);

export interface StoredMail {
  to: string[];
  subject: string;
  text: string;
  at: number;
}

export function readMails(): StoredMail[] {
  try {
    return JSON.parse(readFileSync(MAIL_FILE, 'utf8')) as StoredMail[];
  } catch {
    return [];
  }
}

/** A local SMTP server (no TLS, no auth) that keeps what it receives in MAIL_FILE. */
export async function startMailServer(): Promise<() => Promise<void>> {
  mkdirSync(path.dirname(MAIL_FILE), { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((email) => {
            const mails = readMails();
            mails.push({
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: email.subject ?? '',
              text: email.text ?? '',
              at: Date.now(),
            });
            writeFileSync(MAIL_FILE, JSON.stringify(mails));
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(MAIL_PORT, '127.0.0.1', () => resolve());
  });
  writeFileSync(MAIL_FILE, '[]');
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
