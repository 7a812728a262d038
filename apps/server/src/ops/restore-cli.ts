/**
 * npm run restore -- <backup folder>: puts a backup of `npm run backup` back as the embedded database and
 * uploads. The server must be stopped. What was there before is kept beside it (db.before-restore-<time>,
 * uploads.before-restore-<time>), so a wrong restore can be undone by hand.
 */
import { cpSync, existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { ConfigError, loadConfig } from '../config.ts';
import { acquireLock, DataDirLockedError, openDatabase } from '../db/client.ts';
import { readManifest } from './backup.ts';

async function main() {
  const from = process.argv[2];
  if (!from) {
    console.error('usage: npm run restore -- <backup folder>  (folders are listed under DATA_DIR/backups)');
    process.exit(2);
  }
  const backup = path.resolve(from);
  const manifest = readManifest(backup);
  const config = loadConfig(process.env);
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: restore PostgreSQL with pg_restore (see the README).');
    process.exit(2);
  }
  const dataDir = config.dataDir;
  const release = acquireLock(dataDir); // refuses while the server runs
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  try {
    for (const part of ['db', 'uploads']) {
      const current = path.join(dataDir, part);
      if (existsSync(current)) renameSync(current, `${current}.before-restore-${stamp}`);
    }
    const dump = new Blob([readFileSync(path.join(backup, 'db.tar.gz'))]);
    const client = await PGlite.create(path.join(dataDir, 'db'), { loadDataDir: dump, extensions: { pg_trgm } });
    await client.close();
    if (existsSync(path.join(backup, 'uploads')))
      cpSync(path.join(backup, 'uploads'), path.join(dataDir, 'uploads'), { recursive: true });
  } finally {
    release();
  }
  // open it once as the server would (migrations of a newer version apply here)
  const database = await openDatabase({ dataDir });
  await database.close();
  console.log(`Restored the backup of ${manifest.createdAt} (${manifest.uploads} uploaded files) into ${dataDir}`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
