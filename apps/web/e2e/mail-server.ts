import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startSmtp } from '../../server/test/smtp.ts';
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

/** The API tests' SMTP server (no TLS, no auth) on MAIL_PORT, keeping what it receives in MAIL_FILE. */
export async function startMailServer(): Promise<() => Promise<void>> {
  mkdirSync(path.dirname(MAIL_FILE), { recursive: true });
  const smtp = await startSmtp(MAIL_PORT, (mail) => {
    const mails = readMails();
    mails.push({ to: mail.to.map((a) => a.toLowerCase()), subject: mail.subject, text: mail.text, at: Date.now() });
    writeFileSync(MAIL_FILE, JSON.stringify(mails));
  });
  writeFileSync(MAIL_FILE, '[]');
  return () => smtp.close();
}
