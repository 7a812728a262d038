import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { settings } from '#server/db/schema/index.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { parseShippingRates } from './shipping-rates.ts';

let t: TestContext;
const validate = (payload: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/shipping/shippingaddress', payload });
const base = {
  address1: '1 Main St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  country: 'US',
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('address validation, built-in rules', () => {
  it('answers the normalised suggestion for each supported country', async () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { ...base, state: 'il', postalCode: '627011234' },
        { Address1: '1 Main St', City: 'Springfield', State: 'IL', Zip5: '62701', Zip4: '1234', Country: 'US' },
      ],
      [
        { ...base, state: 'Puerto Rico', postalCode: '00901', country: 'USA' },
        { State: 'PR', Zip5: '00901', Country: 'US' },
      ],
      [
        { ...base, city: 'Ottawa', state: 'on', postalCode: 'k1a0b1', country: 'Canada' },
        { State: 'ON', Zip5: 'K1A 0B1', Country: 'CA' },
      ],
      [
        { ...base, city: 'LONDON', state: 'GREATER LONDON', postalCode: 'sw1a 1aa', country: 'United Kingdom' },
        { City: 'London', State: 'Greater London', Zip5: 'SW1A 1AA', Country: 'GB' },
      ],
      [
        { ...base, city: 'Sydney', state: 'nsw', postalCode: '2000', country: 'AU' },
        { State: 'NSW', Zip5: '2000', Country: 'AU' },
      ],
      [
        { ...base, city: 'Paris', state: 'Ile-de-France', postalCode: '75008', country: 'France' },
        { State: 'Ile-de-France', Zip5: '75008', Country: 'FR' },
      ],
      [
        { ...base, address1: '1600 pennsylvania ave nw', city: 'washington', state: 'dc', postalCode: '20500' },
        { Address1: '1600 Pennsylvania Ave NW', City: 'Washington', State: 'DC', Zip5: '20500', Country: 'US' },
      ],
      [
        { ...base, city: 'Tokyo', state: 'Tokyo', postalCode: '100-0001', country: 'JP' },
        { Zip5: '100-0001', Country: 'JP' },
      ],
    ];
    for (const [input, expected] of cases) {
      const res = await validate(input);
      expect(res.statusCode, JSON.stringify(res.json())).toBe(200);
      expect(res.json()).toMatchObject(expected);
    }
  });

  it('answers 400 with the reason', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...base, postalCode: '1234' }, 'US ZIP: 12345 or 12345-6789'],
      [{ ...base, state: 'ZZ' }, 'US state: use a two-letter code such as CA, NY, DC or PR'],
      [{ ...base, country: 'CA', state: 'ON', postalCode: '12345' }, 'CA postal code: A1A 1A1'],
      [{ ...base, country: 'GB', state: 'Kent', postalCode: 'ABC' }, 'UK postcode: e.g. SW1A 1AA'],
      [{ ...base, country: 'AU', state: 'VIC', postalCode: '300' }, 'AU postcode: 4 digits'],
      [
        { ...base, country: 'Japan', state: 'Tokyo', postalCode: 'AB-12' },
        'Postal code: digits and hyphens, at most 10',
      ],
      [{ ...base, address1: ' ' }, 'Address is required'],
      [{ ...base, city: 'c'.repeat(65) }, 'City must be at most 64 characters'],
      [{ ...base, country: '' }, 'Country is required'],
    ];
    for (const [input, message] of cases) {
      const res = await validate(input);
      expect({ status: res.statusCode, message: res.json().message }).toEqual({ status: 400, message });
    }
  });
});

describe('shipping rates', () => {
  it('parses SHIPPING_RATES and refuses a malformed value', () => {
    expect(parseShippingRates(undefined)).toEqual([{ id: 'free', name: 'Free Shipping', priceCents: 0 }]);
    expect(parseShippingRates('standard:Standard:0, express:Express: 2 days:1299')).toEqual([
      { id: 'standard', name: 'Standard', priceCents: 0 },
      { id: 'express', name: 'Express: 2 days', priceCents: 1299 },
    ]);
    expect(() => parseShippingRates('standard:Standard:12.99')).toThrow(/SHIPPING_RATES/);
    expect(() => parseShippingRates('Bad Id:Standard:0')).toThrow(/SHIPPING_RATES/);
    expect(() => parseShippingRates('a:A:0,a:B:1')).toThrow(/unique/);
  });

  it('answers free shipping by default', async () => {
    expect((await t.app.inject({ url: '/api/shipping/abc' })).json()).toEqual({
      rates: [{ id: 'free', name: 'Free Shipping', price: 0 }],
      defaultRateId: 'free',
    });
  });

  it('answers the configured rates, an admin setting overrides them, and a bad value stops start-up', async () => {
    const app = await createTestApp({ SHIPPING_RATES: 'standard:Standard:0,express:Express (2 days):1299' });
    try {
      expect((await app.app.inject({ url: '/api/shipping/x' })).json()).toEqual({
        rates: [
          { id: 'standard', name: 'Standard', price: 0 },
          { id: 'express', name: 'Express (2 days)', price: 12.99 },
        ],
        defaultRateId: 'standard',
      });
      await app.app.db
        .insert(settings)
        .values({ key: 'shippingRates', value: [{ id: 'flat', name: 'Flat rate', priceCents: 499 }] });
      expect((await app.app.inject({ url: '/api/shipping/x' })).json()).toEqual({
        rates: [{ id: 'flat', name: 'Flat rate', price: 4.99 }],
        defaultRateId: 'flat',
      });
      const bad = buildApp({
        config: { ...app.config, shippingRates: 'nonsense' },
        database: app.database,
        logger: false,
      });
      await expect(bad).rejects.toThrow(/SHIPPING_RATES/);
    } finally {
      await app.close();
    }
  });
});
