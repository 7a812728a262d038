import type { MovementEvent } from '@store/shared';
import type { TrackingProvider } from './types.ts';

/** TRACKING_PROVIDER=manual (the default): the movements admins recorded for the number, newest first. */
export function createManualTrackingProvider(
  eventsFor: (trackingId: string) => Promise<MovementEvent[]>,
): TrackingProvider {
  return {
    name: 'manual',
    async track(query) {
      return { events: await eventsFor(query.trackingId), complete: true };
    },
  };
}
