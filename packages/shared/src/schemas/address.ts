/**
 * Shipping-address rules as pure functions: the server validates with them and the web app
 * previews with them. Each field is cleaned (text cleaning: no angle brackets, control or invisible characters), checked against its limit and format,
 * and normalised: postal code in its country's form, state a code where the country has codes, lines and
 * places typed all in lower or all in upper case put in title case, country stored as its ISO 3166-1 code
 * (the rules of US, CA, GB and AU apply to those four; every other country follows the OTHER rules).
 */
import { LIMITS, US_STATES } from '../constants.ts';
import { isoCountryFromName } from '../countries.ts';
import { cleanText } from '../text.ts';
import { ADDRESS_MESSAGES, COUNTRY_ALIASES, US_STATE_NAMES, type CountryCode } from './address-data.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const NAME_RE = /^[\p{L}\p{M}' .-]+$/u;
const CA_RE = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])(\d[ABCEGHJ-NPRSTV-Z]\d)$/;
const GB_RE = /^([A-Z]{1,2}\d[A-Z\d]?|GIR)(\d[A-Z]{2})$/;

/** Recognises the country by code or common name ('usa', 'United Kingdom', 'U.S.') or answers OTHER. */
export function countryCode(country: string): CountryCode {
  const key = cleanText(country).toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();
  return COUNTRY_ALIASES[key] ?? 'OTHER';
}

/** The ISO 3166-1 code of a country written as a code, common alias or English name ('usa', 'France'), or null. */
export function isoCountry(country: string): string | null {
  const code = countryCode(country);
  return code !== 'OTHER' ? code : isoCountryFromName(cleanText(country));
}

// abbreviations an address writes in capitals (compass points, PO Box); ordinals stay lower-case
const UPPER_WORDS = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW', 'PO', 'USA', 'UK']);
const SMALL_WORDS = new Set(['of', 'the', 'and', 'de', 'du', 'des', 'la', 'le', 'les', 'en', 'sur', 'upon', 'on']);

function titleWord(word: string, first: boolean): string {
  const lower = word.toLowerCase();
  if (UPPER_WORDS.has(word.toUpperCase())) return word.toUpperCase();
  if (/^\d+(st|nd|rd|th)$/i.test(word)) return lower;
  if (/\d/.test(word)) return word.toUpperCase(); // 12b → 12B, apartment and unit numbers
  if (!first && SMALL_WORDS.has(lower)) return lower;
  return lower.replace(/(^|['’])(\p{L})/gu, (_m, p: string, l: string) => p + l.toUpperCase());
}

/**
 * Text typed all in lower case or all in capitals in title case ('1600 pennsylvania ave nw' → '1600 Pennsylvania
 * Ave NW', 'GREATER LONDON' → 'Greater London'); text that already mixes cases is the shopper's choice, kept.
 */
export function tidyCase(text: string): string {
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (!letters || (letters !== letters.toLowerCase() && letters !== letters.toUpperCase())) return text;
  let first = true;
  return text.replace(/[\p{L}\p{M}\d'’]+/gu, (word) => {
    const out = titleWord(word, first);
    first = false;
    return out;
  });
}

/** E-mail as stored: no spaces, lowercase. */
export function cleanEmail(email: string): string {
  return cleanText(email).replace(/\s+/g, '').toLowerCase();
}

/** Postal code in its country's canonical form ('k1a0b1' → 'K1A 0B1', '123456789' → '12345-6789'), or null. */
export function normalizePostalCode(postalCode: string, country: CountryCode): string | null {
  const raw = cleanText(postalCode).toUpperCase();
  const compact = raw.replace(/[\s-]+/g, '');
  switch (country) {
    case 'US': {
      if (!/^[\d\s-]+$/.test(raw)) return null;
      if (/^\d{5}$/.test(compact)) return compact;
      if (/^\d{9}$/.test(compact)) return `${compact.slice(0, 5)}-${compact.slice(5)}`;
      return null;
    }
    case 'CA': {
      const m = CA_RE.exec(compact);
      return m ? `${m[1]} ${m[2]}` : null;
    }
    case 'GB': {
      const m = GB_RE.exec(compact);
      return m ? `${m[1]} ${m[2]}` : null;
    }
    case 'AU':
      return /^\d{4}$/.test(compact) ? compact : null;
    default: {
      const s = raw.replace(/\s+/g, '');
      return /^[\d-]{1,10}$/.test(s) && /\d/.test(s) ? s : null;
    }
  }
}

/** Postal codes compared loosely (guest order access): canonical form when possible, else letters and digits. */
export function postalCodeKey(postalCode: string, country: string): string {
  const normal = normalizePostalCode(postalCode, countryCode(country));
  return (normal ?? cleanText(postalCode)).toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * State as stored: for the US a two-letter code (full names such as 'New York' are turned into 'NY'); upper-cased
 * for Canada and Australia, whose states are codes; a county or region elsewhere in title case when it was typed
 * all in one case ('GREATER LONDON' → 'Greater London').
 */
export function normalizeState(state: string, country: CountryCode): { value: string; error?: string } {
  const typed = cleanText(state).replace(/\./g, '');
  const value = country === 'US' || country === 'CA' || country === 'AU' ? typed.toUpperCase() : tidyCase(typed);
  if (!value) return { value, error: ADDRESS_MESSAGES.stateRequired };
  if (country === 'US') {
    const code = (US_STATES as readonly string[]).includes(value) ? value : US_STATE_NAMES[value];
    return code ? { value: code } : { value, error: ADDRESS_MESSAGES.usStateInvalid };
  }
  if (value.length > LIMITS.state) return { value, error: ADDRESS_MESSAGES.tooLong('State', LIMITS.state) };
  if (!/^[\p{L}\p{M}\s-]+$/u.test(value)) return { value, error: ADDRESS_MESSAGES.stateInvalid };
  return { value };
}

export interface AddressInput {
  shipToFirstName?: unknown;
  shipToLastName?: unknown;
  address1?: unknown;
  address2?: unknown;
  city?: unknown;
  state?: unknown;
  postalCode?: unknown;
  country?: unknown;
}

export interface NormalizedAddress {
  shipToFirstName: string;
  shipToLastName: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  countryCode: CountryCode;
}

export type AddressErrors = Partial<Record<keyof AddressInput, string>>;

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

function limited(errors: AddressErrors, field: keyof AddressInput, label: string, value: string, max: number) {
  if (value.length > max) errors[field] ??= ADDRESS_MESSAGES.tooLong(label, max);
  return value;
}

/**
 * Cleans, checks and normalises a shipping address. `names: false` skips the ship-to names
 * (the address-validation call carries none).
 */
export function normalizeAddress(
  input: AddressInput,
  opts: { names?: boolean } = {},
): {
  address: NormalizedAddress;
  errors: AddressErrors;
} {
  const errors: AddressErrors = {};
  const withNames = opts.names ?? true;
  const name = (field: 'shipToFirstName' | 'shipToLastName', label: string, required: string) => {
    const v = cleanText(str(input[field]));
    if (!withNames) return v;
    if (!v) errors[field] = required;
    else if (!NAME_RE.test(v)) errors[field] = ADDRESS_MESSAGES.nameInvalid;
    return limited(errors, field, label, v, LIMITS.shippingName);
  };
  const shipToFirstName = name('shipToFirstName', 'First name', ADDRESS_MESSAGES.firstNameRequired);
  const shipToLastName = name('shipToLastName', 'Last name', ADDRESS_MESSAGES.lastNameRequired);

  const line = (v: unknown) => tidyCase(cleanText(str(v)));
  const address1 = limited(errors, 'address1', 'Address line 1', line(input.address1), LIMITS.addressLine);
  if (!address1) errors.address1 = ADDRESS_MESSAGES.address1Required;
  const address2 = limited(errors, 'address2', 'Address line 2', line(input.address2), LIMITS.addressLine);
  const city = limited(errors, 'city', 'City', line(input.city), LIMITS.city);
  if (!city) errors.city = ADDRESS_MESSAGES.cityRequired;

  const countryText = limited(errors, 'country', 'Country', cleanText(str(input.country)), LIMITS.country);
  const code = countryCode(countryText);
  if (!countryText) errors.country = ADDRESS_MESSAGES.countryRequired;
  // an ISO code when the country is known; other text (an address stored before codes) is kept readable as it is
  const country = code === 'OTHER' ? (isoCountryFromName(countryText) ?? countryText) : code;

  const state = normalizeState(str(input.state), code);
  // without a country the formats cannot be judged: only 'required' is reported for state and postal code
  if (state.error && (countryText || !state.value)) errors.state = state.error;

  const rawPostal = cleanText(str(input.postalCode));
  let postalCode = rawPostal.toUpperCase();
  if (!rawPostal) errors.postalCode = ADDRESS_MESSAGES.postalRequired;
  else if (countryText) {
    const normal = rawPostal.length > 16 ? null : normalizePostalCode(rawPostal, code);
    if (normal && normal.length <= LIMITS.postalCode) postalCode = normal;
    else errors.postalCode = ADDRESS_MESSAGES.postal[code];
  }

  return {
    address: {
      shipToFirstName,
      shipToLastName,
      address1,
      address2,
      city,
      state: state.value,
      postalCode,
      country,
      countryCode: code,
    },
    errors,
  };
}

/** The first problem, in form order, for one-message answers. */
export function firstAddressError(errors: AddressErrors): string | undefined {
  const order: (keyof AddressInput)[] = [
    'shipToFirstName',
    'shipToLastName',
    'address1',
    'address2',
    'city',
    'state',
    'postalCode',
    'country',
  ];
  for (const f of order) if (errors[f]) return errors[f];
  return undefined;
}

/** E-mail rule of the shipping form: required, no spaces, lowercase, at most 254, e-mail shape. */
export function checkEmail(email: unknown): { value: string; error?: string } {
  const value = cleanEmail(str(email));
  if (!value) return { value, error: ADDRESS_MESSAGES.emailRequired };
  if (value.length > LIMITS.email) return { value, error: ADDRESS_MESSAGES.tooLong('Email', LIMITS.email) };
  if (!EMAIL_RE.test(value)) return { value, error: ADDRESS_MESSAGES.emailInvalid };
  return { value };
}
