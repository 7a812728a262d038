import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS } from '@store/shared';
import { createAccount } from './accounts.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { multipart, testImage, type Part } from './multipart.ts';

/**
 * The disk fills up during an upload. A real full disk: the uploads directory is a small tmpfs mounted
 * for this test (CI runs as root), filled up before the upload. The upload is answered 507 with a
 * message, and leaves no half-written image (nor a temporary file) in the gallery.
 */
const UPLOAD_DISK_FULL = 'Not enough storage space to save the images, nothing was uploaded. Please try again later.';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'store-disk-full-'));
const uploadsDir = path.join(dataDir, 'uploads');
mkdirSync(uploadsDir);
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0755', 'tmpfs', uploadsDir], { stdio: 'pipe' });
    return true;
  } catch (err) {
    // a developer's machine without root: said loudly; CI (root) must run it
    if (process.env.CI === 'true' || process.env.CI === '1')
      throw new Error(`CI=true: the disk-full test needs to mount a tmpfs (run as root): ${String(err)}`);
    console.warn(`SKIPPED: the disk-full upload test cannot mount a tmpfs here (${String(err).split('\n')[0]})`);
    return false;
  }
})();

let t: TestContext;
let admin: { headers: Record<string, string> };
const filler = path.join(uploadsDir, 'filler.bin');

function upload(folder: string, parts: Part[]) {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/upload/${folder}`,
    headers: { ...admin.headers, ...body.headers },
    payload: body.payload,
  });
}
const file = (data: Buffer, filename: string): Part => ({ field: 'files', data, filename, contentType: 'image/png' });
const filesIn = (folder: string) => readdirSync(path.join(uploadsDir, folder)).sort();

/** Fills the disk until only `freeBytes` are left. */
function fillDisk(freeBytes: number) {
  const s = statfsSync(uploadsDir);
  writeFileSync(filler, Buffer.alloc(Math.max(0, s.bavail * s.bsize - freeBytes)));
}

beforeAll(async () => {
  if (!mounted) return;
  t = await createTestApp({ DATA_DIR: dataDir });
  admin = await createAccount(t, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', [uploadsDir]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!mounted)('uploads on a full disk', () => {
  it('answers 507 with a message and leaves no half-written image', { timeout: 60_000 }, async () => {
    // an image stored while there was room stays untouched
    const before = await upload('gallery', [file(await testImage('png'), 'before.png')]);
    expect(before.statusCode).toBe(200);
    const kept = filesIn('gallery');
    expect(kept).toHaveLength(IMAGE_WIDTHS.length);

    // a photo-sized image of noise (its largest WebP is ~0.5 MB) after a small one, with ~200 KB free:
    // the smaller widths fit, the largest does not
    const w = 1200;
    const h = 900;
    const photo = await sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer();
    const small = await testImage('png', { r: 1, g: 2, b: 3 });
    const parts = [file(small, 'small.png'), file(photo, 'photo.png')];
    fillDisk(200 * 1024);
    const full = await upload('gallery', parts);
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({ message: UPLOAD_DISK_FULL, code: 'INSUFFICIENT_STORAGE' });
    // nothing of this upload is left (not the small image stored before the disk ran out either)
    expect(filesIn('gallery')).toEqual(kept);
    expect((await t.app.inject({ url: '/api/upload/list/gallery', headers: admin.headers })).json()).toHaveLength(1);

    // room again: the same upload stores both images whole
    rmSync(filler);
    const retried = await upload('gallery', parts);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().files).toHaveLength(2);
    const now = filesIn('gallery');
    expect(now).toHaveLength(3 * IMAGE_WIDTHS.length);
    expect(now.filter((f) => !f.endsWith('.webp'))).toEqual([]);
  });
});
