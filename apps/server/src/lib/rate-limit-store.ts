import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read?(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): Store;
}
type Params = FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean };

// the plugin's own two stores (not exported as modules of their own: loaded by path)
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding?: boolean,
  exponentialBackoff?: boolean,
) => Store;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  redis: Redis,
  key: string,
) => Store;

/**
 * Counts in Redis while it answers (shared by every process) and in this process while it does not, so
 * a Redis outage neither lets requests through unlimited nor makes them wait: the client fails fast
 * (no offline queue, a short command timeout) and the count continues here until Redis is back.
 */
export function fallbackRateLimitStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  class FallbackStore implements FastifyRateLimitStore {
    constructor(
      private readonly shared: Store,
      private readonly local: Store,
    ) {}

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.pick('incr', key, cb, timeWindow, max);
    }

    read(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.pick('read', key, cb, timeWindow, max);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }

    private pick(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
      const local = () => this.local[method]!(key, cb, timeWindow, max);
      if (redis.status !== 'ready') return local();
      this.shared[method]!(key, (err, result) => (err ? local() : cb(null, result)), timeWindow, max);
    }
  }
  return class extends FallbackStore {
    constructor(params: Params) {
      super(
        new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
        new LocalStore(params.continueExceeding, params.exponentialBackoff),
      );
    }
  };
}
