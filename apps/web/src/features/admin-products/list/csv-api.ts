import {
  CSV_IMPORT_MAX_BYTES,
  importErrorSchema,
  importProgressSchema,
  importResultSchema,
  type ImportError,
  type ImportProgress,
  type ImportResult,
} from '@store/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api.ts';
import { catalogKeys } from '#web/lib/catalog.ts';
import { downloadFile } from '#web/lib/download.ts';
import { postWithProgress, type PostOutcome } from '#web/lib/xhr-upload.ts';

export const CSV_MESSAGES = {
  empty: 'The file is empty.',
  notCsv: 'Please choose a CSV file (.csv).',
  tooLarge: (bytes: number) =>
    `The file is ${(Math.ceil((bytes / 1024 / 1024) * 10) / 10).toFixed(1)} MB: at most ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB can be imported.`,
  canceled: 'Import canceled: nothing was imported.',
  failed: 'Import failed. Please try again.',
  lost: 'The connection was lost before the import answered. Check the product list before you try again.',
  unexpected: 'The server gave an answer this page does not understand. Check the product list.',
} as const;

/** Counts as the store writes them in English: 3,000. */
const count = (n: number) => n.toLocaleString('en-US');

/** Why `file` cannot be imported (empty, not a CSV by name or type, over 10 MB), or null when it can. */
export function csvFileProblem(file: { name: string; size: number; type: string }): string | null {
  if (!/\.csv$/i.test(file.name) && !/csv/i.test(file.type)) return CSV_MESSAGES.notCsv;
  if (file.size <= 0) return CSV_MESSAGES.empty;
  if (file.size > CSV_IMPORT_MAX_BYTES) return CSV_MESSAGES.tooLarge(file.size);
  return null;
}

/** What an import is doing, for the screen reader's status line (one line a stage, not one a percent). */
export type ImportStage = 'uploading' | 'reading' | 'checking' | 'writing' | 'finishing';

export const STAGE_TEXT: Record<ImportStage, string> = {
  uploading: 'Uploading the file…',
  reading: 'Reading the file…',
  checking: 'Checking the rows…',
  writing: 'Writing the products…',
  finishing: 'Finishing…',
};

export interface ImportProgressView {
  stage: ImportStage;
  /** The bar's text. */
  label: string;
  /** 0 to 100. */
  now: number;
  /** The bar moves on its own where the stage has no count. */
  animated: boolean;
}

const percent = (done: number, total: number) =>
  total > 0 ? Math.round((Math.max(0, Math.min(done, total)) / total) * 100) : 100;

/**
 * The progress bar of an import: the upload's percent until the file is sent, then the server's phase with
 * its rows. Without the server's progress (its job is unknown, e.g. on another server process) the upload's
 * percent stays.
 */
export function importProgressView(uploadPercent: number, job: ImportProgress | null): ImportProgressView {
  const { phase, done, total } = job ?? { phase: 'reading', done: 0, total: 0 };
  if (phase === 'checking' || phase === 'writing') {
    const [counted, uncounted] =
      phase === 'checking' ? ['Checking rows', 'Checking rows…'] : ['Writing products', 'Writing…'];
    return {
      stage: phase,
      label: total > 0 ? `${counted} ${count(done)} of ${count(total)}` : uncounted,
      now: percent(done, total),
      animated: total <= 0,
    };
  }
  if (phase === 'done' || phase === 'failed')
    return { stage: 'finishing', label: 'Finishing…', now: 100, animated: true };
  if (uploadPercent < 100 || !job)
    return { stage: 'uploading', label: `Uploading ${uploadPercent}%`, now: uploadPercent, animated: false };
  // the server counts the bytes it has received of the file
  return { stage: 'reading', label: 'Reading the file…', now: percent(done, total), animated: total <= 0 };
}

/** "12 products created, 30 updated". */
export function importResultText({ created, updated }: ImportResult): string {
  return `${count(created)} ${created === 1 ? 'product' : 'products'} created, ${count(updated)} updated`;
}

/** The heading over the rows a refused import lists: "3 rows are not valid: nothing was imported". */
export function invalidRowsHeading(errors: ImportError['errors']): string {
  const rows = new Set(errors.map((e) => e.row)).size;
  return `${count(rows)} ${rows === 1 ? 'row is' : 'rows are'} not valid: nothing was imported`;
}

/** A job id for `?job=` (IMPORT_JOB_RE of @store/shared): a random UUID, from random bytes where there is none. */
export function newImportJobId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export type ImportOutcome =
  | { kind: 'done'; result: ImportResult }
  | { kind: 'invalid'; errors: ImportError['errors'] }
  | { kind: 'failed'; message: string }
  | { kind: 'canceled' };

export interface ImportHandle {
  cancel: () => void;
  done: Promise<ImportOutcome>;
}

/** The upload's percent as the file goes out, or the server's progress once it answers with one. */
export type ImportProgressEvent = { percent: number } | { job: ImportProgress };

/** How often the server's progress is asked for while the import runs. */
export const IMPORT_POLL_MS = 300;

/**
 * POST /api/products/import?job=<id> (multipart field `file`) with upload progress, asking
 * GET /api/products/import/jobs/{id} for the server's progress every IMPORT_POLL_MS until the answer comes.
 * A job the server does not know (yet, or on another process) is no error: the upload's progress stays.
 */
export function startImport(
  file: File,
  token: string | undefined,
  onProgress: (progress: ImportProgressEvent) => void,
): ImportHandle {
  const job = newImportJobId();
  const form = new FormData();
  form.append('file', file, file.name);
  const post = postWithProgress(`/api/products/import?job=${encodeURIComponent(job)}`, form, token, (loaded, total) =>
    onProgress({ percent: total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0 }),
  );

  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    try {
      const parsed = importProgressSchema.safeParse(await api<unknown>(`/api/products/import/jobs/${job}`));
      if (running && parsed.success) onProgress({ job: parsed.data });
    } catch {
      // unknown job or a failed poll: the import's own answer decides
    }
    if (running) timer = setTimeout(() => void poll(), IMPORT_POLL_MS);
  };
  timer = setTimeout(() => void poll(), IMPORT_POLL_MS);

  const done = post.done.then((outcome): ImportOutcome => {
    running = false;
    clearTimeout(timer);
    return readImportOutcome(outcome);
  });
  return { cancel: post.cancel, done };
}

/** The import's answer: the counts, the rows refused (nothing written), or why it failed. */
export function readImportOutcome(outcome: PostOutcome): ImportOutcome {
  if (outcome.kind === 'canceled') return { kind: 'canceled' };
  if (outcome.kind === 'failed') return { kind: 'failed', message: CSV_MESSAGES.lost };
  if (outcome.kind === 'ok') {
    const result = importResultSchema.safeParse(outcome.body);
    return result.success
      ? { kind: 'done', result: result.data }
      : { kind: 'failed', message: CSV_MESSAGES.unexpected };
  }
  const refused = importErrorSchema.safeParse(outcome.body);
  if (outcome.error.status === 400 && refused.success && refused.data.errors.length > 0)
    return { kind: 'invalid', errors: refused.data.errors };
  return { kind: 'failed', message: outcome.error.explained ? outcome.error.message : CSV_MESSAGES.failed };
}

/** After an import: the admin list and the store's catalogue show the products as they now are. */
export function useRefreshAfterImport() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['admin-products'] }),
      qc.invalidateQueries({ queryKey: catalogKeys.all }),
    ]);
}

/** Export: downloads the whole catalogue as the server's CSV file. */
export function useExportProducts() {
  return useMutation({ mutationFn: () => downloadFile('/api/products/export', 'products.csv') });
}
