import { describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES } from './address-data.ts';
import {
  checkEmail,
  countryCode,
  firstAddressError,
  isoCountry,
  normalizeAddress,
  normalizePostalCode,
  normalizeState,
  postalCodeKey,
  tidyCase,
} from './address.ts';

const base = {
  shipToFirstName: 'Ada',
  shipToLastName: "O'Neil-Smith Jr.",
  address1: '1 Main St',
  address2: '',
  city: 'Springfield',
  state: 'il',
  postalCode: '62701',
  country: 'United States',
};

describe('country recognition', () => {
  it('recognises US, CA, GB and AU by code or common name, everything else is OTHER', () => {
    expect(countryCode('us')).toBe('US');
    expect(countryCode('U.S.A.')).toBe('US');
    expect(countryCode(' united  states ')).toBe('US');
    expect(countryCode('Canada')).toBe('CA');
    expect(countryCode('UK')).toBe('GB');
    expect(countryCode('Great Britain')).toBe('GB');
    expect(countryCode('australia')).toBe('AU');
    expect(countryCode('France')).toBe('OTHER');
    expect(countryCode('')).toBe('OTHER');
  });
});

describe('postal code formats', () => {
  it('US ZIP: 12345 or 12345-6789', () => {
    expect(normalizePostalCode('12345', 'US')).toBe('12345');
    expect(normalizePostalCode('12345-6789', 'US')).toBe('12345-6789');
    expect(normalizePostalCode('123456789', 'US')).toBe('12345-6789');
    expect(normalizePostalCode(' 12345 6789 ', 'US')).toBe('12345-6789');
    for (const bad of ['1234', '123456', '12345-678', 'ABCDE', '12345-67890'])
      expect(normalizePostalCode(bad, 'US')).toBeNull();
  });
  it('CA: A1A 1A1, upper-cased with the space put back', () => {
    expect(normalizePostalCode('k1a0b1', 'CA')).toBe('K1A 0B1');
    expect(normalizePostalCode('M5V 3L9', 'CA')).toBe('M5V 3L9');
    expect(normalizePostalCode('D1A 1A1', 'CA')).toBeNull(); // D is never a first letter
    expect(normalizePostalCode('12345', 'CA')).toBeNull();
  });
  it('GB: UK postcodes in their usual shapes', () => {
    expect(normalizePostalCode('sw1a1aa', 'GB')).toBe('SW1A 1AA');
    expect(normalizePostalCode('M1 1AE', 'GB')).toBe('M1 1AE');
    expect(normalizePostalCode('B33 8TH', 'GB')).toBe('B33 8TH');
    expect(normalizePostalCode('CR2 6XH', 'GB')).toBe('CR2 6XH');
    expect(normalizePostalCode('DN55 1PT', 'GB')).toBe('DN55 1PT');
    expect(normalizePostalCode('12345', 'GB')).toBeNull();
    expect(normalizePostalCode('SW1A', 'GB')).toBeNull();
  });
  it('AU: four digits', () => {
    expect(normalizePostalCode('2000', 'AU')).toBe('2000');
    expect(normalizePostalCode('200', 'AU')).toBeNull();
    expect(normalizePostalCode('20000', 'AU')).toBeNull();
  });
  it('other countries: digits and hyphens, at most 10', () => {
    expect(normalizePostalCode('75008', 'OTHER')).toBe('75008');
    expect(normalizePostalCode('1234-567', 'OTHER')).toBe('1234-567');
    expect(normalizePostalCode('AB12', 'OTHER')).toBeNull();
    expect(normalizePostalCode('12345678901', 'OTHER')).toBeNull();
  });
  it('compares postal codes loosely for guest access', () => {
    expect(postalCodeKey('k1a 0b1', 'CA')).toBe(postalCodeKey('K1A0B1', 'Canada'));
    expect(postalCodeKey('12345-6789', 'US')).toBe(postalCodeKey('123456789', 'US'));
  });
});

describe('states', () => {
  it('US states are two-letter codes, including DC, PR and VI; full names are turned into codes', () => {
    for (const s of ['ca', 'DC', 'pr', 'VI']) expect(normalizeState(s, 'US')).toEqual({ value: s.toUpperCase() });
    expect(normalizeState('New York', 'US')).toEqual({ value: 'NY' });
    expect(normalizeState('District of Columbia', 'US')).toEqual({ value: 'DC' });
    expect(normalizeState('XX', 'US').error).toBe(ADDRESS_MESSAGES.usStateInvalid);
  });
  it('elsewhere: letters, spaces and hyphens, at most 32; codes upper-cased, counties and regions in title case', () => {
    expect(normalizeState('new south wales', 'AU')).toEqual({ value: 'NEW SOUTH WALES' });
    expect(normalizeState('on', 'CA')).toEqual({ value: 'ON' });
    expect(normalizeState('Île-de-France', 'OTHER')).toEqual({ value: 'Île-de-France' });
    expect(normalizeState('GREATER LONDON', 'GB')).toEqual({ value: 'Greater London' });
    expect(normalizeState('bavaria', 'OTHER')).toEqual({ value: 'Bavaria' });
    expect(normalizeState('Area 51', 'OTHER').error).toBe(ADDRESS_MESSAGES.stateInvalid);
    expect(normalizeState('x'.repeat(33), 'GB').error).toMatch(/at most 32/);
    expect(normalizeState('', 'GB').error).toBe(ADDRESS_MESSAGES.stateRequired);
  });
});

describe('whole addresses', () => {
  it('cleans and normalises a valid US address', () => {
    const { address, errors } = normalizeAddress({
      ...base,
      address1: '  1 <b>Main</b>\u200B   St ',
      postalCode: '627011234',
    });
    expect(errors).toEqual({});
    expect(address).toMatchObject({
      address1: '1 bMain/b St',
      state: 'IL',
      postalCode: '62701-1234',
      country: 'US',
      countryCode: 'US',
    });
  });
  it('stores other countries as their ISO code, under the OTHER rules; unknown text stays readable', () => {
    const { address, errors } = normalizeAddress({ ...base, country: 'France', state: 'Paris', postalCode: '75008' });
    expect(errors).toEqual({});
    expect(address.country).toBe('FR');
    expect(address.countryCode).toBe('OTHER');
    expect(normalizeAddress({ ...base, country: 'de', state: 'Berlin', postalCode: '10115' }).address.country).toBe(
      'DE',
    );
    expect(normalizeAddress({ ...base, country: 'Freedonia', state: 'X', postalCode: '1' }).address.country).toBe(
      'Freedonia',
    );
    expect(isoCountry('United Kingdom')).toBe('GB');
    expect(isoCountry("Cote d'Ivoire")).toBe('CI');
    expect(isoCountry('Narnia')).toBeNull();
  });
  it('puts lines, places and counties typed in one case into title case, and keeps mixed case as typed', () => {
    expect(tidyCase('1600 pennsylvania ave nw')).toBe('1600 Pennsylvania Ave NW');
    expect(tidyCase('GREATER LONDON')).toBe('Greater London');
    expect(tidyCase('12b main st')).toBe('12B Main St');
    expect(tidyCase('2nd avenue')).toBe('2nd Avenue');
    expect(tidyCase('stratford-upon-avon')).toBe('Stratford-upon-Avon');
    expect(tidyCase('McAllen Rd')).toBe('McAllen Rd');
    const { address } = normalizeAddress({
      ...base,
      address1: '1600 pennsylvania ave nw',
      city: 'WASHINGTON',
      state: 'dc',
      postalCode: '20500',
    });
    expect(address).toMatchObject({ address1: '1600 Pennsylvania Ave NW', city: 'Washington', state: 'DC' });
  });
  it('reports every required field, with the first in form order', () => {
    const { errors } = normalizeAddress({});
    expect(errors).toMatchObject({
      shipToFirstName: ADDRESS_MESSAGES.firstNameRequired,
      shipToLastName: ADDRESS_MESSAGES.lastNameRequired,
      address1: ADDRESS_MESSAGES.address1Required,
      city: ADDRESS_MESSAGES.cityRequired,
      state: ADDRESS_MESSAGES.stateRequired,
      postalCode: ADDRESS_MESSAGES.postalRequired,
      country: ADDRESS_MESSAGES.countryRequired,
    });
    expect(firstAddressError(errors)).toBe(ADDRESS_MESSAGES.firstNameRequired);
  });
  it('checks the postal format of the country', () => {
    expect(normalizeAddress({ ...base, postalCode: '1234' }).errors.postalCode).toBe('US ZIP: 12345 or 12345-6789');
    expect(normalizeAddress({ ...base, country: 'CA', state: 'ON', postalCode: '12345' }).errors.postalCode).toBe(
      ADDRESS_MESSAGES.postal.CA,
    );
    expect(normalizeAddress({ ...base, country: 'GB', state: 'London', postalCode: '1234' }).errors.postalCode).toBe(
      ADDRESS_MESSAGES.postal.GB,
    );
    expect(normalizeAddress({ ...base, country: 'AU', state: 'NSW', postalCode: '12345' }).errors.postalCode).toBe(
      ADDRESS_MESSAGES.postal.AU,
    );
  });
  it('enforces the limits and the name characters', () => {
    const long = normalizeAddress({
      ...base,
      address1: 'a'.repeat(101),
      city: 'c'.repeat(65),
      shipToFirstName: 'A'.repeat(65),
    });
    expect(long.errors.address1).toMatch(/at most 100/);
    expect(long.errors.city).toMatch(/at most 64/);
    expect(long.errors.shipToFirstName).toMatch(/at most 64/);
    expect(normalizeAddress({ ...base, shipToFirstName: 'R2D2' }).errors.shipToFirstName).toBe(
      ADDRESS_MESSAGES.nameInvalid,
    );
    expect(normalizeAddress({ ...base, country: 'x'.repeat(57) }).errors.country).toMatch(/at most 56/);
  });
  it('can skip the names (address validation carries none)', () => {
    const { shipToFirstName: _f, shipToLastName: _l, ...rest } = base;
    expect(normalizeAddress(rest, { names: false }).errors).toEqual({});
  });
});

describe('shipping e-mail', () => {
  it('is required, loses spaces, is lowercased and must look like an e-mail', () => {
    expect(checkEmail(' Ada@Example.COM ')).toEqual({ value: 'ada@example.com' });
    expect(checkEmail('').error).toBe(ADDRESS_MESSAGES.emailRequired);
    expect(checkEmail('not-an-email').error).toBe(ADDRESS_MESSAGES.emailInvalid);
    expect(checkEmail(`${'a'.repeat(250)}@x.io`).error).toMatch(/at most 254/);
  });
});
