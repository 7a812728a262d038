import type { MovementEvent, ShipmentTrackingInput } from '@store/shared';
import { UpstreamError, isRecord, requestJson, timeLeft } from '../http.ts';
import type { TrackingProvider, TrackingResult } from './types.ts';

export interface ParcelsAppOptions {
  apiKey: string;
  apiBase: string;
  /** First pause between polls; each next one is 1.5 times longer. */
  pollMs?: number;
  /** How long one request waits for the carrier before answering what it has (every call included). */
  maxWaitMs?: number;
}

const PATH = '/api/v3/shipments/tracking';
/** The language the carrier is asked to describe movements in. */
export const CARRIER_LANGUAGE = 'en';

/** A shipment's `states` (newest first in ParcelsApp's answer) as movement events. */
function eventsOf(body: Record<string, unknown>, trackingId: string): MovementEvent[] | undefined {
  const shipments = Array.isArray(body.shipments) ? body.shipments.filter(isRecord) : [];
  const shipment = shipments.find((s) => String(s.trackingId ?? '').toUpperCase() === trackingId.toUpperCase());
  if (!shipment) return undefined;
  const states = Array.isArray(shipment.states) ? shipment.states.filter(isRecord) : [];
  return states
    .map((s) => ({
      time: typeof s.date === 'string' ? s.date : '',
      status: typeof s.state === 'string' ? s.state : '',
      location: typeof s.location === 'string' ? s.location : '',
    }))
    .filter((e) => e.status || e.time)
    .sort((a, b) => (Date.parse(b.time) || 0) - (Date.parse(a.time) || 0));
}

/** ParcelsApp answers business errors as HTTP 200 with an `error` code. */
function checked(res: { status: number; body: unknown }, what: string): Record<string, unknown> {
  if (res.status !== 200 || !isRecord(res.body))
    throw new UpstreamError(`ParcelsApp ${what} failed (${res.status})`, res.status, res.body);
  if (typeof res.body.error === 'string' && res.body.error)
    throw new UpstreamError(`ParcelsApp ${what}: ${res.body.error}`, res.status, res.body);
  return res.body;
}

/**
 * ParcelsApp API v3: POST /api/v3/shipments/tracking starts a tracking request (answered at once when
 * cached), then GET /api/v3/shipments/tracking?uuid=…&apiKey=… until `done`.
 */
export function createParcelsAppProvider(o: ParcelsAppOptions): TrackingProvider {
  const base = o.apiBase.replace(/\/+$/, '');
  const pollMs = o.pollMs ?? 500;
  const maxWaitMs = o.maxWaitMs ?? 12_000;

  async function track(q: ShipmentTrackingInput): Promise<TrackingResult> {
    const started = Date.now();
    const deadline = started + maxWaitMs;
    const created = checked(
      await requestJson(
        `${base}${PATH}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            apiKey: o.apiKey,
            // always English, whatever language the shopper's browser asked in: one cached answer per number
            language: CARRIER_LANGUAGE,
            shipments: [{ trackingId: q.trackingId, destinationCountry: q.destinationCountry, zipcode: q.zipcode }],
          }),
        },
        timeLeft(deadline),
      ),
      'tracking request',
    );
    const cached = eventsOf(created, q.trackingId);
    const uuid = typeof created.uuid === 'string' ? created.uuid : '';
    if (cached || created.done === true || !uuid) return { events: cached ?? [], complete: true };

    let wait = pollMs;
    while (Date.now() - started + wait <= maxWaitMs) {
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.round(wait * 1.5);
      const url = `${base}${PATH}?uuid=${encodeURIComponent(uuid)}&apiKey=${encodeURIComponent(o.apiKey)}`;
      const body = checked(
        await requestJson(url, { headers: { accept: 'application/json' } }, timeLeft(deadline)),
        'tracking result',
      );
      const events = eventsOf(body, q.trackingId);
      if (body.done === true) return { events: events ?? [], complete: true };
      if (events?.length) return { events, complete: false };
    }
    return { events: [], complete: false };
  }

  return { name: 'parcelsapp', track };
}
