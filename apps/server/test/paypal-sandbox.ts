import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;
interface Amount {
  currency_code: string;
  value: string;
}
export interface SandboxCapture {
  id: string;
  status: string;
  amount: Amount;
}
/** What the store sends: an order's purchase unit, a refund's amount, a webhook check. */
interface RequestBody {
  purchase_units?: { amount: Amount; custom_id?: string }[];
  amount?: Amount;
  webhook_id?: string;
  transmission_sig?: string;
  transmission_id?: string;
  webhook_event?: unknown;
}

interface SandboxOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  amount: { currency_code: string; value: string };
  customId: string;
  capture?: SandboxCapture;
  refunded: number;
}

const cents = (value: string) => Math.round(Number(value) * 100);
const CLIENT = `Basic ${Buffer.from('client-id:client-secret').toString('base64')}`;
const TOKEN = 'A21AA-sandbox-token';
export const WEBHOOK_ID = 'WH-STORE-1';
export const VALID_SIG = 'valid-signature';

/**
 * A local PayPal REST stand-in that keeps state the way PayPal documents it: OAuth client credentials,
 * Orders v2 create (201, CREATED) / get / capture (only once APPROVED; 422 ORDER_NOT_APPROVED before,
 * ORDER_ALREADY_CAPTURED after), Payments v2 capture refunds (422 REFUND_AMOUNT_EXCEEDED past what is
 * left), the PayPal-Request-Id idempotency of every write (the same id answers the first result again),
 * and webhook signature verification (SUCCESS only for VALID_SIG and WEBHOOK_ID). Tests play the buyer
 * with approve(), and PayPal's trouble with failNext() and delayMs.
 */
export async function paypalSandbox() {
  const orders = new Map<string, SandboxOrder>();
  const byCapture = new Map<string, SandboxOrder>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const refunds: { id: string; captureId: string; amount: number; requestId: string }[] = [];
  const calls: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const failures: { match: RegExp; status: number; body: unknown }[] = [];
  const state = { delayMs: 0, payerEmail: 'buyer@paypal.example' };

  const view = (o: SandboxOrder): Json => ({
    id: o.id,
    intent: 'CAPTURE',
    status: o.status,
    purchase_units: [
      {
        reference_id: o.customId,
        custom_id: o.customId,
        amount: o.amount,
        ...(o.capture ? { payments: { captures: [{ ...o.capture, custom_id: o.customId }] } } : {}),
      },
    ],
    ...(o.status === 'APPROVED' || o.status === 'COMPLETED'
      ? { payer: { email_address: state.payerEmail, payer_id: 'PAYER1' } }
      : {}),
    create_time: '2026-11-24T10:00:00Z',
    update_time: new Date().toISOString(),
  });
  const err = (status: number, name: string, issue: string) => ({
    status,
    body: { name, message: issue, details: [{ issue, description: issue }], debug_id: 'dbg' },
  });

  function handle(method: string, url: string, headers: http.IncomingHttpHeaders, raw: string) {
    if (method === 'POST' && url === '/v1/oauth2/token') {
      if (headers.authorization !== CLIENT) return { status: 401, body: { error: 'invalid_client' } };
      return { status: 200, body: { access_token: TOKEN, token_type: 'Bearer', expires_in: 32400 } };
    }
    if (headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { error: 'invalid_token' } };
    const fail = failures.findIndex((f) => f.match.test(`${method} ${url}`));
    if (fail >= 0) {
      const [f] = failures.splice(fail, 1);
      return { status: f!.status, body: f!.body };
    }
    const body = (raw ? JSON.parse(raw) : {}) as RequestBody;
    const requestId = typeof headers['paypal-request-id'] === 'string' ? headers['paypal-request-id'] : '';
    const key = `${method} ${url} ${requestId}`;
    if (requestId && idempotent.has(key)) return idempotent.get(key)!;
    const remember = (answer: { status: number; body: unknown }) => {
      if (requestId && answer.status < 300) idempotent.set(key, answer);
      return answer;
    };

    if (method === 'POST' && url === '/v2/checkout/orders') {
      const unit = body.purchase_units?.[0];
      if (!unit) return err(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER');
      const id = `PP${randomBytes(6).toString('hex').toUpperCase()}`;
      const o: SandboxOrder = {
        id,
        status: 'CREATED',
        amount: unit.amount,
        customId: unit.custom_id ?? '',
        refunded: 0,
      };
      orders.set(id, o);
      return remember({ status: 201, body: { id, status: 'CREATED', links: [] } });
    }
    let m = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(url);
    if (method === 'GET' && m) {
      const o = orders.get(decodeURIComponent(m[1]!));
      return o ? { status: 200, body: view(o) } : err(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    }
    m = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(url);
    if (method === 'POST' && m) {
      const o = orders.get(decodeURIComponent(m[1]!));
      if (!o) return err(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
      if (o.status === 'COMPLETED') return err(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
      if (o.status !== 'APPROVED') return err(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED');
      completeOrder(o);
      return remember({ status: 201, body: view(o) });
    }
    m = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(url);
    if (method === 'POST' && m) {
      const captureId = decodeURIComponent(m[1]!);
      const o = byCapture.get(captureId);
      if (!o) return err(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
      const amount = body.amount ? cents(body.amount.value) : cents(o.amount.value) - o.refunded;
      if (amount > cents(o.amount.value) - o.refunded)
        return err(422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED');
      o.refunded += amount;
      const id = `RF${randomBytes(6).toString('hex').toUpperCase()}`;
      refunds.push({ id, captureId, amount, requestId });
      return remember({ status: 201, body: { id, status: 'COMPLETED' } });
    }
    if (method === 'POST' && url === '/v1/notifications/verify-webhook-signature') {
      const ok =
        body.webhook_id === WEBHOOK_ID &&
        body.transmission_sig === VALID_SIG &&
        typeof body.transmission_id === 'string' &&
        body.transmission_id !== '' &&
        typeof body.webhook_event === 'object';
      return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
    }
    return err(404, 'NOT_FOUND', 'NOT_FOUND');
  }

  function completeOrder(o: SandboxOrder) {
    o.status = 'COMPLETED';
    o.capture = { id: `CAP${randomBytes(6).toString('hex').toUpperCase()}`, status: 'COMPLETED', amount: o.amount };
    byCapture.set(o.capture.id, o);
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw });
      const answer = handle(req.method ?? '', req.url ?? '', req.headers, raw);
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      };
      if (state.delayMs > 0) setTimeout(send, state.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    refunds,
    state,
    orders,
    /** The buyer approves the payment in PayPal's window. */
    approve(id: string) {
      const o = orders.get(id);
      if (!o) throw new Error(`no PayPal order ${id}`);
      o.status = 'APPROVED';
    },
    /** The payment is captured at PayPal without the store hearing of it (e.g. the browser was closed). */
    captureBehindOurBack(id: string) {
      const o = orders.get(id)!;
      o.status = 'COMPLETED';
      if (!o.capture) completeOrder(o);
      return view(o);
    },
    view: (id: string) => view(orders.get(id)!),
    /** The completed capture of a PayPal order (its id is what refunds are made against). */
    capture(id: string): SandboxCapture {
      const c = orders.get(id)?.capture;
      if (!c) throw new Error(`PayPal order ${id} has no capture`);
      return c;
    },
    /** The next call matching `match` ("METHOD /path") gets this answer instead. */
    failNext(match: RegExp, status: number, body: unknown = { name: 'INTERNAL_SERVER_ERROR', details: [] }) {
      failures.push({ match, status, body });
    },
    /** A PayPal webhook delivery as PayPal sends it (headers and event). */
    webhook(eventType: string, resource: object, sig = VALID_SIG) {
      return {
        headers: {
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-1',
          'paypal-transmission-id': randomBytes(8).toString('hex'),
          'paypal-transmission-sig': sig,
          'paypal-transmission-time': new Date().toISOString(),
        },
        payload: {
          id: `WH-${randomBytes(6).toString('hex')}`,
          event_version: '1.0',
          create_time: new Date().toISOString(),
          resource_type: eventType.startsWith('PAYMENT') ? 'capture' : 'checkout-order',
          event_type: eventType,
          summary: eventType,
          resource,
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PaypalSandbox = Awaited<ReturnType<typeof paypalSandbox>>;
