import { defineConfig } from 'vitest/config';

// Two projects: pure rules (fast, no database) and API integration tests through app.inject
// against a real database (PGlite per test file, or PostgreSQL when STORE_TEST_DB=postgres).
// A server test that needs no database, app or global setup is named *.unit.test.ts and runs in the
// unit project (once; the api project runs twice, on PGlite and on PostgreSQL).
// Tests that time the store against a promise of the product (a 10,000-row import in under 10 s) run in
// a group of their own after the API suite, one file at a time: beside the other worker's tests their
// time said more about those tests than about the code.
const TIMED = ['apps/server/src/modules/products-admin/products-csv.test.ts'];
const api = {
  environment: 'node',
  globalSetup: ['apps/server/test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/server/src/**/*.unit.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          ...api,
          name: 'api',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'apps/server/**/*.unit.test.ts', ...TIMED],
          // PGlite is single-threaded WebAssembly: two forks use both cores
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: { ...api, name: 'api-timed', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
