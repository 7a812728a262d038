import type { MovementEvent, ShipmentTrackingInput } from '@store/shared';

/**
 * Carrier tracking for the order page: one interface, one module per provider
 * (manual.ts: events admins record; parcelsapp.ts: the ParcelsApp API v3), chosen by configuration in index.ts.
 */
export interface TrackingResult {
  /** Newest first. */
  events: MovementEvent[];
  /** False when the carrier had not finished looking when we stopped waiting: worth asking again later. */
  complete: boolean;
}

export interface TrackingProvider {
  readonly name: 'manual' | 'parcelsapp';
  track(query: ShipmentTrackingInput): Promise<TrackingResult>;
}

export interface TrackingLog {
  warn(obj: object, msg: string): void;
}
