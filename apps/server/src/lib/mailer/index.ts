export { enqueueMail, outboxRow, type MailMessage } from './outbox.ts';
export { createMailer, MAX_ATTEMPTS, retryDelayMs, type Mailer } from './worker.ts';
export * from './templates.ts';
