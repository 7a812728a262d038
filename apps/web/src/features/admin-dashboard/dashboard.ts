import { formatMoney, LOW_STOCK_MAX, STATS_DEFAULT_DAYS, STATS_MAX_DAYS, type Stats } from '@store/shared';
import { qs } from '#web/lib/api.ts';
import { paths } from '#web/lib/paths.ts';

// The dashboard's rules, free of React: date ranges (UTC calendar days, both ends included), the
// address it keeps them in, the chart's data and the order-list links of its cards.

/** A range of UTC days, YYYY-MM-DD, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

/** The quick ranges: the last N days, today (UTC) included. */
export const PRESETS = [7, 30, 90] as const;
export type Preset = (typeof PRESETS)[number];

const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Whether `value` is a real calendar day written YYYY-MM-DD (what a date input gives). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && utcDay(at) === value;
}

/** The day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** How many days the range holds, both ends counted. */
export function dayCount({ from, to }: DayRange): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The last `days` days, ending today (UTC). */
export function presetRange(days: number, now = new Date()): DayRange {
  const to = utcDay(now);
  return { from: addDays(to, -(days - 1)), to };
}

/** The preset this range is (the last 7, 30 or 90 days up to today), or null for any other range. */
export function presetOf(range: DayRange, now = new Date()): Preset | null {
  if (range.to !== utcDay(now)) return null;
  return PRESETS.find((days) => dayCount(range) === days) ?? null;
}

export const RANGE_MESSAGES = {
  from: 'Enter the first day of the range',
  to: 'Enter the last day of the range',
  order: 'From must be on or before To',
  tooLong: `The range can be at most ${STATS_MAX_DAYS} days`,
} as const;

export type RangeErrors = Partial<Record<keyof DayRange, string>>;

/** What is wrong with a custom range, per field (nothing when it can be shown). */
export function validateRange({ from, to }: DayRange): RangeErrors {
  const errors: RangeErrors = {};
  if (!isDay(from)) errors.from = RANGE_MESSAGES.from;
  if (!isDay(to)) errors.to = RANGE_MESSAGES.to;
  if (errors.from || errors.to) return errors;
  if (from > to) return { from: RANGE_MESSAGES.order };
  if (dayCount({ from, to }) > STATS_MAX_DAYS) return { to: RANGE_MESSAGES.tooLong };
  return errors;
}

export const hasErrors = (errors: RangeErrors) => Boolean(errors.from || errors.to);

/**
 * The range the address asks for (`?from=&to=`): the last 30 days when it names none. A missing end
 * is filled in (`to` today, `from` 30 days before `to`); a range that cannot be shown falls back to
 * the last 30 days, with `invalid` set so the page can say so.
 */
export function rangeFromSearch(search: URLSearchParams, now = new Date()): { range: DayRange; invalid: boolean } {
  const fallback = presetRange(STATS_DEFAULT_DAYS, now);
  const from = search.get('from');
  const to = search.get('to');
  if (!from && !to) return { range: fallback, invalid: false };
  const end = to || fallback.to;
  const range = { from: from || (isDay(end) ? addDays(end, -(STATS_DEFAULT_DAYS - 1)) : ''), to: end };
  return hasErrors(validateRange(range)) ? { range: fallback, invalid: true } : { range, invalid: false };
}

export const THRESHOLD_MESSAGE = `Enter a whole number from 0 to ${LOW_STOCK_MAX.toLocaleString('en-US')}`;

/** A low-stock threshold typed or read from the address: a whole number from 0 to the maximum, else null. */
export function parseThreshold(value: string | null): number | null {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return n <= LOW_STOCK_MAX ? n : null;
}

/** The address's query for a range and, when set, a low-stock threshold. */
export function dashboardSearch(range: DayRange, lowStock: number | null): string {
  return qs({ from: range.from, to: range.to, lowStock: lowStock ?? undefined });
}

/** uPlot's columns: x (the day's position, 0…n-1), revenue and orders of each day. */
export type ChartColumns = [x: number[], revenue: number[], orders: number[]];

/** The chart's data from the per-day figures, in their (date) order. */
export function chartData(byDay: Stats['byDay']): ChartColumns {
  return [byDay.map((_, i) => i), byDay.map((d) => d.revenue), byDay.map((d) => d.orders)];
}

const SHORT_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const at = (day: string) => new Date(`${day}T00:00:00Z`);

/** An axis label: `Jan 5` (the UTC day). */
export const shortDay = (day: string) => SHORT_DAY.format(at(day));
/** A day in text: `Jan 5, 2025` (the UTC day). */
export const longDay = (day: string) => LONG_DAY.format(at(day));
/** A range in text: `Jan 5, 2025 – Feb 3, 2025`, one day once. */
export const rangeLabel = ({ from, to }: DayRange) =>
  from === to ? longDay(from) : `${longDay(from)} – ${longDay(to)}`;

/**
 * Which of `count` days get an axis label on a plot `width` CSS pixels wide: every day when they fit
 * `minSpace` apart, else every 2nd, 7th, 14th or 28th…, counted from the last day (today stays labelled).
 */
export function dayTicks(count: number, width: number, minSpace = 56): number[] {
  if (count <= 0) return [];
  const fit = Math.max(1, Math.floor(width / minSpace));
  const step = [1, 2, 7, 14, 28, 56, 91, 182, 364].find((s) => Math.ceil(count / s) <= fit) ?? 364;
  const ticks: number[] = [];
  for (let i = count - 1; i >= 0; i -= step) ticks.unshift(i);
  return ticks;
}

/** Compact money for an axis: `$0`, `$850`, `$1.2k`, `$3.4M`. */
export function axisMoney(dollars: number): string {
  const abs = Math.abs(dollars);
  const sign = dollars < 0 ? '-' : '';
  if (abs >= 1_000_000) return `${sign}$${+(abs / 1_000_000).toFixed(1)}M`;
  if (abs >= 1_000) return `${sign}$${+(abs / 1_000).toFixed(1)}k`;
  return `${sign}$${+abs.toFixed(2)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The chart's text alternative: the range and its totals, and the best day. */
export function chartSummary(stats: Stats): string {
  const head = `Revenue and orders per day, ${rangeLabel(stats)} (UTC): ${formatMoney(stats.revenue)} revenue from ${plural(
    stats.paidOrders,
    'paid order',
  )}, ${plural(stats.orders, 'order')} placed.`;
  const best = stats.byDay.reduce<Stats['byDay'][number] | null>(
    (top, d) => (d.revenue > 0 && (!top || d.revenue > top.revenue) ? d : top),
    null,
  );
  return best ? `${head} Best day ${longDay(best.date)} with ${formatMoney(best.revenue)}.` : head;
}

/** The dashboard's cards; each opens the order list filtered to what it counts. */
export type Card = 'revenue' | 'orders' | 'average' | 'toShip';

/**
 * The order list behind a card. Revenue and the average count the paid orders of the range; Orders
 * every order placed in it; Orders to ship the paid, unshipped ones of any date. (The order list
 * filters by the day an order was placed.)
 */
export function cardLink(card: Card, { from, to }: DayRange): string {
  const query =
    card === 'toShip'
      ? qs({ paid: 'yes', shipped: 'no' })
      : qs({ paid: card === 'orders' ? undefined : 'yes', dateFrom: from, dateTo: to });
  return `${paths.adminOrders}${query}`;
}
