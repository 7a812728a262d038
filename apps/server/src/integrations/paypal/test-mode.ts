import { randomBytes } from 'node:crypto';
import type { PaymentVerifier } from './types.ts';

/** Marks test-mode payments: the order page and the admin see at once that no money moved. */
export const TEST_PAYMENT_PREFIX = 'TEST-';

/**
 * No PayPal credentials and not in production: a clearly labelled test payment,
 * recorded like a real one under a fresh 'TEST-…' id.
 */
export function createTestModeVerifier(): PaymentVerifier {
  return {
    mode: 'test',
    clientId: '',
    async verify(claim, totalCents) {
      return {
        provider: 'test',
        providerPaymentId: `${TEST_PAYMENT_PREFIX}${randomBytes(8).toString('hex').toUpperCase()}`,
        status: 'COMPLETED',
        amountCents: totalCents,
        currency: 'USD',
        payerEmail: claim.payerEmail ?? '',
        updateTime: new Date().toISOString(),
        raw: { testMode: true },
      };
    },
  };
}
