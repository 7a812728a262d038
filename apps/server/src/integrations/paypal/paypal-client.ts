import { UpstreamError, isRecord, requestJson, timeLeft } from '../http.ts';

/** A payment check (token, lookup, one retry) is given up after this long: the shopper is told to try again. */
export const PAYPAL_BUDGET_MS = 10_000;

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
  apiBase: string;
}

/**
 * PayPal REST, the two calls payment verification needs: an OAuth token (client credentials, kept until
 * shortly before it expires) and GET /v2/checkout/orders/{id}.
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

  /** The PayPal order, or null when PayPal does not know it (404). */
  async function getOrder(orderId: string): Promise<Record<string, unknown> | null> {
    const url = `${base}/v2/checkout/orders/${encodeURIComponent(orderId)}`;
    const deadline = Date.now() + PAYPAL_BUDGET_MS;
    const call = async () =>
      requestJson(
        url,
        { headers: { authorization: `Bearer ${await token(deadline)}`, accept: 'application/json' } },
        timeLeft(deadline),
      );
    let res = await call();
    if (res.status === 401) {
      // a token PayPal revoked early: fetch a fresh one once
      cached = null;
      res = await call();
    }
    if (res.status === 404) return null;
    if (res.status !== 200 || !isRecord(res.body))
      throw new UpstreamError(`PayPal order lookup failed (${res.status})`, res.status, res.body);
    return res.body;
  }

  return { getOrder };
}
