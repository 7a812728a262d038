import { checkEmail, COUNTRY_CODES, countryCode, normalizeAddress, type AddressSuggestion } from '@store/shared';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { CheckoutAddress } from './store.ts';

export interface ShippingFormValues extends CheckoutAddress {
  optIn: boolean;
}

export const COUNTRY_OPTIONS: { value: (typeof COUNTRY_CODES)[number]; label: string }[] = [
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
  { value: 'GB', label: 'United Kingdom' },
  { value: 'AU', label: 'Australia' },
  { value: 'OTHER', label: 'Other' },
];

/** A stored country (code or name) as one of the select's values. */
export const countryOption = (country: string) => countryCode(country || 'US');

/**
 * The shipping address rules, from packages/shared (the server checks the same ones): the form shows
 * their messages and submits the cleaned, normalised values.
 */
export const shippingResolver: Resolver<ShippingFormValues> = async (values) => {
  const { address, errors } = normalizeAddress(values);
  const email = checkEmail(values.email);
  const messages: Record<string, string | undefined> = { ...errors, email: email.error };
  const fieldErrors: FieldErrors<ShippingFormValues> = {};
  for (const [field, message] of Object.entries(messages)) {
    if (message) (fieldErrors as Record<string, unknown>)[field] = { type: 'validate', message };
  }
  if (Object.keys(fieldErrors).length > 0) return { values: {}, errors: fieldErrors };
  const { countryCode: code, ...clean } = address;
  return {
    values: { ...clean, country: code === 'OTHER' ? 'OTHER' : code, email: email.value, optIn: values.optIn },
    errors: {},
  };
};

/** The suggestion's postal code in the form's shape (US ZIP+4 joined again). */
export function suggestionPostalCode(s: AddressSuggestion): string {
  return s.Zip4 ? `${s.Zip5}-${s.Zip4}` : s.Zip5;
}

export function applySuggestion(values: CheckoutAddress, s: AddressSuggestion): CheckoutAddress {
  return {
    ...values,
    address1: s.Address1,
    address2: s.Address2,
    city: s.City,
    state: s.State,
    postalCode: suggestionPostalCode(s),
    country: s.Country ? countryOption(s.Country) : values.country,
  };
}
