import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client.ts';

/**
 * Backups of the embedded store (docs/operations.md): a folder holding
 *   db.tar.gz      PGlite's own dump of its data directory (taken between two queries: consistent),
 *   uploads/       the uploaded images (written once, by content hash, so a copy after the dump holds
 *                  every image the dump refers to unless one was deleted in between),
 *   manifest.json  when and from what.
 * PostgreSQL deployments use pg_dump instead (README).
 */
export const BACKUPS = 'backups';
const LATEST = 'LATEST';
export const REQUEST_SIGNAL = 'SIGUSR2';

export interface Manifest {
  format: 1;
  createdAt: string;
  kind: 'pglite';
  uploads: number;
}

const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/** Writes a backup of a running (or just opened) embedded database into DATA_DIR/backups/<time>/. */
export async function writeBackup(database: Database, dataDir: string, now = new Date()): Promise<string> {
  if (!database.dump) throw new Error('Backups of PostgreSQL are made with pg_dump (see the README).');
  const root = path.join(dataDir, BACKUPS);
  const name = stamp(now);
  const partial = path.join(root, `.${name}.partial`);
  const target = path.join(root, name);
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const dump = await database.dump();
  writeFileSync(path.join(partial, 'db.tar.gz'), Buffer.from(await dump.arrayBuffer()));
  const uploads = path.join(dataDir, 'uploads');
  if (existsSync(uploads)) cpSync(uploads, path.join(partial, 'uploads'), { recursive: true });
  const manifest: Manifest = { format: 1, createdAt: now.toISOString(), kind: 'pglite', uploads: countFiles(uploads) };
  writeFileSync(path.join(partial, 'manifest.json'), JSON.stringify(manifest, null, 2));
  // appears whole or not at all
  renameSync(partial, target);
  writeFileSync(path.join(root, LATEST), name);
  return target;
}

export function latestBackup(dataDir: string): string | undefined {
  try {
    const name = readFileSync(path.join(dataDir, BACKUPS, LATEST), 'utf8').trim();
    return name ? path.join(dataDir, BACKUPS, name) : undefined;
  } catch {
    return undefined;
  }
}

export function readManifest(backupDir: string): Manifest {
  const file = path.join(backupDir, 'manifest.json');
  if (!existsSync(file) || !existsSync(path.join(backupDir, 'db.tar.gz')))
    throw new Error(`${backupDir} is not a store backup (no manifest.json and db.tar.gz)`);
  const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (m.format !== 1 || m.kind !== 'pglite') throw new Error(`${backupDir}: unknown backup format`);
  return m;
}

/** In the server process: a backup request (`npm run backup` sends SIGUSR2) writes a backup beside the data. */
export function answerBackupRequests(
  database: Database,
  dataDir: string,
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void },
): void {
  if (!database.dump) return;
  let busy = false;
  process.on(REQUEST_SIGNAL, () => {
    if (busy) return;
    busy = true;
    writeBackup(database, dataDir)
      .then((dir) => log.info({ dir }, 'backup written'))
      .catch((err: unknown) => log.error({ err }, 'backup failed'))
      .finally(() => {
        busy = false;
      });
  });
}
