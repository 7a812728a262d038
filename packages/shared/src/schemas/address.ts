/**
 * Shipping-address rules as pure functions: the server validates with them and the web app
 * previews with them. Each field is cleaned (text cleaning: no angle brackets, control or invisible characters), checked against its limit and format,
 * and normalised (upper-cased state and postal code, country recognised as US, CA, GB, AU or OTHER).
 */
import { LIMITS, US_STATES } from '../constants.ts';
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

/** State upper-cased; for the US a two-letter code (full names such as 'New York' are turned into 'NY'). */
export function normalizeState(state: string, country: CountryCode): { value: string; error?: string } {
  const value = cleanText(state).toUpperCase().replace(/\./g, '');
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

  const address1 = limited(errors, 'address1', 'Address line 1', cleanText(str(input.address1)), LIMITS.addressLine);
  if (!address1) errors.address1 = ADDRESS_MESSAGES.address1Required;
  const address2 = limited(errors, 'address2', 'Address line 2', cleanText(str(input.address2)), LIMITS.addressLine);
  const city = limited(errors, 'city', 'City', cleanText(str(input.city)), LIMITS.city);
  if (!city) errors.city = ADDRESS_MESSAGES.cityRequired;

  const countryText = limited(errors, 'country', 'Country', cleanText(str(input.country)), LIMITS.country);
  const code = countryCode(countryText);
  if (!countryText) errors.country = ADDRESS_MESSAGES.countryRequired;
  const country = code === 'OTHER' ? countryText : code;

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
