import { describe, expect, it } from 'vitest';
import { countryChoices, countryName, ISO_COUNTRY_CODES, isoCountryFromName } from './countries.ts';

describe('countries', () => {
  it('lists every ISO 3166-1 alpha-2 code once, each with an English name', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249);
    for (const code of ISO_COUNTRY_CODES) expect(countryName(code)).not.toBe(code);
  });
  it('shows a code by its name and older stored text as it is', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('OTHER')).toBe('OTHER');
    expect(countryName('France')).toBe('France');
  });
  it('reads a code or an English name, whatever the case and accents', () => {
    expect(isoCountryFromName('jp')).toBe('JP');
    expect(isoCountryFromName('japan')).toBe('JP');
    expect(isoCountryFromName('Côte d’Ivoire')).toBe('CI');
    expect(isoCountryFromName('Bosnia & Herzegovina')).toBe('BA');
    expect(isoCountryFromName('Atlantis')).toBeNull();
  });
  it('offers the four countries with their own rules first, then the rest by name', () => {
    const choices = countryChoices();
    expect(choices.slice(0, 4).map((c) => c.value)).toEqual(['US', 'CA', 'GB', 'AU']);
    expect(choices).toHaveLength(249);
    const rest = choices.slice(4).map((c) => c.label);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    expect(choices.some((c) => c.value === ('OTHER' as string))).toBe(false);
  });
});
