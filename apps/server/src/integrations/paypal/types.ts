import { BadRequestError } from '#server/lib/errors.ts';

/** A payment the provider confirmed: completed, in USD, for `amountCents`. */
export interface VerifiedPayment {
  provider: 'paypal' | 'test';
  providerPaymentId: string;
  status: 'COMPLETED';
  amountCents: number;
  currency: 'USD';
  payerEmail: string;
  updateTime: string;
  raw: unknown;
}

export interface PaymentClaim {
  /** The provider's id of the payment (PayPal order id), as the buyer's browser got it. */
  paymentId?: string;
  payerEmail?: string;
}

/** One interface, one module per provider (paypal.ts, test-mode.ts), chosen by configuration in index.ts. */
export interface PaymentVerifier {
  readonly mode: 'paypal' | 'test' | 'disabled';
  /** The public client id the browser's SDK needs ('' in test mode). */
  readonly clientId: string;
  /** Resolves only for a payment that pays exactly `totalCents`; else throws PaymentRejectedError. */
  verify(claim: PaymentClaim, totalCents: number): Promise<VerifiedPayment>;
}

/** 400 with the reason; the order stays unpaid. */
export class PaymentRejectedError extends BadRequestError {}

export const PAYMENT_MESSAGES = {
  missing: 'Payment result is required',
  notFound: 'PayPal payment not found',
  notCompleted: (status: string) => `Payment not completed (PayPal status: ${status || 'unknown'})`,
  currency: 'Payment currency must be USD',
  amount: 'Payment amount does not match the order total',
  unavailable: 'Could not verify the payment with PayPal, please try again',
  disabled: 'Payments are not configured',
} as const;

/** "12.30" → 1230, exactly (no floats); anything that is not a plain non-negative amount → null. */
export function parseMoneyCents(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
