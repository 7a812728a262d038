import { spawn, type ChildProcess } from 'node:child_process';
import { accepts } from './redis.ts';
import { freePort } from './smtp.ts';

/**
 * A Redis server of one test's own on a free port (no persistence), which the test may kill and start
 * again: the machine's Redis (6379) serves other suites at the same time and is never touched.
 */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Starts it (again) on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Kills it (SIGKILL: an outage, not a polite shutdown); resolves once the process is gone. */
  kill(): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) it: connections stay open, nothing is answered. */
  freeze(): void;
  thaw(): void;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      child = spawn('redis-server', args, { stdio: 'ignore' });
      const c = child;
      exited = new Promise((resolve) => c.once('exit', () => resolve()));
      const t0 = Date.now();
      while (!(await accepts('127.0.0.1', port))) {
        if (c.exitCode !== null || Date.now() - t0 > 10_000) throw new Error(`redis-server did not start on ${port}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
  };
  await redis.start();
  return redis;
}
