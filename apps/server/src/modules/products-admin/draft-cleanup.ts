import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { createSweeper } from '#server/lib/sweeper.ts';
import { removeUnusedImages } from '../uploads/uploads.service.ts';
import { productsAdminRepository as repo } from './products-admin.repository.ts';

const BATCH = 200;
/** A draft never published and untouched this long is an abandoned "Create Product": it goes. */
export const DRAFT_TTL_MS = 24 * 60 * 60_000;

/**
 * Removes the drafts nobody published or touched since `now - ttlMs`, batch by batch, each batch in one
 * transaction that skips rows another process holds (several servers can sweep at once). Once a batch
 * has committed, the image files of its drafts that nothing else references go from the uploads
 * directory; a file that cannot be removed is logged and does not stop the sweep. Answers how many
 * drafts were removed.
 */
export async function removeStaleDrafts(
  db: Db,
  files: { uploadsDir: string; log: Pick<FastifyBaseLogger, 'warn'> },
  ttlMs = DRAFT_TTL_MS,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - ttlMs);
  let removed = 0;
  for (;;) {
    const { ids, unusedImages } = await db.transaction((tx) => repo.removeStaleDrafts(tx, cutoff, BATCH));
    removed += ids.length;
    if (unusedImages.length > 0) await removeUnusedImages(files.uploadsDir, unusedImages, files.log);
    if (ids.length < BATCH) return removed;
  }
}

/** Runs the draft cleanup every `everyMs` in the background; stop() waits for a sweep in progress. */
export function createDraftSweeper(
  db: Db,
  opts: { everyMs: number; uploadsDir: string; onRemoved: () => Promise<unknown> | void },
  log: FastifyBaseLogger,
) {
  return createSweeper(
    'draft cleanup sweep',
    opts.everyMs,
    async () => {
      const removed = await removeStaleDrafts(db, { uploadsDir: opts.uploadsDir, log });
      if (removed > 0) {
        log.info({ removed }, 'abandoned draft products removed');
        await opts.onRemoved();
      }
    },
    log,
  );
}
