import type { Config } from '#server/config.ts';
import { createBuiltinAddressProvider } from './builtin.ts';
import type { AddressLog, AddressProvider } from './types.ts';
import { createUspsAddressProvider } from './usps.ts';

export type { AddressProvider } from './types.ts';

/** USPS when ADDRESS_PROVIDER=usps and its credentials are set; otherwise the built-in rules. */
export function createAddressProvider(config: Config, log?: AddressLog): AddressProvider {
  const { provider, clientId, clientSecret, apiBase } = config.address;
  if (provider === 'usps' && clientId && clientSecret)
    return createUspsAddressProvider({ clientId, clientSecret, apiBase }, log);
  if (provider === 'usps')
    log?.warn({}, 'ADDRESS_PROVIDER=usps without USPS_CLIENT_ID/USPS_CLIENT_SECRET: using the built-in rules');
  return createBuiltinAddressProvider();
}
