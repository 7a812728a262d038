import { randomBytes } from 'node:crypto';
import type { Config } from '#server/config.ts';
import { isRecord } from '../http.ts';
import { createPaypalClient, type PaypalClient } from './paypal-client.ts';
import { TEST_PAYMENT_PREFIX } from './test-mode.ts';

type Json = Record<string, unknown>;

/**
 * The calls the payment lifecycle makes, one implementation per mode: PayPal's REST API, or test mode
 * (no credentials, outside production), where payments and refunds succeed at once and no money moves.
 */
export interface PaymentGateway {
  readonly mode: 'paypal' | 'test' | 'disabled';
  /** Creates a payment for the store order; answers the provider's order id. */
  createOrder(o: { orderId: string; orderNumber: number; totalCents: number }): Promise<string>;
  /** Captures an approved payment; answers the provider's order as it stands afterwards (PayPal's shape). */
  captureOrder(providerOrderId: string, expected: { orderId: string; totalCents: number }): Promise<Json>;
  /** The provider's order, or null when it does not know it. */
  getOrder(providerOrderId: string): Promise<Json | null>;
  refund(
    captureId: string,
    r: { amountCents: number; requestId: string; note: string; invoiceId: string },
  ): Promise<{ id: string; status: string }>;
  /** PayPal's own check of a webhook delivery (only in PayPal mode). */
  verifyWebhook?(headers: Record<string, string | undefined>, webhookId: string, event: unknown): Promise<boolean>;
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** The completed captures of a PayPal order (Orders v2: purchase_units[].payments.captures[]). */
export function capturesOf(order: Json): Json[] {
  return list(order.purchase_units).flatMap((u) => list(isRecord(u.payments) ? u.payments.captures : undefined));
}

/** The id of the first completed capture: what a refund is made against ('' when none). */
export function captureIdOf(order: Json): string {
  const c = capturesOf(order).find((x) => x.status === 'COMPLETED');
  return typeof c?.id === 'string' ? c.id : '';
}

/** The store order a PayPal order was created for (its custom_id), or ''. */
export function customIdOf(order: Json): string {
  for (const u of list(order.purchase_units)) if (typeof u.custom_id === 'string') return u.custom_id;
  return '';
}

function paypalGateway(client: PaypalClient): PaymentGateway {
  return {
    mode: 'paypal',
    async createOrder(o) {
      const created = await client.createOrder({
        customId: o.orderId,
        invoiceId: `${o.orderNumber}-${randomBytes(3).toString('hex')}`,
        description: `Order #${o.orderNumber}`,
        totalCents: o.totalCents,
      });
      if (typeof created.id !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(created.id))
        throw new Error('PayPal answered a create without an order id');
      return created.id;
    },
    captureOrder: (id) => client.captureOrder(id),
    getOrder: (id) => client.getOrder(id),
    refund: (captureId, r) => client.refundCapture(captureId, r),
    verifyWebhook: (headers, webhookId, event) => client.verifyWebhook(headers, webhookId, event),
  };
}

/** Test mode: a clearly labelled payment recorded like a real one under 'TEST-…' ids; refunds succeed at once. */
function testGateway(): PaymentGateway {
  const fresh = () => `${TEST_PAYMENT_PREFIX}${randomBytes(8).toString('hex').toUpperCase()}`;
  return {
    mode: 'test',
    async createOrder() {
      return fresh();
    },
    async captureOrder(id, expected) {
      const value = (expected.totalCents / 100).toFixed(2);
      const amount = { currency_code: 'USD', value };
      return {
        id,
        status: 'COMPLETED',
        purchase_units: [
          {
            custom_id: expected.orderId,
            amount,
            payments: { captures: [{ id: `${id}-CAPTURE`, status: 'COMPLETED', amount }] },
          },
        ],
        payer: { email_address: '' },
        update_time: new Date().toISOString(),
        testMode: true,
      };
    },
    async getOrder() {
      return null;
    },
    async refund() {
      return { id: fresh(), status: 'COMPLETED' };
    },
  };
}

const disabled: PaymentGateway = {
  mode: 'disabled',
  createOrder: () => Promise.reject(new Error('payments are not configured')),
  captureOrder: () => Promise.reject(new Error('payments are not configured')),
  getOrder: async () => null,
  refund: () => Promise.reject(new Error('payments are not configured')),
};

/** PayPal when configured; else test mode outside production; in production without PayPal, no payments. */
export function createPaymentGateway(config: Config): PaymentGateway {
  const { clientId, clientSecret, apiBase } = config.paypal;
  if (clientId && clientSecret) return paypalGateway(createPaypalClient({ clientId, clientSecret, apiBase }));
  if (!config.isProduction) return testGateway();
  return disabled;
}
