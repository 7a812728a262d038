/** Gallery uploads: the folder name rule, the accepted files (JPG/PNG up to 5 MB) and their messages. */
import { z } from 'zod';
import { OBJECT_ID_RE } from '../text.ts';
import { productSchema } from './catalog.ts';

export const UPLOAD_MAX_FILES = 20;
export const UPLOAD_ACCEPT = ['image/jpeg', 'image/png'] as const;

export const UPLOAD_MESSAGES = {
  skipped: (n: number) => `Only JPG/PNG up to 5MB per file. Skipped ${n} invalid file(s).`,
  noValidFile: 'Please choose at least one valid file to upload.',
  folderRequired: 'Please set an Image Gallery Folder Name first.',
  folderInvalid: 'Invalid folder name',
  tooManyFiles: `At most ${UPLOAD_MAX_FILES} files per upload.`,
  notMultipart: 'Send the images as multipart/form-data in the field "files".',
  noSrcs: 'Please choose at least one image to delete.',
  // the messages the upload screens show, kept here so every screen says the same
  canceled: 'Upload canceled.',
  failed: 'Upload failed.',
  loadFailed: 'Failed to load folder contents.',
  deleteFailed: 'File deletion failed on server.',
  deleteImagesFailed: 'Failed to delete images.',
  imageUploadFailed: 'Image upload failed',
} as const;

export const uploadedImageSchema = z.object({ src: z.string() });
export const uploadListSchema = z.array(uploadedImageSchema);

/** POST /api/upload/{folder}: what was stored, and how many files were skipped (with the message the screen shows). */
export const uploadResponseSchema = z.object({
  files: z.array(uploadedImageSchema),
  skipped: z.number(),
  message: z.string().optional(),
  /** With `?product={id}`: the product after the files joined its gallery. */
  product: productSchema.optional(),
});

/**
 * POST /api/upload/{folder}?product={id}: the stored files join that product's gallery in upload order,
 * the first becomes its main image when it has none, and the folder becomes its gallery folder when unset.
 */
export const uploadQuerySchema = z.object({
  product: z.string().regex(OBJECT_ID_RE, 'Invalid product id').optional(),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const deleteUploadsSchema = z.object({
  srcs: z
    .array(z.string().max(300), { error: UPLOAD_MESSAGES.noSrcs })
    .min(1, UPLOAD_MESSAGES.noSrcs)
    .max(200, 'At most 200 images at once'),
});
export const deleteUploadsResponseSchema = z.object({ deleted: z.array(z.string()), message: z.string() });
