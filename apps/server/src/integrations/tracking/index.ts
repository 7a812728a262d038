import { ERROR_CODES, TRACKING_MESSAGES, type MovementEvent } from '@store/shared';
import type { Config } from '#server/config.ts';
import { HttpError } from '#server/lib/errors.ts';
import { UpstreamError } from '../http.ts';
import { createManualTrackingProvider } from './manual.ts';
import { createParcelsAppProvider } from './parcelsapp.ts';
import type { TrackingLog, TrackingProvider, TrackingResult } from './types.ts';

export type { TrackingProvider, TrackingResult } from './types.ts';

export const TRACKING_CACHE_MS = 10 * 60_000;
const CACHE_MAX = 5_000;

/**
 * Answers of a carrier API kept for ~10 minutes (each lookup may cost quota), finished ones only; a carrier
 * failure becomes a 502 with a message the page can show.
 */
function cached(inner: TrackingProvider, log: TrackingLog | undefined, ttlMs = TRACKING_CACHE_MS): TrackingProvider {
  const entries = new Map<string, { value: TrackingResult; until: number }>();
  return {
    name: inner.name,
    async track(q) {
      // the carrier is always asked in English (parcelsapp.ts): the shopper's language is no part of the key
      const key = JSON.stringify([q.trackingId.toUpperCase(), q.destinationCountry.toLowerCase(), q.zipcode]);
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit.value;
      let value: TrackingResult;
      try {
        value = await inner.track(q);
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        log?.warn({ err, provider: inner.name }, 'carrier tracking failed');
        throw new HttpError(502, TRACKING_MESSAGES.unavailable, ERROR_CODES.UPSTREAM_FAILED);
      }
      if (value.complete) {
        if (entries.size >= CACHE_MAX) entries.delete(entries.keys().next().value as string);
        entries.set(key, { value, until: Date.now() + ttlMs });
      }
      return value;
    },
  };
}

export interface TrackingDeps {
  /** Events admins recorded for a tracking number (the manual provider), newest first. */
  recordedEvents(trackingId: string): Promise<MovementEvent[]>;
  log?: TrackingLog;
}

/** ParcelsApp when TRACKING_PROVIDER=parcelsapp and TRACKING_API_KEY is set; otherwise manual. */
export function createTrackingProvider(config: Config, deps: TrackingDeps): TrackingProvider {
  const { provider, apiKey, apiBase } = config.tracking;
  if (provider === 'parcelsapp' && apiKey) return cached(createParcelsAppProvider({ apiKey, apiBase }), deps.log);
  if (provider === 'parcelsapp')
    deps.log?.warn({}, 'TRACKING_PROVIDER=parcelsapp without TRACKING_API_KEY: using manual tracking events');
  return createManualTrackingProvider(deps.recordedEvents);
}
