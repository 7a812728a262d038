import type { Stats } from '@store/shared';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  axisMoney,
  cardLink,
  chartData,
  chartSummary,
  dashboardSearch,
  dayCount,
  dayTicks,
  isDay,
  parseThreshold,
  presetOf,
  presetRange,
  RANGE_MESSAGES,
  rangeFromSearch,
  rangeLabel,
  shortDay,
  validateRange,
} from './dashboard.ts';

// late in the evening west of UTC: the UTC day is already the next one
const NOW = new Date('2025-03-01T02:30:00Z');

const stats = (over: Partial<Stats> = {}): Stats => ({
  from: '2025-02-27',
  to: '2025-03-01',
  revenue: 150,
  orders: 4,
  paidOrders: 3,
  averageOrderValue: 50,
  refunded: 0,
  byDay: [
    { date: '2025-02-27', orders: 1, revenue: 20 },
    { date: '2025-02-28', orders: 0, revenue: 0 },
    { date: '2025-03-01', orders: 3, revenue: 130 },
  ],
  topProducts: [],
  lowStock: [],
  toShip: 2,
  lowStockThreshold: 5,
  ...over,
});

describe('range presets', () => {
  it('end today in UTC and count today as one of the days', () => {
    expect(presetRange(7, NOW)).toEqual({ from: '2025-02-23', to: '2025-03-01' });
    expect(presetRange(30, NOW)).toEqual({ from: '2025-01-31', to: '2025-03-01' });
    expect(presetRange(90, NOW)).toEqual({ from: '2024-12-02', to: '2025-03-01' });
    for (const days of [7, 30, 90]) expect(dayCount(presetRange(days, NOW))).toBe(days);
  });

  it('take the UTC day, not the local one, at either edge of the day', () => {
    expect(presetRange(1, new Date('2025-03-01T00:00:00Z'))).toEqual({ from: '2025-03-01', to: '2025-03-01' });
    expect(presetRange(1, new Date('2025-02-28T23:59:59.999Z'))).toEqual({ from: '2025-02-28', to: '2025-02-28' });
  });

  it('are recognised only when the range ends today', () => {
    expect(presetOf(presetRange(7, NOW), NOW)).toBe(7);
    expect(presetOf(presetRange(90, NOW), NOW)).toBe(90);
    expect(presetOf({ from: '2025-02-22', to: '2025-02-28' }, NOW)).toBeNull();
    expect(presetOf(presetRange(8, NOW), NOW)).toBeNull();
  });

  it('count days across months, leap years and year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(dayCount({ from: '2024-01-01', to: '2024-12-31' })).toBe(366);
  });
});

describe('a custom range', () => {
  it('is valid from one day up to 366 days, both ends included', () => {
    expect(validateRange({ from: '2025-03-01', to: '2025-03-01' })).toEqual({});
    expect(validateRange({ from: '2024-01-01', to: '2024-12-31' })).toEqual({});
    expect(validateRange({ from: '2024-01-01', to: '2025-01-01' })).toEqual({ to: RANGE_MESSAGES.tooLong });
    expect(RANGE_MESSAGES.tooLong).toBe('The range can be at most 366 days');
  });

  it('must not end before it starts', () => {
    expect(validateRange({ from: '2025-03-02', to: '2025-03-01' })).toEqual({ from: RANGE_MESSAGES.order });
  });

  it('needs two real days', () => {
    expect(validateRange({ from: '', to: '2025-03-01' })).toEqual({ from: RANGE_MESSAGES.from });
    expect(validateRange({ from: '2025-02-30', to: '' })).toEqual({ from: RANGE_MESSAGES.from, to: RANGE_MESSAGES.to });
    for (const bad of ['2025-2-01', '2025-13-01', 'yesterday', '2025-03-01T00:00:00Z']) expect(isDay(bad)).toBe(false);
    expect(isDay('2024-02-29')).toBe(true);
  });
});

describe('the range in the address', () => {
  const search = (s: string) => new URLSearchParams(s);

  it('is the last 30 days when it names none', () => {
    expect(rangeFromSearch(search(''), NOW)).toEqual({ range: presetRange(30, NOW), invalid: false });
  });

  it('is read as given, a missing end filled in', () => {
    expect(rangeFromSearch(search('from=2025-01-01&to=2025-01-31'), NOW)).toEqual({
      range: { from: '2025-01-01', to: '2025-01-31' },
      invalid: false,
    });
    expect(rangeFromSearch(search('from=2025-02-01'), NOW).range).toEqual({ from: '2025-02-01', to: '2025-03-01' });
    expect(rangeFromSearch(search('to=2025-01-30'), NOW).range).toEqual({ from: '2025-01-01', to: '2025-01-30' });
  });

  it('falls back to the last 30 days, flagged, when it cannot be shown', () => {
    for (const bad of ['from=2025-03-05&to=2025-03-01', 'from=2020-01-01&to=2025-01-01', 'from=soon', 'to=2025-02-30'])
      expect(rangeFromSearch(search(bad), NOW), bad).toEqual({ range: presetRange(30, NOW), invalid: true });
  });

  it('is written with the threshold when one is set', () => {
    const range = { from: '2025-01-01', to: '2025-01-31' };
    expect(dashboardSearch(range, null)).toBe('?from=2025-01-01&to=2025-01-31');
    expect(dashboardSearch(range, 0)).toBe('?from=2025-01-01&to=2025-01-31&lowStock=0');
  });
});

describe('the low-stock threshold', () => {
  it('is a whole number from 0 to the maximum', () => {
    expect(parseThreshold('0')).toBe(0);
    expect(parseThreshold(' 12 ')).toBe(12);
    expect(parseThreshold('1000000')).toBe(1_000_000);
    for (const bad of [null, '', '-1', '2.5', '1e3', 'abc', '1000001'])
      expect(parseThreshold(bad), String(bad)).toBeNull();
  });
});

describe('the chart', () => {
  it('takes one x per day, in order, with its revenue and orders', () => {
    expect(chartData(stats().byDay)).toEqual([
      [0, 1, 2],
      [20, 0, 130],
      [1, 0, 3],
    ]);
    expect(chartData([])).toEqual([[], [], []]);
  });

  it('labels every day when they fit, else fewer, always the last one', () => {
    expect(dayTicks(7, 800)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(dayTicks(7, 300)).toEqual([0, 2, 4, 6]);
    const ninety = dayTicks(90, 300);
    expect(ninety.at(-1)).toBe(89);
    expect(ninety.length).toBeLessThanOrEqual(Math.floor(300 / 56));
    expect(dayTicks(0, 500)).toEqual([]);
    expect(dayTicks(1, 10)).toEqual([0]);
  });

  it('writes axis money compactly and days in UTC', () => {
    expect(axisMoney(0)).toBe('$0');
    expect(axisMoney(850.5)).toBe('$850.5');
    expect(axisMoney(1250)).toBe('$1.3k');
    expect(axisMoney(3_400_000)).toBe('$3.4M');
    expect(shortDay('2025-03-01')).toBe('Mar 1');
    expect(rangeLabel({ from: '2025-02-27', to: '2025-03-01' })).toBe('Feb 27, 2025 – Mar 1, 2025');
    expect(rangeLabel({ from: '2025-03-01', to: '2025-03-01' })).toBe('Mar 1, 2025');
  });

  it('is summed up in text: totals and the best day', () => {
    expect(chartSummary(stats())).toBe(
      'Revenue and orders per day, Feb 27, 2025 – Mar 1, 2025 (UTC): $150.00 revenue from 3 paid orders, 4 orders placed. Best day Mar 1, 2025 with $130.00.',
    );
    const none = stats({
      revenue: 0,
      paidOrders: 0,
      orders: 1,
      byDay: [{ date: '2025-03-01', orders: 1, revenue: 0 }],
    });
    expect(chartSummary(none)).toBe(
      'Revenue and orders per day, Feb 27, 2025 – Mar 1, 2025 (UTC): $0.00 revenue from 0 paid orders, 1 order placed.',
    );
  });
});

describe('the cards link to the order list', () => {
  const range = { from: '2025-02-01', to: '2025-02-28' };

  it('filtered to the paid orders of the range for revenue and the average', () => {
    expect(cardLink('revenue', range)).toBe('/admin/orderlist?paid=yes&dateFrom=2025-02-01&dateTo=2025-02-28');
    expect(cardLink('average', range)).toBe(cardLink('revenue', range));
  });

  it('filtered to every order of the range for orders', () => {
    expect(cardLink('orders', range)).toBe('/admin/orderlist?dateFrom=2025-02-01&dateTo=2025-02-28');
  });

  it('filtered to the paid, unshipped orders of any date for orders to ship', () => {
    expect(cardLink('toShip', range)).toBe('/admin/orderlist?paid=yes&shipped=no');
  });
});
