import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** What /readyz reports: Redis in use and answering, in use and lost, or not configured. */
export type RedisState = 'up' | 'down' | 'off';

/**
 * Watches the store's Redis connections (rate limits and cache invalidation). The store keeps serving
 * while Redis is away: rate limits count in this process, and catalogue writes reach the other processes
 * only as their cached answers expire (5 s). The log says so once when Redis goes and once when it is
 * back (the clients reconnect on their own); each failed reconnection is logged at debug level only.
 */
export class RedisHealth {
  private readonly clients: Redis[] = [];
  private announced: RedisState | undefined;
  private closing = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly enabled: boolean,
  ) {}

  state(): RedisState {
    if (!this.enabled) return 'off';
    return this.clients.every((c) => c.status === 'ready') ? 'up' : 'down';
  }

  watch(client: Redis, role: string): void {
    this.clients.push(client);
    client.on('ready', () => this.update());
    client.on('close', () => this.update());
    client.on('error', (err: Error) => {
      this.log.debug({ err, role }, 'redis connection error');
      this.update(err);
    });
  }

  /** Resolves once every connection is live, or after `ms` (start-up does not wait on a missing Redis). */
  async ready(ms: number): Promise<void> {
    const t0 = Date.now();
    while (this.state() === 'down' && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 20));
  }

  /** Shutting down: connections closing on purpose are not an outage. */
  close(): void {
    this.closing = true;
  }

  private update(err?: Error): void {
    if (this.closing || !this.enabled) return;
    const now = this.state();
    if (now === this.announced) return;
    // a connection came up while another is still on its way: nothing to say yet
    if (now === 'down' && this.announced === undefined && !err) return;
    const first = this.announced === undefined;
    this.announced = now;
    if (now === 'down')
      this.log.warn(
        { redis: 'down', reason: err?.message },
        'Redis unavailable: rate limits now count in this process only, and other processes see catalogue changes only when their cached answers expire (5 s); reconnecting',
      );
    else if (!first)
      this.log.info({ redis: 'up' }, 'Redis is back: rate limits and cache invalidation are shared again');
  }
}
