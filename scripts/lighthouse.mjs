#!/usr/bin/env node
// npm run lighthouse [-- --no-build --runs N]
// Builds the web app (into apps/web/dist-lighthouse, so a parallel e2e build is never overwritten),
// starts the store in production mode on a free port with a fresh data dir and the demo catalogue,
// and runs Lighthouse (mobile preset, the default) with Debian's Chromium (CHROME_PATH, else
// /usr/bin/chromium) on the home page, a search page and a product page. Prints one table of the
// performance, accessibility, best-practices and SEO scores, and every audit that cost a point
// (the median run's, with --runs N). Exits 1 when a score is below its target: performance 95 on a
// mobile device, accessibility, best practices and SEO 100.
import { buildServer } from './build-server.mjs';
import { MALLOC_ENV } from './server-env.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { waitFor } from './wait-for.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
  },
});
const runs = Math.max(1, Number(args.runs));
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const targets = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };
const webDist = path.join(root, 'apps/web/dist-lighthouse');

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

if (!args['no-build']) {
  const built = spawnSync('npx', ['vite', 'build', '--outDir', webDist, '--emptyOutDir'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building the web app failed');
}
// the server as `npm start` runs it: the bundle
const serverMain = await buildServer();

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-lighthouse-'));
// the embedded database, whatever the shell has configured
const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
const server = spawn(process.execPath, [serverMain], {
  cwd: root,
  env: {
    ...inherited,
    ...MALLOC_ENV,
    NODE_ENV: 'production',
    JWT_SECRET: 'lighthouse-secret-lighthouse-secret-0123456',
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const cleanup = () => {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', cleanup);

let failed = false;
try {
  await waitFor(`${base}/readyz`);
  const { products } = await (await fetch(`${base}/api/products`)).json();
  const product = products[0];
  const word = product.name.toLowerCase().match(/[a-z]{4,}/)?.[0] ?? 'shirt';
  const pages = [
    ['home', `${base}/`],
    [`search (${word})`, `${base}/search/${encodeURIComponent(word)}`],
    ['product', `${base}/product/${product.slug}`],
  ];

  const cli = path.join(root, 'node_modules/lighthouse/cli/index.js');
  const rows = [];
  const findings = [];
  for (const [name, url] of pages) {
    const reports = [];
    for (let i = 0; i < runs; i++) {
      process.stdout.write(`lighthouse ${name}${runs > 1 ? ` (run ${i + 1}/${runs})` : ''} … `);
      const r = spawnSync(
        process.execPath,
        [
          cli,
          url,
          '--output=json',
          '--output-path=stdout',
          '--quiet',
          `--only-categories=${categories.join(',')}`,
          '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
        ],
        { cwd: root, env: { ...process.env, CHROME_PATH: chrome }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      );
      if (r.status !== 0) throw new Error(`lighthouse failed on ${url}: ${r.stderr}`);
      const report = JSON.parse(r.stdout);
      reports.push(report);
      console.log(`performance ${Math.round(report.categories.performance.score * 100)}`);
    }
    // the run with the median performance score stands for the page
    reports.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
    const report = reports[Math.floor(reports.length / 2)];
    const scores = Object.fromEntries(categories.map((c) => [c, Math.round(report.categories[c].score * 100)]));
    rows.push({ name, url: new URL(url).pathname, scores });
    for (const c of categories) {
      if (scores[c] < targets[c]) failed = true;
      for (const ref of report.categories[c].auditRefs) {
        const audit = report.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1)
          findings.push(
            `${name} · ${c} · ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`,
          );
      }
    }
  }

  const table = [
    `| page | path | ${categories.join(' | ')} |`,
    `|---|---|${categories.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.name} | ${r.url} | ${categories.map((c) => r.scores[c]).join(' | ')} |`),
  ].join('\n');
  console.log(
    `\nLighthouse ${lighthouseVersion()} (mobile preset), ${chromeVersion()}, ${new Date().toISOString().slice(0, 10)}${runs > 1 ? `, median of ${runs} runs` : ''}:\n\n${table}\n`,
  );
  console.log(
    findings.length
      ? `Audits that cost points:\n${findings.map((f) => `- ${f}`).join('\n')}`
      : 'No audit cost a point.',
  );
} finally {
  cleanup();
}
process.exit(failed ? 1 : 0);

function lighthouseVersion() {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/lighthouse/cli/index.js'), '--version'], {
    encoding: 'utf8',
  });
  return r.stdout.trim();
}
function chromeVersion() {
  return spawnSync(chrome, ['--version'], { encoding: 'utf8' }).stdout.trim();
}
