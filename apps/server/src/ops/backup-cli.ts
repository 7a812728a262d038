/**
 * npm run backup: a consistent backup of the embedded database and the uploads, while the server runs
 * (it is asked by a signal and writes the backup itself, since only it may open the database) or not
 * (then this process opens the data directory and writes it). Prints the backup's folder.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError, openDatabase } from '../db/client.ts';
import { latestBackup, REQUEST_SIGNAL, writeBackup } from './backup.ts';

function runningServer(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'store.lock'), 'utf8').trim());
    if (!(pid > 0)) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

const mtime = (dir: string | undefined) => (dir && existsSync(dir) ? statSync(dir).mtimeMs : 0);

async function viaServer(pid: number, dataDir: string): Promise<string> {
  const before = latestBackup(dataDir);
  const beforeTime = mtime(before);
  process.kill(pid, REQUEST_SIGNAL);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const now = latestBackup(dataDir);
    if (now && (now !== before || mtime(now) !== beforeTime)) return now;
  }
  throw new Error(`the server (pid ${pid}) wrote no backup within 2 minutes; see its log`);
}

async function main() {
  const config = loadConfig(process.env);
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump, e.g.\n' +
        '  pg_dump --format=custom --file=store.dump "$DATABASE_URL"\n' +
        'and copy DATA_DIR/uploads beside it (see the README).',
    );
    process.exit(2);
  }
  const pid = runningServer(config.dataDir);
  let dir: string;
  if (pid) {
    dir = await viaServer(pid, config.dataDir);
  } else {
    const database = await openDatabase({ dataDir: config.dataDir });
    try {
      dir = await writeBackup(database, config.dataDir);
    } finally {
      await database.close();
    }
  }
  console.log(`Backup written to ${dir}`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
