import { LIMITS, UPLOAD_MESSAGES, type Product, type UploadResponse } from '@store/shared';
import { postWithProgress } from '#web/lib/xhr-upload.ts';

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** JPG or PNG by the first bytes, as the server judges them (never by name or declared type). */
export function hasImageSignature(head: Uint8Array): boolean {
  const starts = (sig: number[]) => sig.every((b, i) => head[i] === b);
  return starts(JPEG) || starts(PNG);
}

/** Client-side check of an image upload: a JPG or PNG (by its bytes) of at most 5 MB. */
export async function isUploadable(file: Blob): Promise<boolean> {
  if (file.size <= 0 || file.size > LIMITS.uploadBytes) return false;
  return hasImageSignature(new Uint8Array(await file.slice(0, PNG.length).arrayBuffer()));
}

/** The files to send and the message for the ones left out; `error` when nothing is left. */
export async function pickUploadFiles<F extends Blob>(
  files: readonly F[],
): Promise<{ valid: F[]; notice: string | null; error: string | null }> {
  const ok = await Promise.all(files.map(isUploadable));
  const valid = files.filter((_f, i) => ok[i]);
  const skipped = files.length - valid.length;
  return {
    valid,
    notice: skipped > 0 ? UPLOAD_MESSAGES.skipped(skipped) : null,
    error: valid.length === 0 ? UPLOAD_MESSAGES.noValidFile : null,
  };
}

/**
 * One request carries every file (one rate-limit token per batch); the multipart body sends them in order,
 * so the share of the body sent so far tells how far each file is. Answers 0..100 per file.
 */
export function perFileProgress(sizes: readonly number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  // the body is the files plus a little multipart framing: spread the framing over the files
  const sent = total > 0 ? (Math.min(loaded, total) / total) * sum : 0;
  let start = 0;
  return sizes.map((size) => {
    const done = size > 0 ? (sent - start) / size : sent >= start ? 1 : 0;
    start += size;
    return Math.round(Math.max(0, Math.min(1, done)) * 100);
  });
}

export type UploadOutcome =
  | { kind: 'done'; response: UploadResponse }
  | { kind: 'canceled'; message: string }
  | { kind: 'failed'; message: string };

export interface UploadHandle {
  cancel: () => void;
  done: Promise<UploadOutcome>;
}

/**
 * POST /api/upload/{folder} (multipart field `files`) with upload progress, through lib/xhr-upload.ts: a failed
 * answer shows the server's reason, and a refused admin token signs out as for every other call.
 */
export function uploadImages(
  folder: string,
  files: readonly File[],
  token: string | undefined,
  onProgress: (percents: number[]) => void,
  /** The product the files join (its gallery, in upload order; the first is the main image if it has none). */
  productId?: string,
): UploadHandle {
  const sizes = files.map((f) => f.size);
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const query = productId ? `?product=${encodeURIComponent(productId)}` : '';
  const post = postWithProgress(`/api/upload/${encodeURIComponent(folder)}${query}`, form, token, (loaded, total) =>
    onProgress(perFileProgress(sizes, loaded, total)),
  );
  const done = post.done.then((outcome): UploadOutcome => {
    if (outcome.kind === 'ok') {
      onProgress(sizes.map(() => 100));
      return { kind: 'done', response: outcome.body as UploadResponse };
    }
    if (outcome.kind === 'canceled') return { kind: 'canceled', message: UPLOAD_MESSAGES.canceled };
    const explained = outcome.kind === 'refused' && outcome.error.explained;
    return { kind: 'failed', message: explained ? outcome.error.message : UPLOAD_MESSAGES.failed };
  });
  return { cancel: post.cancel, done };
}

/**
 * The gallery fields of the stored product once `deleted` images are gone from the folder, so that it points
 * at none of them: dropped from imageB, the main image and variant images cleared where they pointed at one.
 * The body of PUT /api/products/image/{id}, sent after DELETE /api/upload/{folder}.
 */
export function galleryAfterDelete(product: Product, deleted: readonly string[]) {
  const gone = new Set(deleted);
  return {
    image: gone.has(product.image) ? '' : product.image,
    imageFolderName: product.imageFolderName,
    imageB: product.imageB.filter((i) => !gone.has(i.src)).map((i) => ({ src: i.src })),
    colorsVariants: product.colorsVariants.map((v) => ({
      _id: v._id,
      name: v.name,
      src: gone.has(v.src) ? '' : v.src,
      price: v.price ?? null,
    })),
  };
}
