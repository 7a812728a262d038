import { randomUUID } from 'node:crypto';
import { UpstreamError, isRecord, requestJson, timeLeft, type HttpAnswer } from '../http.ts';

/** A PayPal call (token, the call, its retries) is given up after this long: the shopper is told to try again. */
export const PAYPAL_BUDGET_MS = 10_000;
/** Tries of one call when PayPal does not answer, or answers 429 or 5xx (every write carries a request id). */
export const PAYPAL_TRIES = 3;
const BACKOFF_MS = [250, 750];

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
  apiBase: string;
}

type Json = Record<string, unknown>;

/** An answer PayPal gave that says no (4xx): the caller shows `issue` (PayPal's reason) and records nothing. */
export class PaypalRefusal extends Error {
  constructor(
    readonly status: number,
    readonly issue: string,
    readonly body: unknown,
  ) {
    super(`PayPal refused (${status}${issue ? `: ${issue}` : ''})`);
    this.name = 'PaypalRefusal';
  }
}

/** PayPal's reason for a refusal: the first detail's issue, else the error name. */
export function issueOf(body: unknown): string {
  if (!isRecord(body)) return '';
  const details = Array.isArray(body.details) ? body.details.filter(isRecord) : [];
  const issue = details[0]?.issue;
  if (typeof issue === 'string') return issue;
  return typeof body.name === 'string' ? body.name : typeof body.error === 'string' ? body.error : '';
}

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * PayPal REST: an OAuth token (client credentials, kept until shortly before it expires), and the calls the
 * payment lifecycle makes. Each call has one time budget; a call PayPal does not answer (or answers 429 or
 * 5xx) is tried again up to PAYPAL_TRIES times within it, with the same PayPal-Request-Id for a write, so a
 * retry never creates, captures or refunds twice. A revoked token is fetched again once.
 */
export function createPaypalClient({ clientId, clientSecret, apiBase }: PaypalCredentials) {
  const base = apiBase.replace(/\/+$/, '');
  let cached: { token: string; until: number } | null = null;

  async function token(deadline: number): Promise<string> {
    if (cached && cached.until > Date.now()) return cached.token;
    const res = await requestJson(
      `${base}/v1/oauth2/token`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      },
      timeLeft(deadline),
    );
    const body = isRecord(res.body) ? res.body : {};
    if (res.status !== 200 || typeof body.access_token !== 'string')
      throw new UpstreamError(
        `PayPal token request failed (${res.status}): ${String(body.error ?? '')}`,
        res.status,
        res.body,
      );
    const ttl = typeof body.expires_in === 'number' ? body.expires_in : 300;
    cached = { token: body.access_token, until: Date.now() + Math.max(0, ttl - 60) * 1000 };
    return cached.token;
  }

  /** One call with its retries; answers PayPal's last answer (any status), or throws UpstreamError when none came. */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<HttpAnswer> {
    const deadline = Date.now() + PAYPAL_BUDGET_MS;
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      let res: HttpAnswer;
      try {
        const headers: Record<string, string> = {
          authorization: `Bearer ${await token(deadline)}`,
          accept: 'application/json',
        };
        if (body !== undefined) headers['content-type'] = 'application/json';
        if (requestId) headers['paypal-request-id'] = requestId;
        res = await requestJson(
          `${base}${path}`,
          { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
          timeLeft(deadline),
        );
      } catch (err) {
        if (!(err instanceof UpstreamError) || !retryable(err.status)) throw err;
        res = { status: 0, body: err.message };
      }
      if (res.status === 401 && !renewed) {
        // a token PayPal revoked early: fetch a fresh one once
        cached = null;
        renewed = true;
        attempt--;
        continue;
      }
      const pause = BACKOFF_MS[attempt - 1] ?? 0;
      if (!retryable(res.status) || attempt >= PAYPAL_TRIES || Date.now() + pause >= deadline) {
        if (res.status === 0) throw new UpstreamError(`PayPal did not answer ${method} ${path}`, 0);
        return res;
      }
      await sleep(pause);
    }
  }

  const ok = (res: HttpAnswer, ...statuses: number[]): Json => {
    if (statuses.includes(res.status) && isRecord(res.body)) return res.body;
    if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403 && res.status !== 429)
      throw new PaypalRefusal(res.status, issueOf(res.body), res.body);
    throw new UpstreamError(`PayPal answered ${res.status}`, res.status, res.body);
  };
  const orderPath = (id: string) => `/v2/checkout/orders/${encodeURIComponent(id)}`;

  return {
    /** The PayPal order, or null when PayPal does not know it (404). */
    async getOrder(orderId: string): Promise<Json | null> {
      const res = await call('GET', orderPath(orderId));
      if (res.status === 404) return null;
      return ok(res, 200);
    },

    /** Creates a PayPal order for this amount (intent CAPTURE); answers PayPal's order (its id, status CREATED). */
    async createOrder(o: { customId: string; invoiceId: string; description: string; totalCents: number }) {
      const value = (o.totalCents / 100).toFixed(2);
      const body = {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: o.customId,
            custom_id: o.customId,
            invoice_id: o.invoiceId,
            description: o.description.slice(0, 127),
            amount: { currency_code: 'USD', value },
          },
        ],
      };
      return ok(await call('POST', '/v2/checkout/orders', body, randomUUID()), 200, 201);
    },

    /**
     * Captures an approved PayPal order; answers the order as PayPal has it afterwards. An order captured
     * already (by another path) is read instead, so whoever asks second sees the same payment.
     */
    async captureOrder(paypalOrderId: string): Promise<Json> {
      const res = await call('POST', `${orderPath(paypalOrderId)}/capture`, {}, `capture-${paypalOrderId}`);
      if (res.status === 422 && issueOf(res.body) === 'ORDER_ALREADY_CAPTURED') {
        const order = await this.getOrder(paypalOrderId);
        if (order) return order;
      }
      return ok(res, 200, 201);
    },

    /** Refunds part of a capture; `requestId` makes a repeat of the same refund a no-op at PayPal. */
    async refundCapture(
      captureId: string,
      r: { amountCents: number; requestId: string; note: string; invoiceId: string },
    ) {
      const body = {
        amount: { currency_code: 'USD', value: (r.amountCents / 100).toFixed(2) },
        invoice_id: r.invoiceId,
        ...(r.note ? { note_to_payer: r.note.slice(0, 255) } : {}),
      };
      const out = ok(
        await call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, body, r.requestId),
        200,
        201,
      );
      return { id: typeof out.id === 'string' ? out.id : '', status: typeof out.status === 'string' ? out.status : '' };
    },

    /** Asks PayPal whether a webhook delivery is genuine: true only for verification_status SUCCESS. */
    async verifyWebhook(headers: Record<string, string | undefined>, webhookId: string, event: unknown) {
      const body = {
        auth_algo: headers['paypal-auth-algo'] ?? '',
        cert_url: headers['paypal-cert-url'] ?? '',
        transmission_id: headers['paypal-transmission-id'] ?? '',
        transmission_sig: headers['paypal-transmission-sig'] ?? '',
        transmission_time: headers['paypal-transmission-time'] ?? '',
        webhook_id: webhookId,
        webhook_event: event,
      };
      const res = await call('POST', '/v1/notifications/verify-webhook-signature', body);
      if (res.status >= 500) throw new UpstreamError(`PayPal answered ${res.status}`, res.status, res.body);
      return res.status === 200 && isRecord(res.body) && res.body.verification_status === 'SUCCESS';
    },
  };
}

export type PaypalClient = ReturnType<typeof createPaypalClient>;
