import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_WORKER, PASSWORD, createAccount, lastMailTo } from '../accounts.ts';
import { solveCaptcha } from '../captcha.ts';
import { createCategory, createCoupon, createProduct, createUser } from '../factories.ts';
import { createTestApp, type TestContext } from '../helpers.ts';
import { multipart, testImage } from '../multipart.ts';
import { guest, orderBody, placeOrder, usAddress } from '../orders-support.ts';
import { linkToken } from '../smtp.ts';
import { routesOf, tinyWebDist } from './routes.ts';

vi.mock('fastify', async (importOriginal) => (await import('./routes.ts')).wrapFastify(await importOriginal()));

/**
 * The authorisation matrix: every route the server registers, with what each actor gets.
 * 'allow' = a 2xx/3xx answer (the request was authorised and done); a number = exactly that status.
 * Every request is valid, so the decision asserted is the authorisation, not the validation.
 * A route without a row fails, and so does a row whose route no longer exists.
 */
const ACTORS = ['anon', 'guest', 'user', 'other', 'admin'] as const;
type Actor = (typeof ACTORS)[number];
type Outcome = 'allow' | 400 | 401 | 403 | 404;
type Expect = Record<Actor, Outcome>;
interface Req {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}
interface Row {
  route: string; // `METHOD /pattern`, exactly as registered
  name?: string; // an ownership or variant row
  expect: Expect;
  req: (actor: Actor) => Promise<Req> | Req;
}

const row = (v: Outcome[]): Expect => ({ anon: v[0]!, guest: v[1]!, user: v[2]!, other: v[3]!, admin: v[4]! });
const PUBLIC = row(['allow', 'allow', 'allow', 'allow', 'allow']);
const USER_OR_GUEST = row([401, 'allow', 'allow', 'allow', 'allow']);
const ACCOUNT = row([401, 401, 'allow', 'allow', 'allow']);
const ADMIN = row([401, 401, 403, 403, 'allow']);
const EVERYONE = (o: Outcome) => row([o, o, o, o, o]);

let t: TestContext;
let web: ReturnType<typeof tinyWebDist>;
const auth = {} as Record<Actor, { headers: Record<string, string> }>;
let userId: string;
let product: { id: string; slug: string };
let categoryId: string;
let categorySlug: string;
let guestEmail: string;
let shipped: { id: string; trackingNumberId: string };
let guestOrderToken: { orderId: string; accessToken: string };
let otherGuestOrder: string;
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${++seq}`;

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function userOrder(by: { headers: Record<string, string> } = auth.user): Promise<string> {
  const res = await placeOrder(t.app, by, orderBody([{ product: product.id, qty: 1 }]));
  if (res.statusCode !== 201) throw new Error(`order: ${res.statusCode} ${res.body}`);
  return res.json()._id as string;
}
async function paidOrder(): Promise<string> {
  const id = await userOrder();
  const res = await inject('PUT', `/api/orders/${id}/pay`, auth.user.headers, {});
  if (res.statusCode !== 200) throw new Error(`pay: ${res.statusCode} ${res.body}`);
  return id;
}
async function shippedOrder(): Promise<{ id: string; trackingNumberId: string }> {
  const id = await paidOrder();
  const res = await inject('PUT', `/api/orders/${id}/ship`, auth.admin.headers, {
    trackingNumbers: [{ number: `1Z${uniq()}`, trackingItem: ['Item'] }],
  });
  if (res.statusCode !== 200) throw new Error(`ship: ${res.statusCode} ${res.body}`);
  return { id, trackingNumberId: res.json().trackingNumbers[0]._id };
}
async function accessToken(orderId: string, email = guestEmail): Promise<string> {
  const res = await inject('POST', `/api/orders/${orderId}/guest-access`, {}, { email, postalCode: '62701' });
  if (res.statusCode !== 200) throw new Error(`guest-access: ${res.statusCode} ${res.body}`);
  return res.json().accessToken as string;
}
const person = () => {
  const n = uniq();
  return {
    firstName: 'Matrix',
    lastName: 'Row',
    username: `mx_${n}`,
    email: `mx.${n}@example.com`,
    password: 'Matrix-pass-1',
  };
};
async function registered(): Promise<{ email: string; registerToken: string; confirmToken: string }> {
  const p = person();
  const res = await inject('POST', '/api/users', {}, { ...p, grecaptcha: await solveCaptcha(t.app) });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  const mail = await lastMailTo(t.database.db, p.email);
  return {
    email: p.email,
    registerToken: res.json().registerToken,
    confirmToken: linkToken(mail!, `${t.config.publicUrl}/user/confirm`),
  };
}

/** The link of an address change an account asked for (anyone holding the link may use it). */
async function emailChangeToken(): Promise<string> {
  const { headers } = await createAccount(t);
  const email = `mx.${uniq()}@example.com`;
  const res = await inject('PUT', '/api/users/profile', headers, {
    firstName: 'Matrix',
    lastName: 'Row',
    email,
    currentPassword: PASSWORD,
  });
  if (res.statusCode !== 200) throw new Error(`profile: ${res.statusCode} ${res.body}`);
  return linkToken((await lastMailTo(t.database.db, email))!, `${t.config.publicUrl}/user/confirm-email`);
}

/** A valid new discount code (a unique code each time). */
const couponBody = () => ({ code: `MX${uniq().toUpperCase()}`, type: 'percent', value: 10 });
/** A discount code of its own for each request, made by the admin. */
async function couponId(): Promise<string> {
  const res = await inject('POST', '/api/coupons', auth.admin.headers, couponBody());
  if (res.statusCode !== 201) throw new Error(`coupon: ${res.statusCode} ${res.body}`);
  return res.json()._id as string;
}

const rows: Row[] = [
  // --- public pages, documents and reads
  { route: 'GET /', expect: PUBLIC, req: () => ({ url: '/' }) },
  { route: 'GET /index.html', expect: PUBLIC, req: () => ({ url: '/index.html' }) },
  { route: 'GET /product/:idOrSlug', expect: PUBLIC, req: () => ({ url: `/product/${product.slug}` }) },
  { route: 'GET /category/:slug', expect: PUBLIC, req: () => ({ url: `/category/${categorySlug}` }) },
  {
    route: 'GET /category/:slug/page/:pageNumber',
    expect: PUBLIC,
    req: () => ({ url: `/category/${categorySlug}/page/2` }),
  },
  { route: 'GET /robots.txt', expect: PUBLIC, req: () => ({ url: '/robots.txt' }) },
  { route: 'GET /sitemap.xml', expect: PUBLIC, req: () => ({ url: '/sitemap.xml' }) },
  { route: 'GET /uploads/*', expect: PUBLIC, req: () => ({ url: '/uploads/matrix/public.webp' }) },
  { route: 'GET /api/docs', expect: PUBLIC, req: () => ({ url: '/api/docs' }) },
  { route: 'GET /api/docs/json', expect: PUBLIC, req: () => ({ url: '/api/docs/json' }) },
  { route: 'GET /api/docs/yaml', expect: PUBLIC, req: () => ({ url: '/api/docs/yaml' }) },
  { route: 'GET /api/docs/static/index.html', expect: PUBLIC, req: () => ({ url: '/api/docs/static/index.html' }) },
  {
    route: 'GET /api/docs/static/swagger-initializer.js',
    expect: PUBLIC,
    req: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  },
  {
    route: 'GET /api/docs/static/*',
    expect: PUBLIC,
    req: () => ({ url: '/api/docs/static/swagger-ui.css' }),
  },
  { route: 'GET /api/health', expect: PUBLIC, req: () => ({ url: '/api/health' }) },
  { route: 'GET /healthz', expect: PUBLIC, req: () => ({ url: '/healthz' }) },
  { route: 'GET /readyz', expect: PUBLIC, req: () => ({ url: '/readyz' }) },
  { route: 'GET /api/products', expect: PUBLIC, req: () => ({ url: '/api/products?keyword=test' }) },
  { route: 'GET /api/products/top', expect: PUBLIC, req: () => ({ url: '/api/products/top' }) },
  { route: 'GET /api/products/max-name-length', expect: PUBLIC, req: () => ({ url: '/api/products/max-name-length' }) },
  { route: 'GET /api/products/slug/:slug', expect: PUBLIC, req: () => ({ url: `/api/products/slug/${product.slug}` }) },
  { route: 'GET /api/products/:id', expect: PUBLIC, req: () => ({ url: `/api/products/${product.id}` }) },
  { route: 'GET /api/categories/roots', expect: PUBLIC, req: () => ({ url: '/api/categories/roots' }) },
  {
    route: 'GET /api/categories/slug/:slug',
    expect: PUBLIC,
    req: () => ({ url: `/api/categories/slug/${categorySlug}` }),
  },
  {
    route: 'GET /api/categories/:id/children',
    expect: PUBLIC,
    req: () => ({ url: `/api/categories/${categoryId}/children` }),
  },
  { route: 'GET /api/captcha/challenge', expect: PUBLIC, req: () => ({ url: '/api/captcha/challenge' }) },
  { route: 'GET /api/config/captcha', expect: PUBLIC, req: () => ({ url: '/api/config/captcha' }) },
  { route: 'GET /api/config/paypal', expect: PUBLIC, req: () => ({ url: '/api/config/paypal' }) },
  { route: 'GET /api/shipping/:id', expect: PUBLIC, req: () => ({ url: `/api/shipping/${product.id}` }) },
  {
    route: 'POST /api/shipping/shippingaddress',
    expect: PUBLIC,
    req: () => ({
      url: '/api/shipping/shippingaddress',
      payload: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    }),
  },
  {
    route: 'POST /api/orders/shipments/tracking',
    expect: PUBLIC,
    req: () => ({
      url: '/api/orders/shipments/tracking',
      payload: { trackingId: '1Z999AA10123456784', destinationCountry: 'United States', language: 'en', zipcode: '1' },
    }),
  },
  {
    route: 'POST /api/mailing-list/subscribe',
    expect: PUBLIC,
    req: () => ({ url: '/api/mailing-list/subscribe', payload: { email: `ml.${uniq()}@example.com` } }),
  },
  {
    route: 'POST /api/contact',
    expect: PUBLIC,
    req: async () => ({
      url: '/api/contact',
      payload: {
        name: 'Ann',
        email: 'ann@example.com',
        subject: 'Hi',
        message: 'Hello',
        grecaptcha: await solveCaptcha(t.app),
      },
    }),
  },
  // AliExpress sends the admin's browser back without a token: the single-use state is the proof
  {
    route: 'GET /api/aliexpress/oauth/callback',
    expect: PUBLIC,
    req: () => ({ url: '/api/aliexpress/oauth/callback?code=x&state=unknown' }),
  },

  // --- accounts and sessions: open to everyone (credentials are the proof), captcha solved
  {
    route: 'POST /api/users',
    expect: PUBLIC,
    req: async () => ({ url: '/api/users', payload: { ...person(), grecaptcha: await solveCaptcha(t.app) } }),
  },
  {
    route: 'POST /api/users/login',
    expect: PUBLIC,
    req: async (a) => ({
      url: '/api/users/login',
      payload: { email: loginEmail, password: PASSWORD, grecaptcha: await solveCaptcha(t.app) },
      headers: a === 'anon' ? {} : {},
    }),
  },
  // logout deletes the guest session: the guest actor logs out a throwaway session of its own
  {
    route: 'POST /api/users/logout',
    expect: PUBLIC,
    req: async (a) =>
      a === 'guest'
        ? { url: '/api/users/logout', headers: (await guest(t.database.db)).headers }
        : { url: '/api/users/logout' },
  },
  {
    route: 'POST /api/users/confirm-email/:token',
    expect: PUBLIC,
    req: async () => ({ url: `/api/users/confirm-email/${await emailChangeToken()}` }),
  },
  {
    route: 'POST /api/users/confirm-email/:token',
    name: 'a made-up token',
    expect: EVERYONE(400),
    req: () => ({ url: `/api/users/confirm-email/${'f'.repeat(43)}` }),
  },
  {
    route: 'POST /api/users/confirm/:token',
    expect: PUBLIC,
    req: async () => ({ url: `/api/users/confirm/${(await registered()).confirmToken}` }),
  },
  {
    route: 'POST /api/users/confirm/:token',
    name: 'a made-up token',
    expect: EVERYONE(400),
    req: () => ({ url: `/api/users/confirm/${'f'.repeat(43)}` }),
  },
  {
    route: 'POST /api/users/registerconfirm/:token',
    expect: PUBLIC,
    req: async () => ({ url: `/api/users/registerconfirm/${(await registered()).registerToken}` }),
  },
  {
    route: 'POST /api/users/resendconfirmation',
    expect: PUBLIC,
    req: async () => ({
      url: '/api/users/resendconfirmation',
      payload: { email: (await registered()).email, grecaptcha: await solveCaptcha(t.app) },
    }),
  },
  {
    route: 'POST /api/users/fpw',
    expect: PUBLIC,
    req: () => ({ url: '/api/users/fpw', payload: { email: loginEmail } }),
  },
  {
    route: 'POST /api/users/resetpw/:token',
    expect: PUBLIC,
    req: async () => {
      const { user } = await createAccount(t);
      await inject('POST', '/api/users/fpw', {}, { email: user.email });
      const token = linkToken((await lastMailTo(t.database.db, user.email!))!, `${t.config.publicUrl}/users/resetpw`);
      return { url: `/api/users/resetpw/${token}`, payload: { newPassword: 'Another-pass-9' } };
    },
  },
  {
    route: 'POST /api/users/guest',
    expect: PUBLIC,
    req: async () => ({ url: '/api/users/guest', payload: { grecaptcha: await solveCaptcha(t.app) } }),
  },
  // the guest of the cookie; a bearer token is no guest session
  {
    route: 'GET /api/users/session',
    expect: row([401, 'allow', 401, 401, 401]),
    req: () => ({ url: '/api/users/session' }),
  },
  {
    route: 'PUT /api/users/profile',
    expect: USER_OR_GUEST,
    req: () => ({ url: '/api/users/profile', payload: { shippingAddress: usAddress } }),
  },

  // --- admin: users
  { route: 'GET /api/users', expect: ADMIN, req: () => ({ url: '/api/users' }) },
  { route: 'GET /api/users/count', expect: ADMIN, req: () => ({ url: '/api/users/count' }) },
  { route: 'GET /api/users/:id', expect: ADMIN, req: () => ({ url: `/api/users/${userId}` }) },
  {
    route: 'PUT /api/users/:id',
    expect: ADMIN,
    req: async () => ({ url: `/api/users/${(await createUser(t.database.db)).id}`, payload: { firstName: 'Renamed' } }),
  },
  {
    route: 'DELETE /api/users/:id',
    expect: ADMIN,
    req: async () => ({ url: `/api/users/${(await createUser(t.database.db)).id}` }),
  },

  // --- admin: products and uploads
  { route: 'POST /api/products', expect: ADMIN, req: () => ({ url: '/api/products' }) },
  {
    route: 'PUT /api/products/:id',
    expect: ADMIN,
    req: async () => ({
      url: `/api/products/${(await createProduct(t.database.db)).id}`,
      payload: { name: 'Renamed product' },
    }),
  },
  {
    route: 'PUT /api/products/image/:id',
    expect: ADMIN,
    req: async () => ({
      url: `/api/products/image/${(await createProduct(t.database.db)).id}`,
      payload: { image: '/uploads/matrix/public.webp' },
    }),
  },
  {
    route: 'DELETE /api/products/:id',
    expect: ADMIN,
    req: async () => ({ url: `/api/products/${(await createProduct(t.database.db)).id}` }),
  },
  { route: 'GET /api/admin/products', expect: ADMIN, req: () => ({ url: '/api/admin/products?status=draft' }) },
  {
    route: 'GET /api/admin/products/:id',
    expect: ADMIN,
    req: async () => ({ url: `/api/admin/products/${(await createProduct(t.database.db, { status: 'draft' })).id}` }),
  },
  {
    route: 'POST /api/products/bulk',
    expect: ADMIN,
    req: async () => ({
      url: '/api/products/bulk',
      payload: { ids: [(await createProduct(t.database.db)).id], action: 'draft' },
    }),
  },
  { route: 'GET /api/upload/list/:folder', expect: ADMIN, req: () => ({ url: '/api/upload/list/matrix' }) },
  {
    route: 'POST /api/upload/:folder',
    expect: ADMIN,
    req: async () => {
      const body = multipart([
        { field: 'files', filename: 'a.png', contentType: 'image/png', data: await testImage('png') },
      ]);
      return { url: '/api/upload/matrix', payload: body.payload, headers: body.headers };
    },
  },
  {
    route: 'DELETE /api/upload/:folder',
    expect: ADMIN,
    req: () => ({ url: '/api/upload/matrix', payload: { srcs: ['/uploads/matrix/none.webp'] } }),
  },
  { route: 'GET /api/aliexpress/oauth/url', expect: ADMIN, req: () => ({ url: '/api/aliexpress/oauth/url' }) },
  { route: 'GET /api/aliexpress/status', expect: ADMIN, req: () => ({ url: '/api/aliexpress/status' }) },

  // --- CSV import and export
  { route: 'GET /api/products/export', expect: ADMIN, req: () => ({ url: '/api/products/export' }) },
  {
    route: 'POST /api/products/import',
    expect: ADMIN,
    req: () => {
      const body = multipart([
        {
          field: 'file',
          filename: 'products.csv',
          contentType: 'text/csv',
          data: '_id,slug,name,brand,category,price,countInStock,purchaseLink,shippingMethod,image,video,description,variants\n',
        },
      ]);
      return { url: '/api/products/import', payload: body.payload, headers: body.headers };
    },
  },
  {
    route: 'GET /api/products/import/jobs/:id',
    expect: ADMIN,
    // the progress of an import the admin named a moment ago (kept a minute after it ends)
    req: async () => {
      const job = `matrix-${uniq()}`;
      const upload = await rows.find((r) => r.route === 'POST /api/products/import')!.req('admin');
      const headers = { ...auth.admin.headers, ...upload.headers };
      const res = await inject('POST', `${upload.url}?job=${job}`, headers, upload.payload);
      if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${res.body}`);
      return { url: `/api/products/import/jobs/${job}` };
    },
  },
  { route: 'GET /api/orders/export', expect: ADMIN, req: () => ({ url: '/api/orders/export?paid=yes' }) },

  // --- discount codes (admin)
  { route: 'GET /api/coupons', expect: ADMIN, req: () => ({ url: '/api/coupons' }) },
  { route: 'POST /api/coupons', expect: ADMIN, req: () => ({ url: '/api/coupons', payload: couponBody() }) },
  { route: 'GET /api/coupons/:id', expect: ADMIN, req: async () => ({ url: `/api/coupons/${await couponId()}` }) },
  {
    route: 'PUT /api/coupons/:id',
    expect: ADMIN,
    req: async () => ({ url: `/api/coupons/${await couponId()}`, payload: { isActive: false } }),
  },
  { route: 'DELETE /api/coupons/:id', expect: ADMIN, req: async () => ({ url: `/api/coupons/${await couponId()}` }) },
  // anyone may price a cart with a code (rate-limited per client address)
  {
    route: 'POST /api/coupons/apply',
    expect: PUBLIC,
    req: async () => {
      const code = `APPLY${uniq().toUpperCase()}`;
      await createCoupon(t.database.db, { code, type: 'percent', value: 1000 });
      return { url: '/api/coupons/apply', payload: { code, orderItems: [{ product: product.id, qty: 1 }] } };
    },
  },

  // --- sales overview
  {
    route: 'GET /api/admin/stats',
    expect: ADMIN,
    req: () => ({ url: '/api/admin/stats?from=2026-03-01&to=2026-03-05' }),
  },

  // --- reviews and support: registered accounts (bearer) only
  {
    route: 'POST /api/products/:id/reviews',
    expect: ACCOUNT,
    req: async () => ({
      url: `/api/products/${(await createProduct(t.database.db)).id}/reviews`,
      payload: { rating: 5, comment: 'Good' },
    }),
  },
  {
    route: 'POST /api/messages/send',
    expect: ACCOUNT,
    req: async (a) => ({
      url: '/api/messages/send',
      payload:
        a === 'admin'
          ? { recipient: userId, content: 'Hello from support' }
          : { content: 'Hello', grecaptcha: await solveCaptcha(t.app) },
    }),
  },
  {
    route: 'GET /api/messages/get/:id',
    name: "the user's own conversation",
    expect: row([401, 401, 'allow', 403, 'allow']),
    req: () => ({ url: `/api/messages/get/${userId}` }),
  },
  { route: 'GET /api/messages/recipients', expect: ADMIN, req: () => ({ url: '/api/messages/recipients?q=mx' }) },
  { route: 'GET /api/support/inbox', expect: ADMIN, req: () => ({ url: '/api/support/inbox?unread=true' }) },
  { route: 'GET /api/support/unread', expect: ACCOUNT, req: () => ({ url: '/api/support/unread' }) },
  {
    route: 'PUT /api/support/conversations/:id/read',
    name: "the user's own conversation",
    expect: row([401, 401, 'allow', 403, 'allow']),
    req: () => ({ url: `/api/support/conversations/${userId}/read` }),
  },

  // --- orders
  {
    route: 'POST /api/orders',
    expect: USER_OR_GUEST,
    req: () => ({ url: '/api/orders', payload: orderBody([{ product: product.id, qty: 1 }]) }),
  },
  { route: 'GET /api/orders/myorders', expect: USER_OR_GUEST, req: () => ({ url: '/api/orders/myorders' }) },
  { route: 'GET /api/orders', expect: ADMIN, req: () => ({ url: '/api/orders' }) },
  {
    route: 'GET /api/orders/:id',
    name: "the user's order",
    expect: row([401, 403, 'allow', 403, 'allow']),
    req: () => ({ url: `/api/orders/${shipped.id}` }),
  },
  {
    route: 'GET /api/orders/:id',
    name: "the guest's order",
    expect: row([401, 'allow', 403, 403, 'allow']),
    req: () => ({ url: `/api/orders/${guestOrderToken.orderId}` }),
  },
  {
    route: 'GET /api/orders/:id',
    name: 'a malformed id',
    expect: row([401, 404, 404, 404, 404]),
    req: () => ({ url: '/api/orders/not-an-id' }),
  },
  {
    route: 'PUT /api/orders/:id/pay',
    name: "the user's unpaid order (only its owner pays)",
    expect: row([401, 403, 'allow', 403, 403]),
    req: async () => ({ url: `/api/orders/${await userOrder()}/pay`, payload: {} }),
  },
  {
    route: 'PUT /api/orders/:id/pay',
    name: "a guest's order, with that order's access token",
    expect: PUBLIC,
    req: async () => {
      const g = await guest(t.database.db, guestEmail);
      const id = await userOrder(g);
      return { url: `/api/orders/${id}/pay?accessToken=${await accessToken(id)}`, payload: {} };
    },
  },
  {
    route: 'PUT /api/orders/:id/pay',
    name: "a guest's order, with the access token of another order",
    expect: row([401, 403, 403, 403, 403]),
    req: () => ({ url: `/api/orders/${otherGuestOrder}/pay?accessToken=${guestOrderToken.accessToken}`, payload: {} }),
  },
  {
    route: 'POST /api/orders/:id/paypal',
    name: "the user's unpaid order (only its owner pays)",
    expect: row([401, 403, 'allow', 403, 403]),
    req: async () => ({ url: `/api/orders/${await userOrder()}/paypal` }),
  },
  {
    route: 'POST /api/orders/:id/paypal',
    name: "a guest's order, with that order's access token",
    expect: PUBLIC,
    req: async () => {
      const id = await userOrder(await guest(t.database.db, guestEmail));
      return { url: `/api/orders/${id}/paypal?accessToken=${await accessToken(id)}` };
    },
  },
  {
    route: 'POST /api/orders/:id/paypal/capture',
    name: "the user's order, with the PayPal order started for it",
    expect: row([401, 403, 'allow', 403, 403]),
    req: async () => {
      const id = await userOrder();
      const started = await inject('POST', `/api/orders/${id}/paypal`, auth.user.headers);
      return { url: `/api/orders/${id}/paypal/capture`, payload: { paypalOrderId: started.json().id } };
    },
  },
  {
    route: 'POST /api/paypal/webhook',
    name: 'without PAYPAL_WEBHOOK_ID the webhook does not exist',
    expect: EVERYONE(404),
    req: () => ({ url: '/api/paypal/webhook', payload: { event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} } }),
  },
  {
    route: 'PUT /api/orders/:id/cancel',
    name: "the user's unpaid order (its owner, or an admin)",
    expect: row([401, 403, 'allow', 403, 'allow']),
    req: async () => ({ url: `/api/orders/${await userOrder()}/cancel` }),
  },
  {
    route: 'PUT /api/orders/:id/cancel',
    name: "a guest's order, with that order's access token",
    expect: PUBLIC,
    req: async () => {
      const id = await userOrder(await guest(t.database.db, guestEmail));
      return { url: `/api/orders/${id}/cancel?accessToken=${await accessToken(id)}` };
    },
  },
  {
    route: 'POST /api/orders/:id/refunds',
    name: 'a paid order',
    expect: ADMIN,
    req: async () => ({ url: `/api/orders/${await paidOrder()}/refunds`, payload: { amount: 1, reason: 'test' } }),
  },
  {
    route: 'GET /api/orders/:id/guest',
    name: 'with its access token',
    expect: PUBLIC,
    req: () => ({ url: `/api/orders/${guestOrderToken.orderId}/guest?accessToken=${guestOrderToken.accessToken}` }),
  },
  {
    route: 'GET /api/orders/:id/guest',
    name: 'without an access token',
    expect: EVERYONE(403),
    req: () => ({ url: `/api/orders/${guestOrderToken.orderId}/guest` }),
  },
  {
    route: 'GET /api/orders/:id/guest',
    name: 'with the access token of another order',
    expect: EVERYONE(403),
    req: () => ({ url: `/api/orders/${otherGuestOrder}/guest?accessToken=${guestOrderToken.accessToken}` }),
  },
  {
    route: 'POST /api/orders/:id/guest-access',
    name: "the order's e-mail and postal code",
    expect: PUBLIC,
    req: async () => {
      const id = await userOrder(await guest(t.database.db, guestEmail));
      return {
        url: `/api/orders/${id}/guest-access`,
        payload: { email: guestEmail.toUpperCase(), postalCode: '62701' },
      };
    },
  },
  {
    route: 'POST /api/orders/:id/guest-access',
    name: 'a wrong postal code',
    expect: EVERYONE(403),
    req: async () => {
      const id = await userOrder(await guest(t.database.db, guestEmail));
      return { url: `/api/orders/${id}/guest-access`, payload: { email: guestEmail, postalCode: '99999' } };
    },
  },
  {
    route: 'PUT /api/orders/:id/ship',
    expect: ADMIN,
    req: async () => ({
      url: `/api/orders/${await paidOrder()}/ship`,
      payload: { trackingNumbers: [{ number: 'LX1', trackingItem: [] }] },
    }),
  },
  {
    route: 'POST /api/orders/bulk/deliver',
    expect: ADMIN,
    req: async () => ({ url: '/api/orders/bulk/deliver', payload: { ids: [(await shippedOrder()).id] } }),
  },
  {
    route: 'PUT /api/orders/:id/deliver',
    expect: ADMIN,
    req: async () => ({ url: `/api/orders/${(await shippedOrder()).id}/deliver` }),
  },
  {
    route: 'POST /api/orders/:id/tracking/:trackingNumberId/events',
    expect: ADMIN,
    req: () => ({
      url: `/api/orders/${shipped.id}/tracking/${shipped.trackingNumberId}/events`,
      payload: { status: 'Moved' },
    }),
  },
  {
    route: 'POST /api/orders/email/send',
    expect: ADMIN,
    req: () => ({
      url: '/api/orders/email/send',
      payload: { orderId: shipped.id, bigNumber: [{ number: 'LX1', trackingItem: [] }] },
    }),
  },
];

let loginEmail: string;
const methodOf = (route: string) => route.split(' ')[0]!;

describe('authorisation matrix: every route × anonymous, guest, user, another user, admin', () => {
  beforeAll(async () => {
    web = tinyWebDist();
    t = await createTestApp(
      {
        ALIEXPRESS_APP_KEY: 'key',
        ALIEXPRESS_APP_SECRET: 'secret',
        ALIEXPRESS_CALLBACK_URL: 'http://localhost:3000/api/aliexpress/oauth/callback',
        ALIEXPRESS_API_BASE: 'http://127.0.0.1:9',
      },
      { ...NO_WORKER, webDist: web.dir },
    );
    mkdirSync(path.join(t.config.dataDir, 'uploads', 'matrix'), { recursive: true });
    writeFileSync(path.join(t.config.dataDir, 'uploads', 'matrix', 'public.webp'), 'RIFF');
    const user = await createAccount(t);
    const other = await createAccount(t);
    const admin = await createAccount(t, { isAdmin: true });
    guestEmail = `guest.${uniq()}@example.com`;
    const g = await guest(t.database.db, guestEmail);
    Object.assign(auth, { anon: { headers: {} }, guest: g, user, other, admin });
    userId = user.user.id;
    loginEmail = user.user.email!;
    const category = await createCategory(t.database.db);
    categoryId = category.id;
    categorySlug = category.slug;
    const p = await createProduct(t.database.db, { countInStock: 100_000, categoryId });
    product = { id: p.id, slug: p.slug };
    shipped = await shippedOrder();
    const guestOrder = await userOrder(g);
    guestOrderToken = { orderId: guestOrder, accessToken: await accessToken(guestOrder) };
    otherGuestOrder = await userOrder(await guest(t.database.db, guestEmail));
    await inject('POST', '/api/messages/send', user.headers, { content: 'Hi', grecaptcha: await solveCaptcha(t.app) });
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  it('has a row for every route the server registers, and no row for a route it does not', () => {
    const served = routesOf(t.app);
    const listed = new Set(rows.map((r) => r.route));
    expect(
      served.filter((r) => !listed.has(r)),
      'routes without a row in the matrix',
    ).toEqual([]);
    expect(
      [...listed].filter((r) => !served.includes(r)),
      'rows for routes the server does not have',
    ).toEqual([]);
    expect(served.length).toBeGreaterThan(60);
  });

  for (const r of rows) {
    it(`${r.route}${r.name ? ` (${r.name})` : ''}`, async () => {
      const got: Record<string, number> = {};
      for (const actor of ACTORS) {
        const q = await r.req(actor);
        const res = await inject(methodOf(r.route), q.url, { ...auth[actor].headers, ...q.headers }, q.payload);
        got[actor] = res.statusCode;
        const want = r.expect[actor];
        const ok = want === 'allow' ? res.statusCode >= 200 && res.statusCode < 400 : res.statusCode === want;
        expect(ok, `${actor}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(true);
        if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
      }
    });
  }

  // Routes that settle who may call on arrival refuse an anonymous caller before reading what was sent:
  // a malformed JSON body or a nonsense query string still answers 401, not a validation message.
  // Paying and cancelling are the exception: a guest's access token in the query lets an anonymous browser act.
  const byAccessToken = new Set([
    'PUT /api/orders/:id/pay',
    'POST /api/orders/:id/paypal',
    'POST /api/orders/:id/paypal/capture',
    'PUT /api/orders/:id/cancel',
  ]);
  it('refuses anonymous callers of protected routes before parsing or validating what they sent', async () => {
    const wrong: string[] = [];
    for (const r of rows.filter((x) => x.expect.anon === 401 && !byAccessToken.has(x.route))) {
      const q = await r.req('anon');
      const method = methodOf(r.route);
      const url = `${q.url.replace(/\?.*$/, '')}?page=zz&pageSize=-1&q=${'x'.repeat(300)}`;
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        ...(method === 'GET' ? {} : { payload: '{"broken', headers: { 'content-type': 'application/json' } }),
      });
      if (res.statusCode !== 401) wrong.push(`${r.route}: ${res.statusCode} ${res.body}`);
    }
    expect(wrong).toEqual([]);
  });
});
