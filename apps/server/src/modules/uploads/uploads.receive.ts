import type { Multipart } from '@fastify/multipart';
import { UPLOAD_MESSAGES, type UploadResponse } from '@store/shared';
import type { FastifyBaseLogger } from 'fastify';
import { BadRequestError, HttpError, InsufficientStorageError } from '#server/lib/errors.ts';
import { isDiskFull, sniffImage } from '#server/lib/images.ts';
import { deleteImages, folderDir, storeUpload } from './uploads.service.ts';

export const UPLOAD_FIELD = 'files';
export const UPLOAD_DISK_FULL =
  'Not enough storage space to save the images, nothing was uploaded. Please try again later.';

/**
 * POST /api/upload/{folder}: reads the parts one at a time (at most 5 MB each, cut off by the parser), keeps
 * the JPG and PNG ones (by their bytes, never by name or declared type) and stores each as WebP. Anything
 * else is counted as skipped: another field name, an empty or oversize file, other bytes, or an image sharp
 * cannot read. Too many files refuses the whole upload and removes what it stored; so does a full disk
 * (507: each image is stored whole or not at all, and the ones stored before it are removed too).
 */
export async function receiveImages(
  parts: AsyncIterable<Multipart>,
  uploadsDir: string,
  folder: string,
  log: FastifyBaseLogger,
): Promise<UploadResponse> {
  folderDir(uploadsDir, folder);
  const stored: string[] = [];
  const created: string[] = [];
  let skipped = 0;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (part.fieldname !== UPLOAD_FIELD || part.file.truncated || bytes.length === 0 || !sniffImage(bytes)) {
        skipped++;
        continue;
      }
      try {
        const image = await storeUpload(uploadsDir, folder, part.filename ?? '', bytes);
        if (!stored.includes(image.src)) stored.push(image.src);
        if (image.created) created.push(image.src);
      } catch (err) {
        if (isDiskFull(err)) {
          log.error({ err, folder }, 'upload refused: the disk is full');
          throw new InsufficientStorageError(UPLOAD_DISK_FULL);
        }
        // bytes that start like an image but are not one (or too many pixels)
        log.warn({ err, folder }, 'image refused by the encoder');
        skipped++;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') {
      await deleteImages(uploadsDir, folder, created);
      throw new HttpError(413, UPLOAD_MESSAGES.tooManyFiles);
    }
    if (err instanceof InsufficientStorageError) {
      await deleteImages(uploadsDir, folder, created);
      throw err;
    }
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    // the parser gave up on the body (no boundary, a broken part header, an early end): the client's fault
    await deleteImages(uploadsDir, folder, created);
    throw new BadRequestError('Malformed multipart body');
  }
  if (stored.length === 0) throw new BadRequestError(UPLOAD_MESSAGES.noValidFile);
  return {
    files: stored.map((src) => ({ src })),
    skipped,
    ...(skipped ? { message: UPLOAD_MESSAGES.skipped(skipped) } : {}),
  };
}
