/**
 * Where the catalogue's in-process indexes are built. A large shop on PostgreSQL reads them in a worker
 * thread (catalog-build.worker.ts), which hands the finished arrays back without copying them: at
 * 1,000,000 products the keyword index took about a minute and the facet table about 7 s of the event
 * loop's time after every start and every catalogue write, and each request waited behind their chunks.
 * A small shop (fewer than `workerMinProducts` active products) and the embedded database build on this
 * thread, in chunks: a worker would cost more to start than the build takes, and the embedded database
 * lives in this thread. Whichever thread built it, the index is the same (catalog-builds.ts).
 */
import { Worker } from 'node:worker_threads';
import type { Database } from '#server/db/client.ts';
import { catalogRepository as repo } from './catalog.repository.ts';
import { loadFacetTable, loadKeywordIndex } from './catalog.service.ts';
import { FacetTable, FEW_MATCHES, type Columns } from './facet-index.ts';
import { KeywordIndex, type KeywordParts } from './search-index.ts';

export type BuildJob =
  | { kind: 'keyword'; url: string; minProducts: number; chunk: number }
  | { kind: 'facets'; url: string; chunk: number; fewMatches: number };

export type BuildMessage =
  | { kind: 'keyword'; parts: KeywordParts | null }
  | { kind: 'facets'; columns: Columns }
  | { kind: 'failed'; message: string };

/**
 * Products a worker reads per query. On this thread the chunks are smaller (catalog.service.ts), so that
 * requests wait little behind each one.
 */
const CHUNK = { keyword: 2000, facets: 5000 };

/** The worker's module: the TypeScript source under tsx (development, tests), the bundle's file in production. */
const WORKER = import.meta.url.endsWith('.ts') ? './catalog-build.worker.ts' : './catalog-build.worker.js';

/** The worker could not run at all (not a failed read): the build is done on this thread instead. */
class WorkerFailure extends Error {}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

function runWorker(url: URL, job: BuildJob, live: Set<Worker>): Promise<BuildMessage> {
  // TypeScript sources are loaded through tsx (the worker does not inherit the test runner's loader)
  const worker = url.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}))`,
        { eval: true, workerData: job },
      )
    : new Worker(url, { workerData: job });
  // a build under way never keeps the process from exiting
  worker.unref();
  live.add(worker);
  return new Promise<BuildMessage>((resolve, reject) => {
    worker.once('message', (m: BuildMessage) => resolve(m));
    worker.once('error', (err) => reject(new WorkerFailure(err.message)));
    worker.once('exit', (code) => reject(new WorkerFailure(`the build's worker thread ended with code ${code}`)));
  }).finally(() => {
    live.delete(worker);
    void worker.terminate();
  });
}

/** The builds of a process's keyword index and facet table; `close` stops the workers under way. */
export interface CatalogBuilds {
  keyword(minProducts: number): Promise<KeywordIndex | null>;
  facets(): Promise<FacetTable>;
  close(): Promise<void>;
}

/** `workerFile`: the worker's module (tests name one that cannot run, to see the fallback). */
export function catalogBuilds(
  database: Database,
  workerMinProducts: number,
  log: Log,
  workerFile = new URL(WORKER, import.meta.url),
): CatalogBuilds {
  const { db, url } = database;
  const live = new Set<Worker>();
  let warned = false;
  let closed = false;
  /** Builds in a worker when the shop is large and on PostgreSQL; else, or when the worker fails, here. */
  async function build<T>(
    name: 'keyword' | 'facets',
    inWorker: (url: string) => Promise<T>,
    here: () => Promise<T>,
  ): Promise<T> {
    if (!url || (await repo.productCount(db)) < workerMinProducts) return here();
    const started = Date.now();
    try {
      const built = await inWorker(url);
      log.info({ index: name, ms: Date.now() - started }, 'catalogue index read in a worker thread');
      return built;
    } catch (err) {
      // a worker stopped by close, or a failed read: the build fails (the SQL path answers meanwhile)
      if (!(err instanceof WorkerFailure) || closed) throw err;
      if (!warned)
        log.warn({ err: err.message }, 'the catalogue index worker thread failed: building on the main thread');
      warned = true;
      return here();
    }
  }
  const answer = async (job: BuildJob) => {
    const m = await runWorker(workerFile, job, live);
    if (m.kind === 'failed') throw new Error(m.message);
    return m;
  };
  return {
    keyword: (minProducts) =>
      build(
        'keyword',
        async (url) => {
          const m = await answer({ kind: 'keyword', url, minProducts, chunk: CHUNK.keyword });
          if (m.kind !== 'keyword') throw new Error('the worker thread answered another build');
          return m.parts && KeywordIndex.of(m.parts);
        },
        () => loadKeywordIndex(db, minProducts),
      ),
    facets: () =>
      build(
        'facets',
        async (url) => {
          const m = await answer({ kind: 'facets', url, chunk: CHUNK.facets, fewMatches: FEW_MATCHES });
          if (m.kind !== 'facets') throw new Error('the worker thread answered another build');
          return FacetTable.of(m.columns);
        },
        () => loadFacetTable(db),
      ),
    close: async () => {
      closed = true;
      await Promise.all([...live].map((w) => w.terminate()));
    },
  };
}
