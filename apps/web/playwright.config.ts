import { defineConfig, devices } from '@playwright/test';
import { ADMIN, E2E_PORT, MAIL_PORT } from './e2e/env.ts';

// E2E_PORT lets two local runs go side by side (each with its own server, data and mail sink)
const PORT = E2E_PORT;
const DATA_DIR = PORT === 3100 ? '../../.test-data/e2e' : `../../.test-data/e2e-${PORT}`;
// a second run builds the app into its own folder so that two builds never overwrite each other
const BUILD = PORT === 3100 ? 'npm run build' : `npx vite build --outDir dist-${PORT} --emptyOutDir`;
// the server runs as `npm start` runs it, bundled (and a second run's bundle in a folder of its own)
const SERVER_DIST = PORT === 3100 ? '../server/dist' : `../server/dist-${PORT}`;
const WEB_ENV = PORT === 3100 ? '' : `WEB_DIST=dist-${PORT}`;
// the admin the server ensures on start and the SMTP sink of e2e/global-setup.ts (see e2e/accounts.ts)
const ADMIN_ENV = `ADMIN_EMAIL=${ADMIN.email} ADMIN_PASSWORD='${ADMIN.password}'`;
const MAIL_ENV = `SMTP_URL=smtp://127.0.0.1:${MAIL_PORT} PUBLIC_URL=http://127.0.0.1:${PORT}`;
const ci = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Browser tests against the real store: the built web app served by the API server on a fresh
 * embedded database with the demo catalogue (DATA_DIR is wiped first). Chromium is Debian's.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: ci ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  forbidOnly: ci,
  reporter: ci ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // recording a trace costs every test about a fifth of its time on two cores, so only a retry of a
    // failed test records one (CI retries once); locally, a failure is rerun with `--trace on`
    trace: ci ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // cwd is this folder; the server serves ../web/dist, so the app (and the server's bundle) is built first
    command: `${BUILD} && node ../../scripts/build-server.mjs ${SERVER_DIST} && rm -rf ${DATA_DIR} && ${WEB_ENV} DATA_DIR=${DATA_DIR} PORT=${PORT} CAPTCHA_DIFFICULTY=low NODE_ENV=test LOG_LEVEL=warn ${ADMIN_ENV} ${MAIL_ENV} node ${SERVER_DIST}/main.js`,
    url: `http://127.0.0.1:${PORT}/api/products/top`,
    timeout: 240_000,
    reuseExistingServer: !ci,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
