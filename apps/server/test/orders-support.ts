import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { guestSessions, users } from '../src/db/schema/index.ts';
import type { Db } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';
import { hashToken, randomToken } from '../src/lib/tokens.ts';
import { createUser } from './factories.ts';

/** How a test request proves who it is: a bearer token or a guest cookie. */
export type Auth = { headers: Record<string, string> };

export async function signedIn(app: FastifyInstance, o: Partial<typeof users.$inferInsert> = {}) {
  const user = await createUser(app.db, o);
  return { user, headers: { authorization: `Bearer ${await app.signToken(user)}` } };
}

/** A guest with a live session cookie (what POST /api/users/guest makes). */
export async function guest(db: Db, email: string | null = null) {
  const [user] = await db
    .insert(users)
    .values({
      username: `guest_${newId().slice(-10)}`,
      firstName: 'Guest',
      lastName: 'Shopper',
      email,
      isGuest: true,
      isActive: true,
    })
    .returning();
  const token = randomToken();
  await db
    .insert(guestSessions)
    .values({ userId: user!.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 3_600_000) });
  return { user: user!, headers: { cookie: `guestToken=${token}` } };
}

export const usAddress = {
  shipToFirstName: 'Ada',
  shipToLastName: 'Lovelace',
  address1: '1 Main St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  country: 'US',
};

export function orderBody(
  items: { product: string; qty: number; selectedColorsVariants?: unknown }[],
  extra: Record<string, unknown> = {},
) {
  return { orderItems: items, shippingAddress: usAddress, paymentMethod: 'PayPal', ...extra };
}

export function placeOrder(app: FastifyInstance, auth: Auth, body: unknown) {
  return app.inject({ method: 'POST', url: '/api/orders', headers: auth.headers, payload: body as object });
}

/** A local HTTP stand-in for an outside API (PayPal, USPS): answers with `handle`, records the requests. */
export async function standIn(handle: (req: http.IncomingMessage, body: string) => { status: number; body: unknown }) {
  const calls: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = handle(req, body);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
