import type { AddressSuggestion } from '@store/shared';
import { BadRequestError } from '#server/lib/errors.ts';
import { UpstreamError, isRecord, requestJson, timeLeft } from '../http.ts';
import { checkAddress, toSuggestion } from './builtin.ts';
import type { AddressLog, AddressProvider } from './types.ts';

export interface UspsCredentials {
  clientId: string;
  clientSecret: string;
  apiBase: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
/** One validation (token and lookup) is given up after this long: the built-in suggestion is answered. */
export const USPS_BUDGET_MS = 8_000;

/** The reason USPS gives in its error body ({ error: { message, errors: [{ detail }] } }). */
function uspsReason(body: unknown): string {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const first = Array.isArray(error.errors) && isRecord(error.errors[0]) ? error.errors[0] : {};
  return str(first.detail) || str(error.message) || 'Address not found';
}

/**
 * USPS Addresses API v3: OAuth client-credentials token from {apiBase}/oauth2/v3/token, then
 * GET {apiBase}/addresses/v3/address. US addresses only; others get the built-in rules. The built-in
 * checks run first, so USPS is never asked about an address that cannot be right. When USPS is down,
 * the built-in suggestion is answered (checkout keeps working) and the outage is logged.
 */
export function createUspsAddressProvider(
  { clientId, clientSecret, apiBase }: UspsCredentials,
  log?: AddressLog,
): AddressProvider {
  const base = apiBase.replace(/\/+$/, '');
  let cached: { token: string; until: number } | null = null;

  async function token(deadline: number): Promise<string> {
    if (cached && cached.until > Date.now()) return cached.token;
    const res = await requestJson(
      `${base}/oauth2/v3/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }),
      },
      timeLeft(deadline),
    );
    const body = isRecord(res.body) ? res.body : {};
    if (res.status !== 200 || typeof body.access_token !== 'string')
      throw new UpstreamError(`USPS token request failed (${res.status})`, res.status, res.body);
    const ttl = Number(body.expires_in) || 300;
    cached = { token: body.access_token, until: Date.now() + Math.max(0, ttl - 60) * 1000 };
    return cached.token;
  }

  async function lookup(params: URLSearchParams): Promise<AddressSuggestion> {
    const url = `${base}/addresses/v3/address?${params.toString()}`;
    const deadline = Date.now() + USPS_BUDGET_MS;
    const res = await requestJson(
      url,
      { headers: { authorization: `Bearer ${await token(deadline)}`, accept: 'application/json' } },
      timeLeft(deadline),
    );
    if (res.status === 401) cached = null;
    if (res.status === 400 || res.status === 404) throw new BadRequestError(uspsReason(res.body));
    if (res.status !== 200 || !isRecord(res.body) || !isRecord(res.body.address))
      throw new UpstreamError(`USPS address lookup failed (${res.status})`, res.status, res.body);
    const a = res.body.address;
    const info = isRecord(res.body.addressAdditionalInfo) ? res.body.addressAdditionalInfo : {};
    if (info.DPVConfirmation === 'N') throw new BadRequestError('Address not found');
    // an answer without the parts of an address is no answer: never shown to the shopper as a correction
    if (!str(a.streetAddress) || !str(a.city) || !/^[A-Z]{2}$/.test(str(a.state)) || !/^\d{5}$/.test(str(a.ZIPCode)))
      throw new UpstreamError('USPS answered an incomplete address', res.status, res.body);
    return {
      Address1: str(a.streetAddress),
      Address2: str(a.secondaryAddress),
      City: str(a.city),
      State: str(a.state),
      Zip5: str(a.ZIPCode),
      Zip4: str(a.ZIPPlus4),
      Country: 'US',
    };
  }

  return {
    name: 'usps',
    async suggest(input) {
      const address = checkAddress(input);
      const fallback = toSuggestion(address);
      if (address.countryCode !== 'US') return fallback;
      const params = new URLSearchParams({ streetAddress: address.address1, city: address.city, state: address.state });
      if (address.address2) params.set('secondaryAddress', address.address2);
      params.set('ZIPCode', fallback.Zip5);
      if (fallback.Zip4) params.set('ZIPPlus4', fallback.Zip4);
      try {
        return await lookup(params);
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        log?.warn({ status: err.status }, `${err.message}; answering the built-in suggestion`);
        return fallback;
      }
    },
  };
}
