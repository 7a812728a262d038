import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { standIn } from '#test/orders-support.ts';

const KEY = 'pk_test_123';
let t: TestContext;
let carrier: Awaited<ReturnType<typeof standIn>>;
const polls = new Map<string, number>();

/** A ParcelsApp shipment as API v3 answers it: states newest first. */
const parcel = (trackingId: string) => ({
  trackingId,
  status: 'transit',
  origin: 'China',
  destination: 'United States',
  states: [
    {
      state: 'Arrived at sort facility',
      location: 'Chicago, IL, United States',
      date: '2026-03-03T10:00:00.000Z',
      carrier: 0,
    },
    { state: 'Accepted by carrier', location: 'Shenzhen, China', date: '2026-02-27T04:10:00.000Z', carrier: 0 },
  ],
  services: [{ slug: 'usps', name: 'USPS' }],
  detectedCarrier: { slug: 'usps', name: 'USPS' },
});

/**
 * A local stand-in for ParcelsApp API v3: POST /api/v3/shipments/tracking (apiKey, language, shipments) answers
 * a uuid (or the cached result at once for 'CACHED…' numbers); GET ?uuid=…&apiKey=… answers done:false once,
 * then the result. Business errors come as HTTP 200 with `error`, as ParcelsApp documents.
 */
function parcelsApp() {
  return standIn((req, raw) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/api/v3/shipments/tracking') return { status: 404, body: { error: 'NOT_FOUND' } };
    if (req.method === 'POST') {
      const body = JSON.parse(raw) as { apiKey?: string; language?: string; shipments?: { trackingId: string }[] };
      if (body.apiKey !== KEY)
        return { status: 200, body: { error: 'INVALID_API_KEY', description: 'Invalid .apiKey' } };
      const id = body.shipments?.[0]?.trackingId ?? '';
      if (id.startsWith('CACHED'))
        return { status: 200, body: { done: true, fromCache: true, shipments: [parcel(id)] } };
      return { status: 200, body: { uuid: `uuid-${id}`, shipments: [] } };
    }
    if (url.searchParams.get('apiKey') !== KEY) return { status: 200, body: { error: 'INVALID_API_KEY' } };
    const uuid = url.searchParams.get('uuid') ?? '';
    const n = (polls.get(uuid) ?? 0) + 1;
    polls.set(uuid, n);
    if (n < 2) return { status: 200, body: { uuid, done: false, shipments: [] } };
    return { status: 200, body: { uuid, done: true, shipments: [parcel(uuid.replace(/^uuid-/, ''))] } };
  });
}

const track = (trackingId: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/orders/shipments/tracking',
    payload: { trackingId, destinationCountry: 'United States', language: 'en', zipcode: '62701' },
  });

const movements = [
  { time: '2026-03-03T10:00:00.000Z', status: 'Arrived at sort facility', location: 'Chicago, IL, United States' },
  { time: '2026-02-27T04:10:00.000Z', status: 'Accepted by carrier', location: 'Shenzhen, China' },
];

describe('shipment tracking through a ParcelsApp-style carrier API', () => {
  beforeAll(async () => {
    carrier = await parcelsApp();
    t = await createTestApp({ TRACKING_PROVIDER: 'parcelsapp', TRACKING_API_KEY: KEY, TRACKING_API_BASE: carrier.url });
  });
  afterAll(async () => {
    await t?.close();
    await carrier?.close();
  });

  it('starts a tracking request, polls it by uuid until done, and answers the movements', async () => {
    const res = await track('LB123456789CN');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(movements);
    const create = carrier.calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(create.body)).toEqual({
      apiKey: KEY,
      language: 'en',
      shipments: [{ trackingId: 'LB123456789CN', destinationCountry: 'United States', zipcode: '62701' }],
    });
    const gets = carrier.calls.filter((c) => c.method === 'GET');
    expect(gets).toHaveLength(2);
    expect(gets[0]!.url).toBe(`/api/v3/shipments/tracking?uuid=uuid-LB123456789CN&apiKey=${KEY}`);
  });

  it("asks the carrier in English whatever the shopper's language, and one answer serves every language", async () => {
    const ask = (language: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/orders/shipments/tracking',
        payload: { trackingId: 'CACHEDLANG1', destinationCountry: 'United States', language, zipcode: '62701' },
      });
    const before = carrier.calls.length;
    const res = await ask('de-DE');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(movements);
    const asked = carrier.calls.slice(before).filter((c) => c.method === 'POST');
    expect(asked.map((c) => JSON.parse(c.body).language)).toEqual(['en']);
    expect((await ask('fr')).json()).toEqual(movements);
    expect(carrier.calls.length).toBe(before + 1);
  });

  it('keeps finished answers for a while instead of asking the carrier again', async () => {
    const before = carrier.calls.length;
    expect((await track('LB123456789CN')).json()).toEqual(movements);
    expect(carrier.calls.length).toBe(before);
  });

  it('takes a result the carrier already had without polling', async () => {
    const before = carrier.calls.length;
    const res = await track('CACHED42');
    expect(res.json()).toEqual(movements);
    expect(carrier.calls.slice(before).map((c) => c.method)).toEqual(['POST']);
  });

  it('answers 502 with a message when the carrier refuses, and caches nothing', async () => {
    const bad = await createTestApp({
      TRACKING_PROVIDER: 'parcelsapp',
      TRACKING_API_KEY: 'wrong',
      TRACKING_API_BASE: carrier.url,
    });
    try {
      const res = await bad.app.inject({
        method: 'POST',
        url: '/api/orders/shipments/tracking',
        payload: { trackingId: 'CACHED1', destinationCountry: 'US', language: 'en', zipcode: '1' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        message: 'Tracking service unavailable, please try again later',
        code: 'UPSTREAM_FAILED',
      });
    } finally {
      await bad.close();
    }
  });
});
