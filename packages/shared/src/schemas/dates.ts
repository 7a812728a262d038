import { z } from 'zod';

/**
 * Dates a request may carry: years 1 to 9999. Beyond them JavaScript writes a date with a signed
 * six-digit year ('+010000-01-01T…') that PostgreSQL cannot read, and year 0 or before does not exist
 * in PostgreSQL; so a date outside is refused where it is read, never sent to the database.
 */
export const DATE_MIN = new Date('0001-01-01T00:00:00.000Z');
export const DATE_MAX = new Date('9999-12-31T23:59:59.999Z');

export const DATE_MESSAGES = {
  invalid: 'Invalid date',
  outOfRange: 'Date must be between years 1 and 9999',
} as const;

/** The messages of a named date parameter (a query string's dateFrom, dateTo). */
export const dateParamMessages = (name: string) => ({
  invalid: `${name}: not a date; use YYYY-MM-DD or an ISO date-time such as 2025-01-31T12:00:00Z`,
  outOfRange: `${name}: dates must be between years 1 and 9999`,
});

export interface BoundedDate {
  date: Date;
  /** Written as a day (YYYY-MM-DD): the whole UTC day is meant. */
  wholeDay: boolean;
}

// a year of four digits, or of more digits or a sign (only so that it can be called out of range)
const YEAR = String.raw`([+-]?\d{4,6})`;
const DAY_RE = new RegExp(String.raw`^${YEAR}-(\d{2})-(\d{2})$`);
const INSTANT_RE = new RegExp(
  String.raw`^${YEAR}-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,9}))?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$`,
  'i',
);

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;

/**
 * A day ('YYYY-MM-DD', the whole UTC day) or an ISO date-time with a time zone ('2025-01-31T12:00:00Z',
 * '…+02:00'), as a Date from year 1 to 9999 in UTC; 'out-of-range' outside those years, 'invalid' for
 * anything else (an impossible day such as 2024-02-30 included).
 */
export function parseBoundedDate(input: string): BoundedDate | 'invalid' | 'out-of-range' {
  const value = input.trim();
  const dayMatch = DAY_RE.exec(value);
  const match = dayMatch ?? INSTANT_RE.exec(value);
  if (!match) return 'invalid';
  const [, y = '', month = '', day = '', hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysIn(year, Number(month)))
    return 'invalid';
  if (year < 1 || year > 9999) return 'out-of-range';
  // rewritten in the one form every JavaScript engine reads the same way
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${String(year).padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}.${ms}${offset}`);
  if (Number.isNaN(date.getTime())) return 'invalid';
  // an offset can carry an instant of year 1 or 9999 over the edge
  if (date < DATE_MIN || date > DATE_MAX) return 'out-of-range';
  return { date, wholeDay: Boolean(dayMatch) };
}

/**
 * A date parameter or field as a string: blank (no date), or one parseBoundedDate takes. Each failure
 * gets its own message.
 */
export function boundedDate(messages: { invalid?: string; outOfRange?: string } = {}) {
  const invalid = messages.invalid ?? DATE_MESSAGES.invalid;
  const outOfRange = messages.outOfRange ?? DATE_MESSAGES.outOfRange;
  return z
    .string({ error: invalid })
    .max(40, invalid)
    .superRefine((value, ctx) => {
      if (!value.trim()) return;
      const parsed = parseBoundedDate(value);
      if (parsed === 'invalid') ctx.addIssue({ code: 'custom', message: invalid });
      else if (parsed === 'out-of-range') ctx.addIssue({ code: 'custom', message: outOfRange });
    });
}
