import { ADDRESS_MESSAGES } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { applySuggestion, shippingResolver, type ShippingFormValues } from './shipping-form.ts';

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
    expect(next).toMatchObject({ address1: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', postalCode: '20500-0005' });
  });
});
