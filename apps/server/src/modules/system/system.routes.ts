import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, apiErrorSchema } from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MIGRATIONS_DIR } from '#server/db/client.ts';
import { systemRepository as repo } from './system.repository.ts';

/** The newest migration this build ships (drizzle records each applied one with its `when` as created_at). */
function latestMigration(): { tag: string; when: number } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.reduce((a, b) => (b.when > a.when ? b : a));
}

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const latest = latestMigration();
  const noStore = { 'cache-control': 'no-store' };
  const notMigrated = `Database migrations not applied (expected ${latest.tag})`;
  const notReady = (message: string) => ({ message, code: ERROR_CODES.SERVICE_UNAVAILABLE });

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }) },
      },
    },
    async () => {
      await repo.ping(app.db);
      return { status: 'ok' as const, database: app.database.kind };
    },
  );

  // For load balancers and orchestrators: /healthz says the process answers (restart it if not),
  // /readyz says it can serve (send it traffic only then).
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_req, reply) => reply.headers(noStore).send({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary:
          'Readiness: the database answers and every migration of this build is applied (Redis is reported, not required)',
        response: {
          200: z.object({
            status: z.literal('ready'),
            migration: z.string(),
            redis: z.enum(['up', 'down', 'off']),
          }),
          503: apiErrorSchema,
        },
      },
    },
    async (_req, reply) => {
      reply.headers(noStore);
      let applied: number | null;
      try {
        applied = await repo.lastMigrationAt(app.db);
      } catch (err) {
        app.log.warn({ err }, 'readiness check: database unreachable');
        return reply.code(503).send(notReady('Database unreachable'));
      }
      if (applied === null || applied < latest.when) return reply.code(503).send(notReady(notMigrated));
      // a store without Redis still serves (limits per process, catalogue answers expire): ready, and says so
      return reply.send({ status: 'ready' as const, migration: latest.tag, redis: app.redisHealth.state() });
    },
  );
};
