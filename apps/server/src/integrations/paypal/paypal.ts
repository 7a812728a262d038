import { CURRENCY, ERROR_CODES } from '@store/shared';
import { UpstreamError, isRecord } from '../http.ts';
import { PaypalRefusal, createPaypalClient, type PaypalCredentials } from './paypal-client.ts';
import {
  PAYMENT_MESSAGES,
  PaymentRejectedError,
  parseMoneyCents,
  type PaymentVerifier,
  type VerifiedPayment,
} from './types.ts';

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const amountOf = (holder: Record<string, unknown>) => (isRecord(holder.amount) ? holder.amount : {});

/**
 * Checks a PayPal Orders v2 order against the store's order: COMPLETED, every amount in
 * USD, the purchase units adding up to the total in integer cents, and so do the completed captures when
 * PayPal lists them.
 */
export function checkPaypalOrder(order: Record<string, unknown>, totalCents: number): Omit<VerifiedPayment, 'raw'> {
  const status = typeof order.status === 'string' ? order.status : '';
  if (status !== 'COMPLETED') throw new PaymentRejectedError(PAYMENT_MESSAGES.notCompleted(status));
  const units = list(order.purchase_units);
  if (units.length === 0) throw new PaymentRejectedError(PAYMENT_MESSAGES.amount);

  const sum = (holders: Record<string, unknown>[]) => {
    let cents = 0;
    for (const h of holders) {
      const amount = amountOf(h);
      if (amount.currency_code !== CURRENCY) throw new PaymentRejectedError(PAYMENT_MESSAGES.currency);
      const c = parseMoneyCents(amount.value);
      if (c === null) throw new PaymentRejectedError(PAYMENT_MESSAGES.amount);
      cents += c;
    }
    return cents;
  };
  if (sum(units) !== totalCents) throw new PaymentRejectedError(PAYMENT_MESSAGES.amount);
  const captures = units.flatMap((u) => list(isRecord(u.payments) ? u.payments.captures : undefined));
  if (captures.length > 0) {
    const completed = captures.filter((c) => c.status === 'COMPLETED');
    if (sum(completed) !== totalCents) throw new PaymentRejectedError(PAYMENT_MESSAGES.amount);
  }

  const payer = isRecord(order.payer) ? order.payer : {};
  return {
    provider: 'paypal',
    providerPaymentId: String(order.id ?? ''),
    status: 'COMPLETED',
    amountCents: totalCents,
    currency: 'USD',
    payerEmail: typeof payer.email_address === 'string' ? payer.email_address : '',
    updateTime: typeof order.update_time === 'string' ? order.update_time : new Date().toISOString(),
  };
}

export interface PaypalLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function createPaypalVerifier(credentials: PaypalCredentials, log?: PaypalLog): PaymentVerifier {
  const client = createPaypalClient(credentials);
  return {
    mode: 'paypal',
    clientId: credentials.clientId,
    async verify(claim, totalCents) {
      const id = claim.paymentId?.trim();
      if (!id) throw new PaymentRejectedError(PAYMENT_MESSAGES.missing);
      if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new PaymentRejectedError(PAYMENT_MESSAGES.notFound);
      let order: Record<string, unknown> | null;
      try {
        order = await client.getOrder(id);
      } catch (err) {
        if (!(err instanceof UpstreamError) && !(err instanceof PaypalRefusal)) throw err;
        const credentialsRejected = err.status === 401 || err.status === 403;
        (credentialsRejected ? log?.error : log?.warn)?.({ status: err.status, paypalOrderId: id }, err.message);
        throw new PaymentRejectedError(PAYMENT_MESSAGES.unavailable, ERROR_CODES.UPSTREAM_FAILED);
      }
      if (!order) throw new PaymentRejectedError(PAYMENT_MESSAGES.notFound);
      // an answer about another order (or none) is not an answer: nothing is recorded from it
      if (typeof order.id !== 'string' || order.id.toUpperCase() !== id.toUpperCase()) {
        log?.warn({ paypalOrderId: id }, 'PayPal answered for another order id');
        throw new PaymentRejectedError(PAYMENT_MESSAGES.unavailable, ERROR_CODES.UPSTREAM_FAILED);
      }
      const checked = checkPaypalOrder(order, totalCents);
      // the id PayPal answers for is the one recorded, so a reused payment is caught whatever case it was sent in
      return { ...checked, providerPaymentId: checked.providerPaymentId || id, raw: order };
    },
  };
}
