import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { standIn } from '#test/orders-support.ts';

let usps: Awaited<ReturnType<typeof standIn>>;
let t: TestContext;
const validate = (payload: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/shipping/shippingaddress', payload });
const whiteHouse = {
  address1: '1600 pennsylvania ave',
  address2: '',
  city: 'washington',
  state: 'dc',
  postalCode: '20500',
  country: 'US',
};

/** Answers as the USPS Addresses API v3 documents (github.com/USPS/api-examples). */
function uspsAnswer(url: URL) {
  const street = url.searchParams.get('streetAddress') ?? '';
  if (/boom/i.test(street)) return { status: 503, body: 'Service Unavailable' };
  if (/nowhere/i.test(street))
    return {
      status: 400,
      body: {
        apiVersion: '/addresses/v3',
        error: {
          code: '400',
          message: 'Address Not Found.',
          errors: [{ status: '400', code: '010005', title: 'Address Not Found.', detail: 'Address Not Found.' }],
        },
      },
    };
  if (/missing/i.test(street))
    return { status: 404, body: { apiVersion: '/addresses/v3', error: { code: '404', message: 'Not Found' } } };
  return {
    status: 200,
    body: {
      firm: null,
      address: {
        streetAddress: '1600 PENNSYLVANIA AVE NW',
        streetAddressAbbreviation: null,
        secondaryAddress: null,
        city: 'WASHINGTON',
        cityAbbreviation: null,
        state: 'DC',
        ZIPCode: '20500',
        ZIPPlus4: '0005',
        urbanization: null,
      },
      addressAdditionalInfo: {
        deliveryPoint: '00',
        carrierRoute: 'C000',
        DPVConfirmation: 'Y',
        DPVCMRA: 'N',
        business: 'Y',
        centralDeliveryPoint: 'N',
        vacant: 'N',
      },
      addressCorrections: null,
      addressMatches: null,
    },
  };
}

describe('address validation with the USPS Addresses API v3 (local stand-in)', () => {
  beforeAll(async () => {
    usps = await standIn((req, body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/oauth2/v3/token') {
        const creds = JSON.parse(body || '{}');
        if (
          creds.client_id !== 'usps-id' ||
          creds.client_secret !== 'usps-secret' ||
          creds.grant_type !== 'client_credentials'
        )
          return { status: 401, body: { error: 'invalid_client' } };
        return {
          status: 200,
          body: {
            access_token: 'usps-token',
            token_type: 'Bearer',
            issued_at: String(Date.now()),
            expires_in: '28799',
            status: 'approved',
          },
        };
      }
      if (req.headers.authorization !== 'Bearer usps-token') return { status: 401, body: { error: 'invalid_token' } };
      if (req.method === 'GET' && url.pathname === '/addresses/v3/address') return uspsAnswer(url);
      return { status: 404, body: {} };
    });
    t = await createTestApp({
      ADDRESS_PROVIDER: 'usps',
      USPS_CLIENT_ID: 'usps-id',
      USPS_CLIENT_SECRET: 'usps-secret',
      USPS_API_BASE: usps.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await usps?.close();
  });

  it('answers the USPS standardised address', async () => {
    const res = await validate(whiteHouse);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      Address1: '1600 PENNSYLVANIA AVE NW',
      Address2: '',
      City: 'WASHINGTON',
      State: 'DC',
      Zip5: '20500',
      Zip4: '0005',
      Country: 'US',
    });
    const lookup = usps.calls.find((c) => c.url.startsWith('/addresses/v3/address'))!;
    const q = new URL(lookup.url, 'http://x').searchParams;
    // what the shopper typed all in lower case is asked in title case (USPS reads any case)
    expect(Object.fromEntries(q)).toEqual({
      streetAddress: '1600 Pennsylvania Ave',
      city: 'Washington',
      state: 'DC',
      ZIPCode: '20500',
    });
    expect(usps.calls.filter((c) => c.url === '/oauth2/v3/token')).toHaveLength(1);
    await validate(whiteHouse);
    expect(usps.calls.filter((c) => c.url === '/oauth2/v3/token')).toHaveLength(1); // the token is reused
  });

  it('answers 400 with the USPS reason for an address it cannot find', async () => {
    expect((await validate({ ...whiteHouse, address1: '1 Nowhere Rd' })).json()).toEqual({
      message: 'Address Not Found.',
      code: 'BAD_REQUEST',
    });
    expect((await validate({ ...whiteHouse, address1: '1 Missing Rd' })).json()).toEqual({
      message: 'Not Found',
      code: 'BAD_REQUEST',
    });
  });

  it('checks the built-in rules before asking USPS, and leaves other countries to them', async () => {
    const before = usps.calls.length;
    expect((await validate({ ...whiteHouse, postalCode: '2050' })).json().message).toBe('US ZIP: 12345 or 12345-6789');
    expect((await validate({ ...whiteHouse, country: 'CA', state: 'ON', postalCode: 'k1a0b1' })).json()).toMatchObject({
      Zip5: 'K1A 0B1',
      Country: 'CA',
    });
    expect(usps.calls.length).toBe(before);
  });

  it('falls back to the built-in suggestion while USPS is down', async () => {
    const res = await validate({ ...whiteHouse, address1: '1 Boom St' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Address1: '1 Boom St', State: 'DC', Zip5: '20500' });
  });
});
