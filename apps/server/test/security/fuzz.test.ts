import { ERROR_CODES } from '@store/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_WORKER, createAccount } from '../accounts.ts';
import { createCategory, createProduct, createUser } from '../factories.ts';
import { createTestApp, type TestContext } from '../helpers.ts';
import { orderBody, placeOrder } from '../orders-support.ts';
import { routesOf, tinyWebDist } from './routes.ts';

vi.mock('fastify', async (importOriginal) => (await import('./routes.ts')).wrapFastify(await importOriginal()));

/**
 * Property-based fuzzing of every route the server registers: generated path parameters,
 * query strings and bodies (wrong types, huge strings, unicode, control characters, deep nesting,
 * prototype-pollution keys, malformed ids, dates no database holds, updates that change nothing), sent as
 * an anonymous caller and as an admin (who gets past the authorisation checks into the services). Each
 * route also gets fixed cases of the shapes that once reached the database unchecked: every date
 * parameter or field set to each of EXTREME_DATES, and an empty body for every update, with real ids.
 * Never a 5xx; no stack trace, SQL or file path in an answer; every API error is JSON `{ message, code }`
 * (a code of ERROR_CODES) and nothing else. FUZZ_RUNS=5000 for a longer run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const ERROR_CODE_NAMES = new Set<unknown>(Object.values(ERROR_CODES));
// CI replays one fixed seed (a red build must be reproducible and not depend on luck); local runs explore
// new inputs each time. FUZZ_SEED picks one either way; a failure prints the seed that found it.
const CI_SEED = 20_261_122;
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.CI === 'true' || process.env.CI === '1'
    ? CI_SEED
    : undefined;

let adminHeaders: Record<string, string>;
let validIds: string[] = [];
let spec: { paths: Record<string, Record<string, OpenApiOperation>> };
interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

const NASTY = [
  '',
  ' ',
  '\u0000',
  '\u0000\u0001\u0007\u001b[31m',
  '\r\n\r\nX-Injected: 1',
  '\u202e\u200b\ufeff',
  '\ud800',
  '😀'.repeat(50),
  'ǅ̴̡̢̛̛̯̭͓̘̣',
  '%',
  '%00',
  '%2e%2e%2f',
  '../../../../etc/passwd',
  '..\\..\\windows',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '\\',
  '(?<a>.*)*$',
  '(a+)+$',
  '.*'.repeat(200),
  '[',
  '*',
  '${7*7}',
  '{{constructor.constructor("return process")()}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  'Infinity',
  '-1',
  '-0',
  '1e309',
  '9'.repeat(400),
  '0x1F',
  'true',
  'null',
  'undefined',
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  'FFFFFFFFFFFFFFFFFFFFFFFF',
  'zzzzzzzzzzzzzzzzzzzzzzzz',
  '0'.repeat(23),
  '0'.repeat(25),
  'x'.repeat(5_000),
  'é'.repeat(70_000),
];
/**
 * Dates at and past the edges of what JavaScript and PostgreSQL share (years 1 to 9999): year 0, years of
 * five or six digits, negative years, the last day and instant of 9999, offsets that cross the edges, and
 * the limits of JavaScript's own dates.
 */
const EXTREME_DATES = [
  '0000-01-01',
  '0000-12-31T23:59:59.999Z',
  '0001-01-01',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999-01:00',
  '10000-01-01',
  '+010000-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-14T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '2024-02-30',
  '2024-13-45T99:99:99Z',
];
/** Names of query parameters and body fields that carry a date (dateFrom, dateTo, occurredAt, …). */
const isDateName = (name: string) => /date|time|At$|since|until/i.test(name);
const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'id',
  '_id',
  'email',
  'password',
  'isAdmin',
  'qty',
  'price',
  'product',
  'orderItems',
];

/** encodeURIComponent throws on a lone surrogate: those go as the raw bytes a client could send. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
};
const nastyString = fc.constantFrom(...NASTY);
const extremeDate = fc.constantFrom(...EXTREME_DATES);
// ids are known only once the database is filled: picked by index when a value is generated
const idString = () => fc.nat(1_000).map((i) => validIds[i % validIds.length] ?? '0'.repeat(24));
const anyString = () =>
  fc.oneof(
    { weight: 3, arbitrary: nastyString },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 2, arbitrary: idString() },
    { weight: 1, arbitrary: fc.emailAddress() },
    { weight: 1, arbitrary: extremeDate },
  );
const scalar = () =>
  fc.oneof(
    anyString(),
    fc.integer(),
    fc.constantFrom(-1, 0, 1, 1e308, -1e308, 2 ** 53, 0.1, -0.5, 99999999999),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );

/** Values of any shape, nested a little (deep nesting comes from `deep` below). */
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar(),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), tie('v'), { maxKeys: 4 }),
  ),
})).v;

function deep(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A date-named field gets extreme dates most of the time, any value otherwise. */
const dated = <T>(name: string, [any, date]: [T, string]) => (isDateName(name) && date ? date : any);

/**
 * A body shaped like the route's own (its field names from the OpenAPI document) with wrong values; an
 * update (PUT, PATCH) also often gets a body that changes nothing.
 */
function bodyFor(fields: string[], update: boolean) {
  const keys = fc.constantFrom(...fields, ...KEYS);
  const dateOrNot = fc.oneof({ weight: 3, arbitrary: extremeDate }, { weight: 1, arbitrary: fc.constant('') });
  const raw = fc.oneof(
    fc.constantFrom(
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
      '{"broken',
      '',
      '{}',
      'null',
      '[]',
      '"string"',
      '12',
      deep(3_000, 'array'),
      deep(3_000, 'object'),
      `{"x":"${'a'.repeat(1_100_000)}"}`,
    ),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
  const shaped = fc
    .dictionary(keys, fc.tuple(value, dateOrNot), { maxKeys: 8 })
    .map((o) => JSON.stringify(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, dated(k, v)]))));
  return fc.oneof(
    { weight: 5, arbitrary: shaped },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: raw },
    { weight: update ? 2 : 0, arbitrary: fc.constantFrom('{}', '{"_id":"000000000000000000000000"}') },
  );
}

function queryFor(names: string[]) {
  const key = fc.constantFrom(...names, ...KEYS, 'page', 'pageSize', 'keyword', 'q');
  const dateOrNot = fc.oneof({ weight: 3, arbitrary: extremeDate }, { weight: 1, arbitrary: fc.constant('') });
  return fc
    .array(fc.tuple(key, anyString(), dateOrNot, fc.boolean()), { maxLength: 5 })
    .map((pairs) =>
      pairs.map(([k, v, d, brackets]) => `${enc(k)}${brackets ? '[]' : ''}=${enc(dated(k, [v, d]))}`).join('&'),
    );
}

/** A path parameter: an id that exists, a malformed one, or any text; usually URL-encoded, sometimes raw. */
const pathParam = () =>
  fc.oneof(
    { weight: 3, arbitrary: anyString().map((s) => enc(s)) },
    { weight: 2, arbitrary: idString() },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%',
        '%zz',
        '%c0%ae',
        'a%2Fb',
        'x'.repeat(600),
        '%ED%A0%80',
        '%FF%FE',
        '%E0%A4%A',
      ),
    },
  );

/** What an answer must never show: internals of the server. */
function leaks(body: string, dataDir: string): string | undefined {
  const checks: [string, RegExp | string][] = [
    ['stack trace', /\n\s+at [^\n]+:\d+:\d+/],
    ['stack frame', /\bat (async )?[\w.<>]+ \((file:\/\/|\/)/],
    ['source file', /\.(ts|js|mjs):\d+/],
    ['node_modules', 'node_modules'],
    ['data dir', dataDir],
    ['server path', /\/(work|home|root|usr|app|srv)\/[\w.-]+\//],
    // SQL as drizzle and pg write it (quoted identifiers), not English ('Select a valid recipient from the list.')
    [
      'SQL',
      /(\bselect\s+[\w"*,. ]+\s+from\s+"\w+"|\binsert\s+into\s+"?\w+"?\s*\(|\bupdate\s+"\w+"\s+set\b|\bdelete\s+from\s+"\w+"|\bfailed query\b)/i,
    ],
    [
      'database error',
      /\b(syntax error at or near|violates (unique|foreign key|check) constraint|relation "\w+"|column "\w+")/i,
    ],
    ['error name', /\b(TypeError|ReferenceError|RangeError|DrizzleError|PostgresError|DatabaseError)\b/],
  ];
  for (const [what, pattern] of checks)
    if (typeof pattern === 'string' ? body.includes(pattern) : pattern.test(body)) return what;
  return undefined;
}

interface FuzzInput {
  admin: boolean;
  values: string[];
  query: string;
  body: string;
  contentType: string;
}

/** Every way to fill `count` path parameters with the ids of real rows. */
function idTuples(count: number): string[][] {
  let tuples: string[][] = [[]];
  for (let i = 0; i < count; i++) tuples = tuples.flatMap((t) => validIds.map((id) => [...t, id]));
  return tuples;
}

/**
 * Fixed cases run before the generated ones, as an admin with real ids: each date query parameter and
 * date body field at each extreme date, and an empty body for each update.
 */
function fixedCases(method: string, paramCount: number, queryNames: string[], bodyFields: string[]): [FuzzInput][] {
  const cases: FuzzInput[] = [];
  const dateQueries = queryNames.filter(isDateName);
  const dateFields = bodyFields.filter(isDateName);
  const hasBody = method !== 'GET' && method !== 'DELETE';
  const base = { admin: true, query: '', body: hasBody ? '{}' : '', contentType: 'application/json' };
  for (const ids of idTuples(paramCount)) {
    const values = [...ids, ''];
    for (const name of dateQueries)
      for (const date of EXTREME_DATES) cases.push({ ...base, values, query: `${name}=${enc(date)}` });
    for (const date of dateFields.length ? EXTREME_DATES : []) {
      const fields = bodyFields.map((f) => [f, dateFields.includes(f) ? date : 'Fuzz']);
      cases.push({ ...base, values, body: JSON.stringify(Object.fromEntries(fields)) });
    }
    if (method === 'PUT' || method === 'PATCH') cases.push({ ...base, values });
  }
  return cases.map((c) => [c]);
}

const toOpenApi = (url: string) => url.replace(/:(\w+)/g, '{$1}');
let ipSeq = 0;
const nextIp = () => {
  ipSeq++;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

// the app is built while the file is collected: one test per route it registers
const web = tinyWebDist();
// every outside service points at a closed local port: nothing leaves the machine
const t: TestContext = await createTestApp(
  {
    ALIEXPRESS_APP_KEY: 'key',
    ALIEXPRESS_APP_SECRET: 'secret',
    ALIEXPRESS_CALLBACK_URL: 'http://localhost:3000/api/aliexpress/oauth/callback',
    ALIEXPRESS_API_BASE: 'http://127.0.0.1:9',
    PAYPAL_API_BASE: 'http://127.0.0.1:9',
    USPS_API_BASE: 'http://127.0.0.1:9',
    TRACKING_API_BASE: 'http://127.0.0.1:9',
    RECAPTCHA_API_BASE: 'http://127.0.0.1:9',
  },
  { ...NO_WORKER, webDist: web.dir },
);
const routes = routesOf(t.app);

describe('fuzzing every route: never a 5xx, never internals, every 4xx a JSON message', () => {
  beforeAll(async () => {
    spec = t.app.swagger() as unknown as typeof spec;
    const admin = await createAccount(t, { isAdmin: true });
    adminHeaders = admin.headers;
    const buyer = await createAccount(t);
    const category = await createCategory(t.database.db);
    const product = await createProduct(t.database.db, { countInStock: 1_000, categoryId: category.id });
    const order = await placeOrder(t.app, buyer, orderBody([{ product: product.id, qty: 1 }]));
    const orderId = order.json()._id as string;
    // paid and shipped, so its tracking number's routes reach the database too
    await t.app.inject({ method: 'PUT', url: `/api/orders/${orderId}/pay`, headers: buyer.headers, payload: {} });
    const shipped = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderId}/ship`,
      headers: adminHeaders,
      payload: { trackingNumbers: [{ number: '1Z999AA10123456784' }] },
    });
    const trackingNumberId = (shipped.json() as { trackingNumbers: { _id: string }[] }).trackingNumbers[0]!._id;
    const victim = await createUser(t.database.db);
    validIds = [
      product.id,
      product.slug,
      category.id,
      orderId,
      trackingNumberId,
      victim.id,
      buyer.user.id,
      victim.username,
    ];
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  it('finds the routes to fuzz', () => {
    expect(routes.length).toBeGreaterThan(60);
  });

  for (const route of routes) {
    it(route, async () => {
      const [method, pattern] = route.split(' ') as [string, string];
      const op = spec.paths?.[toOpenApi(pattern)]?.[method.toLowerCase()];
      const queryNames = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const bodyFields = Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
      const params = pattern.match(/:\w+|\*/g) ?? [];
      const update = method === 'PUT' || method === 'PATCH';
      const input = fc.record({
        admin: fc.boolean(),
        values: fc.tuple(...params.map(() => pathParam()), fc.constant('')),
        query: queryFor(queryNames),
        body: bodyFor(bodyFields.length ? bodyFields : ['name'], update),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          'application/json',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
        ),
      });
      const examples = fixedCases(method, params.length, queryNames, bodyFields);
      const result = await fc.check(
        fc.asyncProperty(input, async ({ admin, values, query, body, contentType }) => {
          let i = 0;
          const path = pattern.replace(/:\w+|\*/g, () => values[i++] as string);
          const url = query ? `${path}?${query}` : path;
          const hasBody = method !== 'GET' && method !== 'DELETE' ? true : method === 'DELETE' && body.length < 500;
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            remoteAddress: nextIp(),
            headers: {
              ...(admin ? adminHeaders : {}),
              ...(hasBody ? { 'content-type': contentType } : {}),
            },
            ...(hasBody ? { payload: body } : {}),
          });
          const what = `${method} ${url.slice(0, 200)} ${hasBody ? body.slice(0, 100) : ''} as ${admin ? 'admin' : 'anonymous'} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          if (res.statusCode >= 500) throw new Error(`5xx: ${what}`);
          if (res.statusCode >= 400) {
            const leak = leaks(res.body, t.config.dataDir);
            if (leak) throw new Error(`${leak} in: ${what}`);
            // a page of the web app (/product/…) answers its own 404 page to browsers and crawlers
            const page = !pattern.startsWith('/api') && String(res.headers['content-type']).startsWith('text/html');
            if (page) return;
            if (!String(res.headers['content-type']).startsWith('application/json'))
              throw new Error(`4xx not JSON: ${what}`);
            const answer = res.json() as { message?: unknown; code?: unknown };
            if (typeof answer.message !== 'string') throw new Error(`4xx without a message: ${what}`);
            if (!ERROR_CODE_NAMES.has(answer.code)) throw new Error(`4xx without a known code: ${what}`);
            if (Object.keys(answer).length !== 2) throw new Error(`4xx with more than { message, code }: ${what}`);
          } else if (String(res.headers['content-type']).startsWith('application/json')) {
            const leak = leaks(res.body, t.config.dataDir);
            if (leak && !pattern.startsWith('/api/docs')) throw new Error(`${leak} in: ${what}`);
          }
        }),
        // the fixed cases come first and count as runs: RUNS generated ones follow them
        { numRuns: RUNS + examples.length, seed: SEED, endOnFailure: true, examples },
      );
      if (result.failed)
        throw new Error(`seed ${result.seed}, path ${result.counterexamplePath}: ${String(result.errorInstance)}`);
    });
  }
});
