import { createServer, type AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  from: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves once `count` messages arrived (or rejects after the timeout). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** A free local port (for an SMTP server that is "down" first and started later). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no auth) that parses every message it accepts; `onMail` sees each
 * one as it arrives (the browser tests' sink, apps/web/e2e/mail-server.ts, keeps them in a file their
 * workers read).
 */
export async function startSmtp(port = 0, onMail?: (mail: ReceivedMail) => void): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
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
            const mail: ReceivedMail = {
              to: session.envelope.rcptTo.map((r) => r.address),
              from: email.from?.address ?? '',
              subject: email.subject ?? '',
              text: email.text ?? '',
              html: email.html ?? '',
            };
            messages.push(mail);
            onMail?.(mail);
            callback();
          })
          .catch(callback);
      });
    },
  });
  // a port already taken rejects (EADDRINUSE) rather than leaving the caller waiting
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    messages,
    async waitFor(count, timeoutMs = 10_000) {
      const t0 = Date.now();
      while (messages.length < count) {
        if (Date.now() - t0 > timeoutMs) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link to `${publicUrl}${path}/…` in a mail's text. */
export function linkToken(mail: { text: string }, path: string): string {
  const m = new RegExp(`${path.replace(/\//g, '\\/')}/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!m?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return m[1];
}
