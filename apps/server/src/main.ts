import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { banner } from './banner.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError, openDatabase } from './db/client.ts';
import { ensureAdmin, isBrandNew, type AdminSignIn } from './db/seed/admin.ts';
import type { Db } from './db/client.ts';
import { seedDemoIfEmpty } from './db/seed/demo.ts';
import { catalogBuilds } from './modules/catalog/background-builds.ts';
import { serveSearchIndex } from './modules/catalog/cluster-search-index.ts';
import { SearchIndex } from './modules/catalog/search-index.ts';
import { trimAfterFullCollections } from './lib/malloc-trim.ts';
import { collectWhenQuiet } from './lib/quiet-collect.ts';
import { answerBackupRequests } from './ops/backup.ts';

const started = Date.now();
const secondsSinceStart = () => (Date.now() - started) / 1000;
/** The primary has no app (and so no pino logger) of its own: its few lines go to the console. */
const consoleLog = {
  info: (msg: unknown) => console.log(typeof msg === 'string' ? msg : JSON.stringify(msg)),
  warn: (msg: unknown) => console.warn(typeof msg === 'string' ? msg : JSON.stringify(msg)),
  error: (msg: unknown) => console.error(typeof msg === 'string' ? msg : JSON.stringify(msg)),
  debug: () => {},
} as unknown as FastifyBaseLogger;
/** A worker that does not stop within this long after SIGTERM is killed. */
const SHUTDOWN_MS = 15_000;
/** Connections the kernel queues for the process to accept (Node's default is 511). */
const LISTEN_BACKLOG = 4096;

function readConfig(): Config {
  return loadConfig(process.env, { webDist: path.resolve(import.meta.dirname, '../../web/dist') });
}

/**
 * Seeds an empty database (SEED_DEMO) and ensures the admin; asks whether the database is brand-new
 * first, since the demo catalogue brings accounts of its own. Says loudly when ADMIN_EMAIL was skipped.
 */
async function prepare(db: Db, config: Config, log: FastifyBaseLogger): Promise<AdminSignIn | undefined> {
  const brandNew = await isBrandNew(db);
  if (config.seedDemo) await seedDemoIfEmpty(db, path.join(config.dataDir, 'uploads'), log);
  const admin = await ensureAdmin(db, config, { brandNew });
  if (admin && 'skipped' in admin) {
    log.error(admin.skipped);
    return undefined;
  }
  return admin;
}

/** One server process: the whole app on one port (alone, or as one worker of a cluster). */
async function serve(config: Config) {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    preparedStatements: config.preparedStatements,
  });
  // imported here, not at the top: a cluster's primary never builds the app, so it never loads its code
  const { buildApp } = await import('./app.ts');
  const app = await buildApp({ config, database });

  // in a cluster the primary seeded and ensured the admin before forking
  const admin = cluster.isPrimary ? await prepare(database.db, config, app.log) : undefined;

  // what a busy spell left is collected as soon as the process goes quiet (lib/quiet-collect.ts)
  const quiet = collectWhenQuiet();
  app.server.on('request', (_req, res) => {
    quiet.begin();
    res.once('close', quiet.end);
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    quiet.stop();
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_MS);
    timer.unref();
    try {
      // stops accepting, finishes the requests in flight, stops the mail worker, closes Redis
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // `npm run backup` asks the process that owns the embedded database to write a snapshot (SIGUSR2)
  answerBackupRequests(database, config.dataDir, app.log);

  // a burst of new connections waits in the kernel's queue instead of being dropped: past the queue's
  // length (Node's default, 511) a connection's SYN is dropped and retried 1 s later, and again 3 s
  // later, while the process is busy (the kernel caps it at net.core.somaxconn)
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  // a large catalogue's keyword index is built now, in the background, not on the first search (in a
  // cluster the primary builds it)
  app.searchIndex.mayAnswer();
  if (cluster.isPrimary) console.log(banner(config, database.kind, admin, secondsSinceStart()));
}

/**
 * WORKERS=N (N > 1, PostgreSQL only): this process migrates, seeds and ensures the admin once, then
 * forks N workers sharing the port (node:cluster). A worker that dies is replaced; SIGTERM or SIGINT
 * stops every worker gracefully (each finishes its requests in flight) and then this process.
 */
async function primary(config: Config) {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  let admin: AdminSignIn | undefined;
  try {
    admin = await prepare(database.db, config, consoleLog);
  } catch (err) {
    await database.close();
    throw err;
  }
  // the cluster's one keyword index: the workers ask it (cluster-search-index.ts); built now, in the background
  const builds = catalogBuilds(database, config.indexWorkerMinProducts, {
    info: (obj, msg) => consoleLog.info({ level: 30, msg, ...obj }),
    warn: (obj, msg) => consoleLog.warn({ level: 40, msg, ...obj }),
  });
  const searchIndex = new SearchIndex(
    (min) => builds.keyword(min),
    config.searchIndexMinProducts,
    (index, ms) =>
      consoleLog.info({ level: 30, msg: 'keyword index built', products: index.size, bytes: index.bytesHeld, ms }),
  );
  serveSearchIndex(searchIndex);
  searchIndex.mayAnswer();
  if (!config.redisUrl)
    console.warn(
      `WORKERS=${config.workers} without REDIS_URL: rate limits are counted per process and catalogue answers may be up to 5 s stale in the others; set REDIS_URL to share them.`,
    );

  let closing = false;
  const crashes: number[] = [];
  const fork = () => cluster.fork();
  let listening = 0;
  cluster.on('listening', () => {
    listening++;
    if (listening === config.workers)
      console.log(banner(config, 'postgres', admin, secondsSinceStart(), `, ${config.workers} worker processes`));
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (closing) return;
    const now = Date.now();
    crashes.push(now);
    while (crashes.length && (crashes[0] ?? 0) < now - 60_000) crashes.shift();
    if (crashes.length > 5) {
      console.error('workers keep dying (more than 5 in a minute); stopping');
      void stopAll(1);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 1000).unref();
  });

  const stopAll = async (exitCode: number) => {
    if (closing) return;
    closing = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            const kill = setTimeout(() => w.process.kill('SIGKILL'), SHUTDOWN_MS + 2_000);
            w.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            w.process.kill('SIGTERM');
          }),
      ),
    );
    await database.close().catch(() => {});
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGINT', () => void stopAll(0));

  for (let i = 0; i < config.workers; i++) fork();
}

async function main() {
  const config = readConfig();
  // every process (a cluster's primary holds the keyword index, its workers the answers): the C heap's
  // free pages go back to the system after V8's full collections (lib/malloc-trim.ts)
  trimAfterFullCollections();
  if (config.workers > 1 && cluster.isPrimary) return primary(config);
  return serve(config);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
