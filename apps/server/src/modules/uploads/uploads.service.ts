import { createHash } from 'node:crypto';
import { access, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { IMAGE_WIDTHS, UPLOAD_MESSAGES, slugify } from '@store/shared';
import { BadRequestError } from '#server/lib/errors.ts';
import { FOLDER_RE, storeImage } from '#server/lib/images.ts';

/** A stored image's base name (without `.webp` or the `-{width}` of its smaller copies). */
const BASE_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,120}$/;

/**
 * The folder's directory, refusing anything but a plain folder name: the pattern has no dots or
 * slashes, and the resolved path must still sit directly under the uploads directory.
 */
export function folderDir(uploadsDir: string, folder: string): string {
  if (!folder.trim()) throw new BadRequestError(UPLOAD_MESSAGES.folderRequired);
  if (!FOLDER_RE.test(folder)) throw new BadRequestError(UPLOAD_MESSAGES.folderInvalid);
  const root = path.resolve(uploadsDir);
  const dir = path.resolve(root, folder);
  if (path.dirname(dir) !== root) throw new BadRequestError(UPLOAD_MESSAGES.folderInvalid);
  return dir;
}

/** `x-640.webp` is a smaller copy only when `x.webp` is there too (a base name may itself end in digits). */
function mainImages(names: string[]): string[] {
  const present = new Set(names);
  const widths = new Set<number>(IMAGE_WIDTHS);
  return names.filter((n) => {
    if (!n.endsWith('.webp')) return false;
    const m = /^(.+)-(\d+)\.webp$/.exec(n);
    return !(m && widths.has(Number(m[2])) && present.has(`${m[1]}.webp`));
  });
}

/** GET /api/upload/list/{folder}: the main `{base}.webp` of each image, oldest first; none for a new folder. */
export async function listImages(uploadsDir: string, folder: string): Promise<{ src: string }[]> {
  const dir = folderDir(uploadsDir, folder);
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const names = mainImages(entries.filter((e) => e.isFile()).map((e) => e.name));
  const dated = await Promise.all(
    names.map(async (name) => ({ name, at: (await stat(path.join(dir, name))).mtimeMs })),
  );
  dated.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
  return dated.map((d) => ({ src: `/uploads/${folder}/${d.name}` }));
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Stores one checked image once: named after the file and a hash of its bytes, so the same picture
 * uploaded again is the same image (not re-encoded, not duplicated). `created` is false for such a repeat.
 */
export async function storeUpload(
  uploadsDir: string,
  folder: string,
  filename: string,
  bytes: Buffer,
): Promise<{ src: string; created: boolean }> {
  const dir = folderDir(uploadsDir, folder);
  const stem =
    slugify(filename.replace(/\.[^.]*$/, ''))
      .slice(0, 50)
      .replace(/-+$/, '') || 'image';
  const base = `${stem}-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
  if (await exists(path.join(dir, `${base}.webp`))) return { src: `/uploads/${folder}/${base}.webp`, created: false };
  return { src: await storeImage(path.resolve(uploadsDir), folder, base, bytes), created: true };
}

/** Removes an image with all its widths; false when it was not there. */
async function removeImage(dir: string, base: string): Promise<boolean> {
  const main = path.join(dir, `${base}.webp`);
  const had = await exists(main);
  await Promise.all([
    rm(main, { force: true }),
    ...IMAGE_WIDTHS.map((w) => rm(path.join(dir, `${base}-${w}.webp`), { force: true })),
  ]);
  return had;
}

/**
 * Removes stored images by their srcs (`/uploads/{folder}/{base}.webp`), every width of each, once nothing
 * references them any more. A src of another shape (another site's address, a path with dots) is left
 * alone, and a file is only ever removed inside the uploads directory. A file that cannot be removed is
 * logged and skipped; answers the srcs whose files were there and are gone.
 */
export async function removeUnusedImages(
  uploadsDir: string,
  srcs: string[],
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<string[]> {
  const root = path.resolve(uploadsDir);
  const removed: string[] = [];
  for (const src of new Set(srcs)) {
    const m = /^\/uploads\/([^/]+)\/([^/]+)\.webp$/.exec(src);
    if (!m || !FOLDER_RE.test(m[1]!) || !BASE_RE.test(m[2]!)) continue;
    const dir = path.resolve(root, m[1]!);
    if (path.dirname(dir) !== root) continue;
    try {
      if (await removeImage(dir, m[2]!)) removed.push(src);
    } catch (err) {
      log.warn({ err, src }, 'could not remove an unused image');
    }
  }
  return removed;
}

/** DELETE /api/upload/{folder}: only srcs of this folder count; answers the ones that were removed. */
export async function deleteImages(uploadsDir: string, folder: string, srcs: string[]): Promise<string[]> {
  const dir = folderDir(uploadsDir, folder);
  const prefix = `/uploads/${folder}/`;
  const deleted: string[] = [];
  for (const src of new Set(srcs)) {
    if (!src.startsWith(prefix) || !src.endsWith('.webp')) continue;
    const base = src.slice(prefix.length, -'.webp'.length);
    if (!BASE_RE.test(base)) continue;
    if (await removeImage(dir, base)) deleted.push(src);
  }
  return deleted;
}
