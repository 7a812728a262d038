import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { AnswerCache } from './cache.ts';
import type { RedisHealth } from './redis-health.ts';

/** How long a write waits for Redis to take its invalidation before it answers anyway. */
const PUBLISH_TIMEOUT_MS = 500;

/**
 * Cross-process invalidation of an AnswerCache over Redis pub/sub: every `invalidate()` publishes on
 * `channel`, and every other process subscribed to it drops its own answers. A process that lost
 * its subscription (Redis restarted) drops everything when it is back, as it may have missed writes.
 * Answers `ready` (the subscription is live, or Redis did not answer within a second) and `close`.
 * With `health`, the subscription's outages are reported there (once per outage, not per retry).
 */
export function connectCacheBus(
  cache: AnswerCache,
  publisher: Redis,
  channel: string,
  log: FastifyBaseLogger,
  health?: RedisHealth,
): { ready: Promise<void>; close: () => Promise<void> } {
  const self = randomBytes(8).toString('hex');
  // the publisher's connection settings, but a subscription waits out an outage instead of failing fast
  const subscriber = publisher.duplicate({
    connectTimeout: 500,
    maxRetriesPerRequest: 1,
    commandTimeout: undefined,
    enableOfflineQueue: true,
  });
  let wasReady = false;
  if (health) health.watch(subscriber, 'cache invalidation');
  else subscriber.on('error', (err) => log.warn({ err }, 'redis (cache invalidation) unavailable'));
  subscriber.on('ready', () => {
    if (wasReady) cache.dropLocal();
    wasReady = true;
  });
  // a message is `<sender>` (any write) or `<sender>:stock-taken:<id>,<id>` (an order lowered their stock),
  // or `<sender>:stock-returned:<id>,<id>` (expired orders gave it back)
  subscriber.on('message', (ch: string, message: string) => {
    const [from, reason, ids] = message.split(':');
    if (ch !== channel || from === self) return;
    if (reason === 'stock-taken' || reason === 'stock-returned')
      cache.dropLocal(reason, ids ? ids.split(',').filter(Boolean) : undefined);
    else cache.dropLocal('write');
  });
  const subscribed = subscriber
    .subscribe(channel)
    .then(() => {})
    .catch((err) => log.warn({ err }, 'redis subscribe failed'));
  const ready = Promise.race([subscribed, new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);

  cache.connect(async (reason, productIds) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([
        publisher
          .publish(channel, reason === 'write' ? self : `${self}:${reason}:${(productIds ?? []).join(',')}`)
          // while Redis is known to be down this is expected (and said once): the other processes' answers expire
          .catch((err) =>
            log[health?.state() === 'down' ? 'debug' : 'warn']({ err }, 'cache invalidation not published'),
          ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  });

  return {
    ready,
    close: async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
