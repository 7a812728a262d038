/** Shipping calls: address validation, shipping rates, mailing list, PayPal config. */
import { z } from 'zod';

const text = z.string().max(1000).optional();

export const addressValidationRequestSchema = z.object({
  address1: text,
  address2: text,
  city: text,
  postalCode: text,
  state: text,
  country: text,
});
export type AddressValidationRequest = z.infer<typeof addressValidationRequestSchema>;

/** Address validation answer: Address1, Address2, City, State, Zip5 (the web app reads these); Zip4 and Country are extras. */
export const addressSuggestionSchema = z.object({
  Address1: z.string(),
  Address2: z.string(),
  City: z.string(),
  State: z.string(),
  Zip5: z.string(),
  Zip4: z.string(),
  Country: z.string(),
});
export type AddressSuggestion = z.infer<typeof addressSuggestionSchema>;

export const shippingRateSchema = z.object({ id: z.string(), name: z.string(), price: z.number() });
export type ShippingRate = z.infer<typeof shippingRateSchema>;

export const shippingRatesResponseSchema = z.object({
  rates: z.array(shippingRateSchema),
  defaultRateId: z.string(),
});
export type ShippingRatesResponse = z.infer<typeof shippingRatesResponseSchema>;

export const mailingListSubscribeSchema = z.object({ email: text, source: z.string().max(200).optional() });

export const paypalConfigSchema = z.object({ clientId: z.string(), testMode: z.boolean() });
export type PaypalConfig = z.infer<typeof paypalConfigSchema>;
