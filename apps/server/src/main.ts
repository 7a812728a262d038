import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError, openDatabase } from './db/client.ts';
import { ensureAdmin } from './db/seed/admin.ts';
import { seedDemoIfEmpty } from './db/seed/demo.ts';

const started = Date.now();

async function main() {
  const config = loadConfig(process.env, {
    webDist: path.resolve(import.meta.dirname, '../../web/dist'),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });

  if (config.seedDemo) await seedDemoIfEmpty(database.db, path.join(config.dataDir, 'uploads'), app.log);
  const admin = await ensureAdmin(database.db, config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    try {
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

  await app.listen({ port: config.port, host: config.host });
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  const lines = [
    '',
    `  Store is running at ${url}  (${database.kind}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    `  API docs: ${url}/api/docs`,
  ];
  if (admin) {
    lines.push(`  Admin sign-in: ${admin.email} / ${admin.password ?? '(the ADMIN_PASSWORD you set)'}`);
    if (admin.source === 'demo') lines.push(`  (kept in ${path.join(config.dataDir, 'admin-credentials.txt')})`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
