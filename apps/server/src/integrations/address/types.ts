import type { AddressSuggestion, AddressValidationRequest } from '@store/shared';

/**
 * Address validation at checkout: one interface, one module per provider (builtin.ts offline,
 * usps.ts with the USPS Addresses API v3), chosen by configuration in index.ts.
 */
export interface AddressProvider {
  readonly name: 'builtin' | 'usps';
  /** The suggested address, or a BadRequestError whose message is the reason. */
  suggest(input: AddressValidationRequest): Promise<AddressSuggestion>;
}

export interface AddressLog {
  warn(obj: object, msg: string): void;
}
