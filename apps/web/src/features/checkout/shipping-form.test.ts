import { ADDRESS_MESSAGES } from '@store/shared';
import { describe, expect, it } from 'vitest';
import {
  applySuggestion,
  COUNTRY_OPTIONS,
  countryOption,
  shippingResolver,
  stateChoices,
  stateOption,
  type ShippingFormValues,
} from './shipping-form.ts';

const valid: ShippingFormValues = {
  email: ' Grace@Example.TEST ',
  shipToFirstName: 'Grace',
  shipToLastName: "O'Hopper",
  address1: '1600 Pennsylvania Ave NW',
  address2: '',
  city: 'Washington',
  state: 'dc',
  postalCode: '205001234',
  country: 'US',
  optIn: true,
};

const resolve = (values: ShippingFormValues) =>
  shippingResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('shipping form rules (from packages/shared)', () => {
  it('submits the cleaned, normalised address', async () => {
    const { values, errors } = await resolve(valid);
    expect(errors).toEqual({});
    expect(values).toMatchObject({
      email: 'grace@example.test',
      state: 'DC',
      postalCode: '20500-1234',
      country: 'US',
      optIn: true,
    });
  });

  it("reports each field's message", async () => {
    const { errors } = await resolve({
      ...valid,
      email: 'nope',
      shipToFirstName: '',
      state: 'Narnia',
      postalCode: '123',
    });
    expect(errors.email?.message).toBe(ADDRESS_MESSAGES.emailInvalid);
    expect(errors.shipToFirstName?.message).toBe(ADDRESS_MESSAGES.firstNameRequired);
    expect(errors.state?.message).toBe(ADDRESS_MESSAGES.usStateInvalid);
    expect(errors.postalCode?.message).toBe(ADDRESS_MESSAGES.postal.US);
  });

  it('checks postal formats per country', async () => {
    expect((await resolve({ ...valid, country: 'CA', state: 'ON', postalCode: 'k1a0b1' })).values).toMatchObject({
      postalCode: 'K1A 0B1',
    });
    expect(
      (await resolve({ ...valid, country: 'AU', state: 'NSW', postalCode: '20000' })).errors.postalCode?.message,
    ).toBe(ADDRESS_MESSAGES.postal.AU);
  });

  it('fills the form from a suggestion (ZIP+4 joined again)', () => {
    const next = applySuggestion(valid, {
      Address1: '1600 PENNSYLVANIA AVE NW',
      Address2: '',
      City: 'WASHINGTON',
      State: 'DC',
      Zip5: '20500',
      Zip4: '0005',
      Country: 'US',
    });
    expect(next).toMatchObject({ address1: '1600 Pennsylvania Ave NW', city: 'Washington', postalCode: '20500-0005' });
  });

  it('offers every country and stores its ISO code, never "OTHER"', async () => {
    expect(COUNTRY_OPTIONS.length).toBe(249);
    expect(COUNTRY_OPTIONS.find((c) => c.value === 'DE')?.label).toBe('Germany');
    const { values } = await resolve({ ...valid, country: 'DE', state: 'berlin', postalCode: '10115' });
    expect(values).toMatchObject({ country: 'DE', state: 'Berlin' });
    expect(countryOption('France')).toBe('FR');
    expect(countryOption('usa')).toBe('US');
    // an older stored value that is no country asks the shopper to choose again
    expect(countryOption('OTHER')).toBe('');
    expect((await resolve({ ...valid, country: '' })).errors.country?.message).toBe(ADDRESS_MESSAGES.countryRequired);
  });

  it('knows the states of the US, Canada and Australia, and no others', () => {
    const us = stateChoices('US');
    expect(us?.find((c) => c.value === 'NY')?.label).toBe('New York (NY)');
    expect(us).toHaveLength(53);
    expect(stateChoices('CA')?.map((c) => c.value)).toContain('QC');
    expect(stateChoices('AU')?.map((c) => c.value)).toContain('NSW');
    expect(stateChoices('GB')).toBeNull();
    expect(stateChoices('FR')).toBeNull();
    expect(stateOption('ny', us!)).toBe('NY');
    expect(stateOption('New York', us!)).toBe('NY');
    expect(stateOption('Narnia', us!)).toBe('');
  });
});
