#!/usr/bin/env node
// Runs every suite (unit; API on PGlite and on PostgreSQL; browser journeys in Chromium) and prints one
// closing line: "N passed, N failed, N skipped".
// A suite that cannot run (no PostgreSQL, no Chromium) is reported loudly and counted as skipped;
// with CI=true a skipped suite fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.test-data', 'reports');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const ci = process.env.CI === 'true' || process.env.CI === '1';
const only = process.argv.slice(2); // e.g. `npm test -- unit api`
const want = (name) => only.length === 0 || only.includes(name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const suites = [];

function run(cmd, args, env = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

function vitestSuite(name, project, env = {}) {
  const file = path.join(out, `${name}.json`);
  console.log(`\n━━ ${name} ━━`);
  const code = run(
    'npx',
    ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    env,
  );
  if (!existsSync(file)) return record(name, { passed: 0, failed: 1, skipped: 0 }, `exited ${code} without a report`);
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const failedFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
  record(name, {
    passed: r.numPassedTests,
    failed: r.numFailedTests + failedFiles + (code !== 0 && r.numFailedTests === 0 && failedFiles === 0 ? 1 : 0),
    skipped: r.numPendingTests + r.numTodoTests,
  });
}

function record(name, counts, note = '') {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  suites.push({ name, ...counts, note });
}

function skipSuite(name, why) {
  console.log(`\n!!!!!!!! SUITE SKIPPED: ${name}: ${why} !!!!!!!!\n`);
  suites.push({ name, passed: 0, failed: ci ? 1 : 0, skipped: 1, note: `SKIPPED: ${why}` });
  totals.skipped += 1;
  if (ci) totals.failed += 1;
}

async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

if (want('unit')) vitestSuite('unit', 'unit');
// 'api*': the API suite, then its timed tests alone (vitest.config.ts)
if (want('api')) vitestSuite('api (PGlite)', 'api*', { STORE_TEST_DB: 'pglite' });
if (want('api-postgres') || want('api')) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) skipSuite('api (PostgreSQL)', 'TEST_DATABASE_URL is not set');
  else if (!(await postgresReachable(url))) skipSuite('api (PostgreSQL)', `cannot connect to ${url}`);
  else vitestSuite('api (PostgreSQL)', 'api*', { STORE_TEST_DB: 'postgres' });
}
if (want('e2e')) {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chrome))
    skipSuite('e2e (Chromium)', `no Chromium at ${chrome} (apt-get install -y chromium, or set CHROME_PATH)`);
  else {
    console.log('\n━━ e2e (Chromium) ━━');
    const file = path.join(out, 'e2e.json');
    const code = run('npx', ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      CHROME_PATH: chrome,
    });
    if (!existsSync(file))
      record('e2e (Chromium)', { passed: 0, failed: 1, skipped: 0 }, `exited ${code} without a report`);
    else {
      const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
      record('e2e (Chromium)', {
        passed: (s.expected ?? 0) + (s.flaky ?? 0),
        failed: (s.unexpected ?? 0) + (code !== 0 && !s.unexpected ? 1 : 0),
        skipped: s.skipped ?? 0,
      });
    }
  }
}

console.log('\n━━ summary ━━');
for (const s of suites)
  console.log(`  ${s.name.padEnd(20)} ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped ${s.note}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
