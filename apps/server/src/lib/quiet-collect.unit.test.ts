import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectWhenQuiet } from './quiet-collect.ts';

describe('a full collection once the process goes quiet after a busy spell', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const requests = (c: { begin(): void; end(): void }, n: number) => {
    for (let i = 0; i < n; i++) c.begin();
    for (let i = 0; i < n; i++) c.end();
  };

  it('collects once nothing has been in flight for quietMs, after enough requests', () => {
    const collect = vi.fn();
    const c = collectWhenQuiet({ quietMs: 250, minRequests: 100, minIntervalMs: 10_000, minGrowthBytes: 0 }, collect);
    requests(c, 99);
    vi.advanceTimersByTime(1000);
    expect(collect).not.toHaveBeenCalled(); // not busy enough
    requests(c, 1);
    vi.advanceTimersByTime(249);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(c.collections).toBe(1);
  });

  it('waits while a request is in flight, and a new request puts the collection off', () => {
    const collect = vi.fn();
    const c = collectWhenQuiet({ quietMs: 250, minRequests: 10, minIntervalMs: 0, minGrowthBytes: 0 }, collect);
    requests(c, 10);
    vi.advanceTimersByTime(200);
    c.begin(); // arrives before the quiet time is over
    vi.advanceTimersByTime(1000);
    expect(collect).not.toHaveBeenCalled();
    c.end();
    vi.advanceTimersByTime(250);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('collects at most once per minIntervalMs, and only after minRequests more', () => {
    const collect = vi.fn();
    const c = collectWhenQuiet({ quietMs: 100, minRequests: 5, minIntervalMs: 5000, minGrowthBytes: 0 }, collect);
    requests(c, 5);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    requests(c, 5);
    vi.advanceTimersByTime(1000);
    expect(collect).toHaveBeenCalledTimes(1); // within the interval: held until it has passed
    vi.advanceTimersByTime(4000);
    expect(collect).toHaveBeenCalledTimes(2);
    requests(c, 4);
    vi.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('collects only when the resident memory grew by minGrowthBytes since the last collection', () => {
    const collect = vi.fn();
    let rss = 200;
    const c = collectWhenQuiet(
      { quietMs: 100, minRequests: 5, minIntervalMs: 0, minGrowthBytes: 50 },
      collect,
      () => rss,
    );
    rss = 240; // busy, but grown by less than 50 since the start
    requests(c, 5);
    vi.advanceTimersByTime(1000);
    expect(collect).not.toHaveBeenCalled();
    rss = 260; // the next quiet moment sees enough growth: the requests counted on
    requests(c, 1);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    collect.mockImplementation(() => {
      rss = 180;
    });
    rss = 220; // measured from what the collection left (260 -> 180, then 220: 40 < 50)
    requests(c, 5);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    rss = 150; // V8 gave memory back on its own: growth counts from the lowest seen
    requests(c, 5);
    vi.advanceTimersByTime(100);
    rss = 201;
    requests(c, 5);
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it("runs V8's own full collection by default (the process needs no --expose-gc)", () => {
    vi.useRealTimers();
    const c = collectWhenQuiet({ quietMs: 0, minRequests: 1, minIntervalMs: 0, minGrowthBytes: 0 });
    return new Promise<void>((resolve) => {
      requests(c, 1);
      setTimeout(() => {
        expect(c.collections).toBe(1);
        c.stop();
        resolve();
      }, 50);
    });
  });

  it('stops: no collection after stop()', () => {
    const collect = vi.fn();
    const c = collectWhenQuiet({ quietMs: 10, minRequests: 1, minIntervalMs: 0, minGrowthBytes: 0 }, collect);
    c.begin();
    c.stop();
    c.end();
    vi.advanceTimersByTime(100);
    expect(collect).not.toHaveBeenCalled();
  });
});
