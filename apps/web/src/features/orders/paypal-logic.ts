import { PAYPAL_ATTEMPTS, PAYPAL_READY_WAIT_MS } from '@store/shared';

/** How the PayPal buttons load (attempts, waits, SDK namespaces) and what the shopper is told when they fail. */
export const PAYPAL_MESSAGES = {
  missingClientId: 'Missing PayPal Client ID',
  error: 'PayPal error. Please reload.',
  render: 'Failed to render PayPal Buttons',
  init: 'Failed to initialize PayPal SDK',
} as const;

export { PAYPAL_ATTEMPTS, PAYPAL_READY_WAIT_MS };

/** Two SDK namespaces, alternated between attempts, so a half-loaded script of one cannot block the next. */
export const PAYPAL_NAMESPACES = ['paypal', 'paypal_sdk'] as const;

export const namespaceFor = (attempt: number) => PAYPAL_NAMESPACES[(attempt - 1) % PAYPAL_NAMESPACES.length]!;

/** Wait before attempt n+1: 1 s times the attempt that failed. */
export const retryDelayMs = (failedAttempt: number) => 1000 * failedAttempt;

/** Errors PayPalButtons reports while rendering, as opposed to errors during a payment. */
export const isRenderError = (message: string | undefined) => /failed to render|unable to render/i.test(message ?? '');
