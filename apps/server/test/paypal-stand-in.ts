import { standIn } from './orders-support.ts';

export type PaypalAnswers = Map<string, { status: number; body: unknown }>;

/** A PayPal Orders v2 order as GET /v2/checkout/orders/{id} answers it. */
export function paypalOrder(
  id: string,
  value: string,
  o: { status?: string; currency?: string; capture?: string } = {},
) {
  const currency = o.currency ?? 'USD';
  const capture = {
    id: `CAP-${id}`,
    status: 'COMPLETED',
    amount: { currency_code: currency, value: o.capture ?? value },
  };
  return {
    id,
    intent: 'CAPTURE',
    status: o.status ?? 'COMPLETED',
    purchase_units: [
      { reference_id: 'default', amount: { currency_code: currency, value }, payments: { captures: [capture] } },
    ],
    payer: { name: { given_name: 'Pat', surname: 'Payer' }, email_address: 'payer@example.com', payer_id: 'PAYER1' },
    create_time: '2026-01-01T10:00:00Z',
    update_time: '2026-01-01T10:01:00Z',
  };
}

/**
 * A local stand-in for PayPal REST: POST /v1/oauth2/token (basic auth client-id:client-secret,
 * grant_type=client_credentials) and GET /v2/checkout/orders/{id} answered from `answers`, else 404 as PayPal does.
 */
export function paypalStandIn(answers: PaypalAnswers) {
  const basic = `Basic ${Buffer.from('client-id:client-secret').toString('base64')}`;
  return standIn((req, body) => {
    if (req.method === 'POST' && req.url === '/v1/oauth2/token') {
      if (req.headers.authorization !== basic || body !== 'grant_type=client_credentials')
        return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
      const token = { scope: 'x', access_token: 'A21AA-token', token_type: 'Bearer', app_id: 'APP', expires_in: 32400 };
      return { status: 200, body: token };
    }
    const m = /^\/v2\/checkout\/orders\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !m) return { status: 404, body: {} };
    if (req.headers.authorization !== 'Bearer A21AA-token') return { status: 401, body: { error: 'invalid_token' } };
    const notFound = { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] };
    return answers.get(decodeURIComponent(m[1]!)) ?? { status: 404, body: notFound };
  });
}
