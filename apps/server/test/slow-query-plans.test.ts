import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { testDbKind } from '#test/test-db.ts';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}
const WARN = 40;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** An app logging at warn into `lines`, and its database sleeping 50 ms in one statement. */
async function appSleeping(env: Record<string, string>) {
  const lines: LogLine[] = [];
  t = await createTestApp({ MAIL_WORKER: 'false', LOG_LEVEL: 'warn', ...env }, {}, undefined, {
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
  await t.database.db.execute(sql`SELECT pg_sleep(0.05)`);
  await t.database.db.execute(sql`SELECT 1`);
  return {
    plans: () => lines.filter((l) => l.msg === 'slow query plan'),
    // a warning that auto_explain could not be switched on
    refusals: () => lines.filter((l) => l.msg.startsWith('SLOW_QUERY_PLAN_MS')),
  };
}

if (testDbKind() === 'postgres')
  describe('SLOW_QUERY_PLAN_MS on PostgreSQL', () => {
    it("logs the plan of a statement at least that slow, at warn, as auto_explain's EXPLAIN ANALYZE", async () => {
      const { plans, refusals } = await appSleeping({ SLOW_QUERY_PLAN_MS: '20' });
      expect(plans()).toEqual([
        expect.objectContaining({ level: WARN, ms: expect.any(Number), plan: expect.any(String) }),
      ]);
      const [logged] = plans();
      expect(logged!.ms).toBeGreaterThanOrEqual(50);
      expect(logged!.plan).toMatch(/^Query Text: SELECT pg_sleep\(0\.05\)\n/);
      // ANALYZE: actual row counts, without per-node timing
      expect(logged!.plan).toMatch(/\(actual rows=1 loops=1\)/);
      expect(refusals()).toEqual([]);
    });

    it('logs no plan when unset', async () => {
      const { plans } = await appSleeping({});
      expect(plans()).toEqual([]);
    });

    it('turns JIT compilation off in every pooled connection, with or without plans', async () => {
      for (const env of [{}, { SLOW_QUERY_PLAN_MS: '20' }] as Record<string, string>[]) {
        await appSleeping(env);
        // several connections at once: each is set up on connecting
        const shown = await Promise.all(
          Array.from({ length: 4 }, () => t!.database.db.execute<{ jit: string }>(sql`SHOW jit`)),
        );
        expect(shown.map((r) => r.rows[0]?.jit)).toEqual(['off', 'off', 'off', 'off']);
        await t!.close();
        t = undefined;
      }
    });
  });

if (testDbKind() === 'pglite')
  describe('SLOW_QUERY_PLAN_MS on the embedded database', () => {
    it('logs no plan, and start-up says the setting needs PostgreSQL', async () => {
      const { plans } = await appSleeping({ SLOW_QUERY_PLAN_MS: '0' });
      expect(plans()).toEqual([]);
      expect(t!.config.warnings).toEqual([expect.stringMatching(/^SLOW_QUERY_PLAN_MS needs DATABASE_URL/)]);
    });
  });
