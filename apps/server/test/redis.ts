import net from 'node:net';

/** The Redis the scale-out tests use (TEST_REDIS_URL, default the local one). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether that Redis accepts connections; tests that need it are skipped (and say so) when not, except
 * under CI=true, where a missing Redis fails the run (CI skips no suite).
 */
export async function redisReachable(url = TEST_REDIS_URL): Promise<boolean> {
  const ok = await connects(url);
  if (!ok && (process.env.CI === 'true' || process.env.CI === '1'))
    throw new Error(`CI=true: Redis is required at ${url} (TEST_REDIS_URL); .ci/run starts the local one`);
  return ok;
}

function connects(url: string): Promise<boolean> {
  const u = new URL(url);
  return accepts(u.hostname, Number(u.port || 6379));
}

/** Whether something accepts TCP connections at host:port within half a second. */
export function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
