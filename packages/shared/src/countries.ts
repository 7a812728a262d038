/**
 * Countries an address can name: every ISO 3166-1 alpha-2 code (the list the standard maintains), stored as
 * the code and shown by its English name from the runtime's own CLDR data (`Intl.DisplayNames`).
 */
export const ISO_COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ', 'BA', 'BB',
  'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BV', 'BW', 'BY',
  'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX',
  'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK',
  'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS',
  'GT', 'GU', 'GW', 'GY', 'HK', 'HM', 'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR',
  'IS', 'IT', 'JE', 'JM', 'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA',
  'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK',
  'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA', 'NC', 'NE',
  'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM',
  'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW', 'SA', 'SB', 'SC', 'SD', 'SE', 'SG',
  'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF',
  'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'UM', 'US', 'UY',
  'UZ', 'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const; // prettier-ignore
export type IsoCountryCode = (typeof ISO_COUNTRY_CODES)[number];

/** The countries whose postal codes (and, but for GB, states) have their own rules: listed first. */
export const RULED_COUNTRIES = ['US', 'CA', 'GB', 'AU'] as const satisfies readonly IsoCountryCode[];

const CODES = new Set<string>(ISO_COUNTRY_CODES);
let names: Intl.DisplayNames | undefined;
let byName: Map<string, IsoCountryCode> | undefined;

/** A key for comparing names: upper case, no accents, dots or extra spaces, & as AND. */
const nameKey = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[.’']/g, '')
    .replace(/&/g, ' AND ')
    .replace(/\s+/g, ' ')
    .trim();

export function isIsoCountryCode(value: string): value is IsoCountryCode {
  return CODES.has(value);
}

/** The English name of a stored country: an ISO code's name, and any other stored text (older orders) as it is. */
export function countryName(country: string): string {
  if (!isIsoCountryCode(country)) return country;
  names ??= new Intl.DisplayNames('en', { type: 'region', fallback: 'code' });
  return names.of(country) ?? country;
}

/** The ISO code of a country written as its code ('fr') or its English name ('France'), or null. */
export function isoCountryFromName(text: string): IsoCountryCode | null {
  const key = nameKey(text);
  if (isIsoCountryCode(key)) return key;
  if (!byName) {
    byName = new Map();
    for (const code of ISO_COUNTRY_CODES) byName.set(nameKey(countryName(code)), code);
  }
  return byName.get(key) ?? null;
}

/** The select's choices: the four countries with their own rules first, then every other one by name. */
export function countryChoices(): { value: IsoCountryCode; label: string }[] {
  const ruled = new Set<string>(RULED_COUNTRIES);
  const rest = ISO_COUNTRY_CODES.filter((c) => !ruled.has(c))
    .map((c) => ({ value: c, label: countryName(c) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  return [...RULED_COUNTRIES.map((c) => ({ value: c, label: countryName(c) })), ...rest];
}
