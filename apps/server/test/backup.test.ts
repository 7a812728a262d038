import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { createProduct } from './factories.ts';
import { killAll, runCli, startServer, stop, waitForHealth } from './processes.ts';
import { testDbKind } from './test-db.ts';

const ADMIN = { email: 'backup-admin@example.test', password: 'Backup-admin-pass9' };
const PORT = 3261;
const base = `http://127.0.0.1:${PORT}`;

afterAll(killAll);

/** Signs the admin in (CAPTCHA_PROVIDER=none outside production) and answers its bearer header. */
async function adminHeaders() {
  const res = await fetch(`${base}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, grecaptcha: 'none' }),
  });
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

// npm run backup / restore are for the embedded database (PostgreSQL uses pg_dump: README)
if (testDbKind() === 'pglite')
  describe('npm run backup and npm run restore (embedded database)', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-backup-'));
    const env = {
      DATA_DIR: dataDir,
      PORT: String(PORT),
      CAPTCHA_PROVIDER: 'none',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('backs up a running store, and a restore brings back data deleted since', { timeout: 240_000 }, async () => {
      // a product and an uploaded image, put there before the server starts
      const database = await openDatabase({ dataDir });
      const product = await createProduct(database.db, { name: 'Backed Up Lamp' });
      await database.close();
      mkdirSync(path.join(dataDir, 'uploads', 'lamp'), { recursive: true });
      writeFileSync(path.join(dataDir, 'uploads', 'lamp', 'photo.webp'), 'image bytes');

      const server = startServer(env);
      await waitForHealth(PORT, server);
      // the backup is written by the running server, which keeps answering meanwhile
      const reads = Array.from({ length: 20 }, () => fetch(`${base}/api/products/${product.id}`));
      const backup = runCli('src/ops/backup-cli.ts', [], env);
      expect(backup.code, backup.out).toBe(0);
      expect((await Promise.all(reads)).every((r) => r.ok)).toBe(true);
      const dir = /Backup written to (\S+)/.exec(backup.out)?.[1];
      expect(dir).toBeTruthy();
      expect(existsSync(path.join(dir!, 'db.tar.gz'))).toBe(true);
      expect(readFileSync(path.join(dir!, 'uploads', 'lamp', 'photo.webp'), 'utf8')).toBe('image bytes');
      expect(JSON.parse(readFileSync(path.join(dir!, 'manifest.json'), 'utf8'))).toMatchObject({
        format: 1,
        kind: 'pglite',
        uploads: 1,
      });

      // a restore refuses while the server runs
      const busy = runCli('src/ops/restore-cli.ts', [dir!], env);
      expect(busy.code).toBe(1);
      expect(busy.out).toMatch(/in use by another store process/);

      // the data changes after the backup: the product is deleted, the image removed
      const del = await fetch(`${base}/api/products/${product.id}`, {
        method: 'DELETE',
        headers: await adminHeaders(),
      });
      expect(del.status).toBe(200);
      rmSync(path.join(dataDir, 'uploads', 'lamp'), { recursive: true });
      expect((await fetch(`${base}/api/products/${product.id}`)).status).toBe(404);
      expect(await stop(server)).toBe(0);

      const restore = runCli('src/ops/restore-cli.ts', [dir!], env);
      expect(restore.code, restore.out).toBe(0);
      expect(restore.out).toMatch(/Restored the backup of .* \(1 uploaded files\)/);

      const again = startServer(env);
      await waitForHealth(PORT, again);
      const back = await fetch(`${base}/api/products/${product.id}`);
      expect(back.status).toBe(200);
      expect(((await back.json()) as { name: string }).name).toBe('Backed Up Lamp');
      expect(readFileSync(path.join(dataDir, 'uploads', 'lamp', 'photo.webp'), 'utf8')).toBe('image bytes');
      expect(await stop(again)).toBe(0);

      // with the server stopped, the backup opens the data itself
      const offline = runCli('src/ops/backup-cli.ts', [], env);
      expect(offline.code, offline.out).toBe(0);
      expect(offline.out).toMatch(/Backup written to/);
    });
  });

describe('backups on PostgreSQL', () => {
  it("are pg_dump's job: the scripts say so and touch nothing", () => {
    const env = { DATA_DIR: os.tmpdir(), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const backup = runCli('src/ops/backup-cli.ts', [], env);
    expect(backup.code).toBe(2);
    expect(backup.out).toMatch(/pg_dump --format=custom/);
    const restore = runCli('src/ops/restore-cli.ts', [os.tmpdir()], env);
    expect(restore.code).not.toBe(0);
  });
});
