import { startMailServer } from './mail-server.ts';

/**
 * Starts the SMTP sink the e2e server mails to; Playwright calls the returned function at the end.
 * When another local run (reusing the same e2e server) already has the sink, its file is shared.
 */
export default async function globalSetup() {
  try {
    return await startMailServer();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    console.warn('e2e mail sink already running (another local run): sharing it');
    return undefined;
  }
}
