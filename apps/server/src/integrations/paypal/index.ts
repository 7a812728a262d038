import type { Config } from '#server/config.ts';
import { createPaypalVerifier, type PaypalLog } from './paypal.ts';
import { createTestModeVerifier } from './test-mode.ts';
import { PAYMENT_MESSAGES, PaymentRejectedError, type PaymentVerifier } from './types.ts';

export * from './types.ts';
export { TEST_PAYMENT_PREFIX } from './test-mode.ts';

/** PayPal when configured; else test mode outside production; in production without PayPal, no payments. */
export function createPaymentVerifier(config: Config, log?: PaypalLog): PaymentVerifier {
  const { clientId, clientSecret, apiBase } = config.paypal;
  if (clientId && clientSecret) return createPaypalVerifier({ clientId, clientSecret, apiBase }, log);
  if (!config.isProduction) return createTestModeVerifier();
  return {
    mode: 'disabled',
    clientId: '',
    async verify() {
      throw new PaymentRejectedError(PAYMENT_MESSAGES.disabled);
    },
  };
}
export { createPaymentGateway, captureIdOf, customIdOf, type PaymentGateway } from './gateway.ts';
export { PaypalRefusal } from './paypal-client.ts';
export { checkPaypalOrder } from './paypal.ts';
