import { errorChain } from './sql.ts';

/**
 * Whether an error means the database is out of reach for a moment (restarting, refusing connections,
 * too slow to answer), not that the request or the code is wrong. Such a request is answered 503: the
 * same request may work a few seconds later, and the pool reconnects on its own.
 */

/**
 * SQLSTATEs: connection exceptions (class 08), the server short of resources (class 53: disk full, out of
 * memory, too many connections), shutting down or starting up (57P01-57P03), a statement timeout (57014).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|53...|57P0[1-3]|57014)$/;
/** Socket errors of the driver's connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres says, without a code, when a connection is lost, cannot be made in time or a query times out. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of errorChain(err, 5)) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.test(code) || NETWORK_CODES.has(code))) return true;
    // (Drizzle's wrapper quotes the query and its parameters: only the driver's own words count)
    if (typeof message === 'string' && !message.startsWith('Failed query') && DRIVER_MESSAGES.test(message))
      return true;
    // several addresses tried (localhost on IPv4 and IPv6): each failed to connect
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every((x) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}
