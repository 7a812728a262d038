/**
 * Bulk import and export of products (and export of orders) as CSV.
 */
import { z } from 'zod';

/** The columns of a products CSV, in order (`category` by name; `variants` a JSON array; `status` draft or active). */
export const PRODUCT_CSV_COLUMNS = [
  '_id',
  'slug',
  'name',
  'brand',
  'category',
  'price',
  'countInStock',
  'purchaseLink',
  'shippingMethod',
  'image',
  'video',
  'description',
  'variants',
  'status',
] as const;
/** Files written before products had a status end at `variants`: they are read as if each status cell were empty. */
export const PRODUCT_CSV_COLUMNS_WITHOUT_STATUS = PRODUCT_CSV_COLUMNS.slice(0, -1);

export const CSV_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** POST /api/products/import: what was written. */
export const importResultSchema = z.object({ created: z.number(), updated: z.number() });
export type ImportResult = z.infer<typeof importResultSchema>;

/** A refused import: every bad row (row 2 is the first data row) with its message; nothing was written. */
export const importErrorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ row: z.number(), message: z.string() })),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/**
 * The progress of an import the client named with `?job=<id>` (8–64 of a–z, 0–9, -), polled at
 * GET /api/products/import/jobs/{id} while the upload's request is in flight.
 */
export const IMPORT_JOB_RE = /^[a-z0-9-]{8,64}$/;
export const importProgressSchema = z.object({
  phase: z.enum(['reading', 'checking', 'writing', 'done', 'failed']),
  /** Rows handled in this phase, of `total`. */
  done: z.number(),
  total: z.number(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;
