import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createSweeper } from './sweeper.ts';

const log = () => ({ error: vi.fn() }) as unknown as FastifyBaseLogger & { error: ReturnType<typeof vi.fn> };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a background sweeper', () => {
  it('runs one round at a time, logs a failed round and goes on, and stop() waits for the round in progress', async () => {
    const l = log();
    let active = 0;
    let most = 0;
    let rounds = 0;
    let finished = 0;
    const sweeper = createSweeper(
      'test sweep',
      5,
      async () => {
        rounds++;
        active++;
        most = Math.max(most, active);
        await tick(20);
        active--;
        finished++;
        if (rounds === 1) throw new Error('boom');
      },
      l,
    );
    sweeper.start();
    await tick(80);
    await sweeper.stop();
    expect(most).toBe(1);
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(finished).toBe(rounds);
    expect(l.error).toHaveBeenCalledTimes(1);
    expect(l.error.mock.calls[0]![1]).toBe('test sweep failed');
    const after = rounds;
    await tick(30);
    expect(rounds).toBe(after);
  });

  it('never starts with a period of 0, and waits for its first tick when asked to', async () => {
    const round = vi.fn(async () => undefined);
    const off = createSweeper('off', 0, round, log());
    off.start();
    const later = createSweeper('later', 1000, round, log(), { runAtStart: false });
    later.start();
    await tick(20);
    expect(round).not.toHaveBeenCalled();
    await off.stop();
    await later.stop();
  });
});
