#!/usr/bin/env node
// npm run bench [-- --duration 10 --connections 50 --db pglite|postgres --products N]
// Starts a bare Fastify route (the ceiling) and the real store in production mode, one after another
// measures each target with autocannon on this machine, and prints req/s as a share of the ceiling
// measured in the same run. Writes the table to docs/performance.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    db: { type: 'string', default: 'pglite' },
    products: { type: 'string', default: '0' },
    'no-build': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const children = [];
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

function start(cmd, argv, env, port) {
  const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  child.stdout.on('data', () => {});
  return waitFor(`http://127.0.0.1:${port}/api/health`).then(() => child);
}

async function waitFor(url, ms = 180_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${url}`);
}

function measure(title, url, opts = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ title, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx });
    });
  });
}

if (!args['no-build']) spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-bench-'));
let databaseUrl;
if (args.db === 'postgres') {
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const name = `store_bench_${Date.now()}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
}
const storeEnv = {
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  PORT: '3300',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'true',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
if (Number(args.products) > 0) {
  spawnSync('npm', ['run', 'seed', '--', '--products', args.products], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...storeEnv },
  });
}

// The ceiling: a bare Fastify route answering a fixed body the size of a real page of 24 products.
const store = await start('node', ['--import', 'tsx', 'apps/server/src/main.ts'], storeEnv, 3300);
const page = await (await fetch('http://127.0.0.1:3300/api/products')).text();
const first = JSON.parse(page).products[0];
store.kill('SIGTERM');
await new Promise((r) => store.on('exit', r));

const bareSrc = `import Fastify from 'fastify'; const body = process.env.BODY; const app = Fastify();
app.get('/api/health', async () => ({ ok: true }));
app.get('/bare', (req, reply) => { reply.type('application/json').send(body); });
await app.listen({ port: 3301, host: '127.0.0.1' });`;
const bareFile = path.join(root, 'apps/server', '.bench-bare.mjs');
writeFileSync(bareFile, bareSrc);
const bare = await start('node', [bareFile], { BODY: page }, 3301);
const results = [await measure('bare Fastify, fixed 24-product body (ceiling)', 'http://127.0.0.1:3301/bare')];
bare.kill('SIGKILL');
rmSync(bareFile);

await start('node', ['--import', 'tsx', 'apps/server/src/main.ts'], storeEnv, 3300);
const base = 'http://127.0.0.1:3300';
results.push(await measure('GET /api/products (page 1)', `${base}/api/products`));
results.push(await measure('GET /api/products?pageNumber=3', `${base}/api/products?pageNumber=3`));
results.push(await measure(`GET /api/products/slug/{slug}`, `${base}/api/products/slug/${first.slug}`));
results.push(await measure('GET /api/products?keyword=wireless', `${base}/api/products?keyword=wireless`));
results.push(await measure('GET /product/{slug} (served HTML)', `${base}/product/${first.slug}`));

const ceiling = results[0].rps;
const rows = results.map(
  (r) =>
    `| ${r.title} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${((r.rps / ceiling) * 100).toFixed(1)}% |`,
);
const table = [`| target | req/s | p50 ms | p99 ms | errors | of ceiling |`, `|---|---|---|---|---|---|`, ...rows].join(
  '\n',
);
const header = `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; database ${args.db}${Number(args.products) ? ` with ${args.products} extra products` : ' with the demo catalogue'}; ${connections} connections, ${duration} s each, with \`npm run bench -- --db ${args.db}${Number(args.products) ? ` --products ${args.products}` : ''}\`.`;
console.log(`\n${header}\n\n${table}\n`);
if (!args['no-write']) {
  writeFileSync(
    path.join(root, 'docs', 'performance.md'),
    `# Performance\n\nEvery figure is a ratio against a bare Fastify route measured in the same run on the same machine; absolute numbers vary between machines and runs.\n\n${header}\n\n${table}\n`,
  );
}
rmSync(dataDir, { recursive: true, force: true });
children.forEach((c) => c.kill('SIGTERM'));
if (databaseUrl) {
  await new Promise((r) => setTimeout(r, 1000));
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test' });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
  await c.end();
}
process.exit(0);
