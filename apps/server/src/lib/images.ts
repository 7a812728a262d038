import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_WIDTHS } from '@store/shared';

export const FOLDER_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}$/;

/** Kind of image by its first bytes (never by its name). */
export function sniffImage(bytes: Uint8Array): 'jpeg' | 'png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b))
    return 'png';
  return null;
}

/** The disk (or the user's quota) is full. */
export const isDiskFull = (err: unknown) => ['ENOSPC', 'EDQUOT'].includes((err as { code?: string })?.code ?? '');

/**
 * Stores one image as WebP at each of IMAGE_WIDTHS (never upscaled): `{base}.webp` is the largest,
 * `{base}-{w}.webp` the smaller ones. Answers the public src of the largest. All or nothing: every width
 * is encoded, then written under a temporary name (`.tmp`, never listed or served as an image), then
 * renamed, the largest last (its presence means "stored"); a failure (a full disk) removes what it wrote.
 */
export async function storeImage(uploadsDir: string, folder: string, base: string, input: Buffer): Promise<string> {
  if (!FOLDER_RE.test(folder)) throw new Error(`unsafe folder name: ${folder}`);
  if (!/^[a-z0-9][a-z0-9_-]{0,80}$/.test(base)) throw new Error(`unsafe image name: ${base}`);
  const dir = path.join(uploadsDir, folder);
  await mkdir(dir, { recursive: true });
  // loaded on the first image, not at start: sharp and libvips hold about 30 MB a process needs only for uploads
  const { default: sharp } = await import('sharp');
  const source = sharp(input, { limitInputPixels: 40_000_000 }).rotate();
  const widths = [...IMAGE_WIDTHS].sort((a, b) => b - a);
  const encoded = await Promise.all(
    widths.map(async (w, i) => ({
      file: path.join(dir, i === 0 ? `${base}.webp` : `${base}-${w}.webp`),
      bytes: await source.clone().resize({ width: w, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer(),
    })),
  );
  const tag = randomBytes(6).toString('hex');
  const files = encoded.reverse().map((e) => ({ ...e, temp: `${e.file}.${tag}.tmp` }));
  const renamed: string[] = [];
  try {
    for (const f of files) await writeFile(f.temp, f.bytes);
    for (const f of files) {
      await rename(f.temp, f.file);
      renamed.push(f.file);
    }
  } catch (err) {
    await Promise.all([...files.map((f) => f.temp), ...renamed].map((file) => rm(file, { force: true })));
    throw err;
  }
  return `/uploads/${folder}/${base}.webp`;
}
