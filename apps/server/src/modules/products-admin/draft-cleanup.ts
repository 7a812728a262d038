import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { createSweeper } from '#server/lib/sweeper.ts';
import { productsAdminRepository as repo } from './products-admin.repository.ts';

const BATCH = 200;
/** A draft never published and untouched this long is an abandoned "Create Product": it goes. */
export const DRAFT_TTL_MS = 24 * 60 * 60_000;

/**
 * Removes the drafts nobody published or touched since `now - ttlMs`, batch by batch, each batch in one
 * transaction that skips rows another process holds (several servers can sweep at once). Answers how
 * many were removed.
 */
export async function removeStaleDrafts(db: Db, ttlMs = DRAFT_TTL_MS, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ttlMs);
  let removed = 0;
  for (;;) {
    const ids = await db.transaction((tx) => repo.removeStaleDrafts(tx, cutoff, BATCH));
    removed += ids.length;
    if (ids.length < BATCH) return removed;
  }
}

/** Runs the draft cleanup every `everyMs` in the background; stop() waits for a sweep in progress. */
export function createDraftSweeper(
  db: Db,
  opts: { everyMs: number; onRemoved: () => Promise<unknown> | void },
  log: FastifyBaseLogger,
) {
  return createSweeper(
    'draft cleanup sweep',
    opts.everyMs,
    async () => {
      const removed = await removeStaleDrafts(db);
      if (removed > 0) {
        log.info({ removed }, 'abandoned draft products removed');
        await opts.onRemoved();
      }
    },
    log,
  );
}
