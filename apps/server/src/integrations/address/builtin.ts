import {
  firstAddressError,
  normalizeAddress,
  type AddressSuggestion,
  type AddressValidationRequest,
  type NormalizedAddress,
} from '@store/shared';
import { BadRequestError } from '#server/lib/errors.ts';
import type { AddressProvider } from './types.ts';

export function toSuggestion(a: NormalizedAddress): AddressSuggestion {
  const [zip5 = '', zip4 = ''] = a.countryCode === 'US' ? a.postalCode.split('-') : [a.postalCode];
  return {
    Address1: a.address1,
    Address2: a.address2,
    City: a.city,
    State: a.state,
    Zip5: zip5,
    Zip4: zip4,
    Country: a.country,
  };
}

/** The shipping-address rules, offline: the shared cleaning, limits, per-country postal formats and state codes. */
export function checkAddress(input: AddressValidationRequest): NormalizedAddress {
  const { address, errors } = normalizeAddress(input, { names: false });
  const problem = firstAddressError(errors);
  if (problem) throw new BadRequestError(problem);
  return address;
}

export function createBuiltinAddressProvider(): AddressProvider {
  return {
    name: 'builtin',
    async suggest(input) {
      return toSuggestion(checkAddress(input));
    },
  };
}
