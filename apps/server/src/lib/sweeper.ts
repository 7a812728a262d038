import type { FastifyBaseLogger } from 'fastify';

/**
 * A background job run every `everyMs` in each server process (the job itself keeps processes apart, with
 * SKIP LOCKED or leases): at most one round at a time in a process, a failed round logged and retried at
 * the next tick, and stop() waiting for a round in progress. `everyMs` ≤ 0 never starts it.
 */
export function createSweeper(
  name: string,
  everyMs: number,
  round: () => Promise<unknown>,
  log: FastifyBaseLogger,
  opts: { runAtStart?: boolean } = {},
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const sweep = () => {
    running ??= round()
      .catch((err: unknown) => log.error({ err }, `${name} failed`))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    /** One round now (or the one already running). */
    sweep,
    start() {
      if (everyMs <= 0 || timer) return;
      timer = setInterval(() => void sweep(), everyMs);
      timer.unref();
      if (opts.runAtStart ?? true) void sweep();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
