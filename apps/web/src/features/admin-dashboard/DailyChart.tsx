import { formatMoney, type Stats } from '@store/shared';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisMoney, chartData, dayTicks, longDay, shortDay } from './dashboard.ts';
import type { BsTheme } from './use-bs-theme.ts';

// Lines, axes and text keep at least 3:1 against the card in either theme.
const COLORS: Record<BsTheme, { text: string; grid: string; revenue: string; revenueFill: string; orders: string }> = {
  light: {
    text: '#495057',
    grid: 'rgba(0, 0, 0, 0.08)',
    revenue: '#0d6efd',
    revenueFill: 'rgba(13, 110, 253, 0.35)',
    orders: '#b54708',
  },
  dark: {
    text: '#ced4da',
    grid: 'rgba(255, 255, 255, 0.12)',
    revenue: '#6ea8fe',
    revenueFill: 'rgba(110, 168, 254, 0.4)',
    orders: '#ffa94d',
  },
};

const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** Whole numbers of orders on their axis. */
const COUNT_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000, 100_000];

function options(days: Stats['byDay'], theme: BsTheme, width: number, height: number): uPlot.Options {
  const c = COLORS[theme];
  const last = Math.max(0, days.length - 1);
  const valueOr = (v: number | null, format: (v: number) => string) => (v === null ? '–' : format(v));
  const axis = { stroke: c.text, font: AXIS_FONT, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid } };
  return {
    width,
    height,
    // no drag-to-zoom: the range picker sets the days
    cursor: { drag: { x: false, y: false, setScale: false } },
    scales: {
      x: { time: false, range: () => [-0.5, last + 0.5] },
      revenue: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      orders: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.15))] },
    },
    series: [
      { label: 'Day', value: (_u, v) => valueOr(v, (i) => (days[i] ? longDay(days[i].date) : '')) },
      {
        label: 'Revenue',
        scale: 'revenue',
        stroke: c.revenue,
        fill: c.revenueFill,
        width: 1,
        paths: uPlot.paths.bars?.({ size: [0.7, 48] }),
        points: { show: false },
        value: (_u, v) => valueOr(v, formatMoney),
      },
      {
        label: 'Orders',
        scale: 'orders',
        stroke: c.orders,
        width: 2,
        points: { show: days.length <= 31, size: 6, fill: c.orders },
        value: (_u, v) => valueOr(v, String),
      },
    ],
    axes: [
      {
        ...axis,
        grid: { show: false },
        splits: (u) => dayTicks(days.length, u.bbox.width / uPlot.pxRatio),
        values: (_u, splits) => splits.map((i) => (days[i] ? shortDay(days[i].date) : '')),
      },
      { ...axis, scale: 'revenue', size: 56, values: (_u, splits) => splits.map(axisMoney) },
      {
        ...axis,
        scale: 'orders',
        side: 1,
        size: 40,
        grid: { show: false },
        incrs: COUNT_INCRS,
        values: (_u, splits) => splits.map((n) => n.toLocaleString('en-US')),
      },
    ],
  };
}

/**
 * Revenue (bars, left axis) and orders (line, right axis) per day, drawn by uPlot into a box of fixed
 * height: it follows the box's width and is redrawn in the other colours when the theme changes. It
 * is a picture only: the page gives its text summary and the table of the same figures.
 */
export function DailyChart({ days, theme }: { days: Stats['byDay']; theme: BsTheme }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // the legend sits under the plot inside the same box: the plot takes the height it leaves
    const plotHeight = (plot: uPlot) =>
      Math.max(120, el.clientHeight - (plot.root.querySelector<HTMLElement>('.u-legend')?.offsetHeight ?? 0));
    const plot = new uPlot(options(days, theme, el.clientWidth, el.clientHeight), chartData(days), el);
    plot.setSize({ width: el.clientWidth, height: plotHeight(plot) });
    const resize = new ResizeObserver(() => {
      const width = el.clientWidth;
      const height = plotHeight(plot);
      if (width > 0 && (width !== plot.width || height !== plot.height)) plot.setSize({ width, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, theme]);

  return <div ref={box} className="dash-chart" aria-hidden="true" data-testid="daily-chart" />;
}
