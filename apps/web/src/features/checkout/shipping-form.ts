import {
  AU_STATES,
  CA_PROVINCES,
  checkEmail,
  countryChoices,
  countryCode,
  isoCountry,
  normalizeAddress,
  tidyCase,
  US_STATE_NAMES,
  US_STATES,
  type AddressSuggestion,
} from '@store/shared';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { CheckoutAddress } from './store.ts';

export interface ShippingFormValues extends CheckoutAddress {
  optIn: boolean;
}

/** Every country by name (ISO codes as values), the four with their own postal rules first. */
export const COUNTRY_OPTIONS = countryChoices();

/** A stored country (code, name, or older free text) as one of the select's values; '' when it is none of them. */
export const countryOption = (country: string) => isoCountry(country || 'US') ?? '';

type Choice = { value: string; label: string };
const US_NAMES = Object.fromEntries(Object.entries(US_STATE_NAMES).map(([name, code]) => [code, name]));
const title = (name: string) => tidyCase(name.toLowerCase());

/** The states of the countries whose states are known (US, CA, AU), as select choices; null elsewhere. */
export function stateChoices(country: string): Choice[] | null {
  const code = countryCode(country);
  const byName = (entries: [string, string][]) =>
    entries
      .map(([value, name]) => ({ value, label: `${name} (${value})` }))
      .sort((a, b) => a.label.localeCompare(b.label));
  if (code === 'US') return byName(US_STATES.map((c) => [c, title(US_NAMES[c] ?? c)]));
  if (code === 'CA') return byName(Object.entries(CA_PROVINCES));
  if (code === 'AU') return byName(Object.entries(AU_STATES));
  return null;
}

/** A stored state (code or full name, any case) as one of `choices`; '' when it matches none. */
export function stateOption(state: string, choices: Choice[]): string {
  const key = state.trim().toUpperCase().replace(/\./g, '');
  const hit = choices.find((c) => c.value === key || c.label.toUpperCase().startsWith(`${key} (`));
  return hit?.value ?? '';
}

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
  const { countryCode: _rules, ...clean } = address;
  return { values: { ...clean, email: email.value, optIn: values.optIn }, errors: {} };
};

/** The suggestion's postal code in the form's shape (US ZIP+4 joined again). */
export function suggestionPostalCode(s: AddressSuggestion): string {
  return s.Zip4 ? `${s.Zip5}-${s.Zip4}` : s.Zip5;
}

/**
 * The suggestion as the shopper sees it: lines and places in title case when the service answered in capitals
 * ('1600 PENNSYLVANIA AVE NW' → '1600 Pennsylvania Ave NW'), state codes kept.
 */
export function tidySuggestion(s: AddressSuggestion): AddressSuggestion {
  const rules = countryCode(s.Country ?? 'US');
  const codes = rules === 'US' || rules === 'CA' || rules === 'AU';
  return {
    ...s,
    Address1: tidyCase(s.Address1),
    Address2: tidyCase(s.Address2),
    City: tidyCase(s.City),
    State: codes ? s.State.toUpperCase() : tidyCase(s.State),
  };
}

export function applySuggestion(values: CheckoutAddress, suggestion: AddressSuggestion): CheckoutAddress {
  const s = tidySuggestion(suggestion);
  return {
    ...values,
    address1: s.Address1,
    address2: s.Address2,
    city: s.City,
    state: s.State,
    postalCode: suggestionPostalCode(s),
    country: (s.Country && countryOption(s.Country)) || values.country,
  };
}
