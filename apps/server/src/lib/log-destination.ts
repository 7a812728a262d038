import pino from 'pino';

/**
 * Standard output for the log, written in chunks instead of one `write` per line.
 *
 * pino's default destination writes each line with its own system call. In production every request logs
 * a line, and an order a second one (its mail, without SMTP): at 1,000,000 products, 50 shoppers ordering
 * at once placed 2,026 orders a second with those writes and 2,506 without the lines at all. Lines now
 * gather until 8 KB are waiting, and whatever is waiting is written at least every `flushMs`, so a
 * quiet shop's lines still show within a quarter of a second. The process writes what is left when it
 * exits (crashes included); only a SIGKILL loses the last moment's lines.
 */
export interface LogDestination {
  stream: pino.DestinationStream;
  /** Writes what is waiting, at once (shutdown). */
  close(): void;
}

export function bufferedStdout(flushMs = 250): LogDestination {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
  const flushNow = () => {
    try {
      dest.flushSync();
    } catch {
      // a write under way: it carries what was waiting
    }
  };
  const timer = setInterval(() => dest.flush(), flushMs);
  timer.unref();
  process.once('exit', flushNow);
  return {
    stream: dest,
    close() {
      clearInterval(timer);
      flushNow();
    },
  };
}
