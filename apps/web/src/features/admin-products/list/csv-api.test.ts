import { AUTH_MESSAGES, CSV_IMPORT_MAX_BYTES, IMPORT_JOB_RE } from '@store/shared';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, setTokenFailedHandler, setTokenProvider } from '#web/lib/api.ts';
import { postWithProgress, type PostOutcome } from '#web/lib/xhr-upload.ts';
import {
  CSV_MESSAGES,
  csvFileProblem,
  importProgressView,
  importResultText,
  invalidRowsHeading,
  IMPORT_POLL_MS,
  newImportJobId,
  readImportOutcome,
  startImport,
  type ImportProgressEvent,
} from './csv-api.ts';

vi.mock('#web/lib/xhr-upload.ts', () => ({ postWithProgress: vi.fn() }));

const csv = (size: number, name = 'products.csv', type = 'text/csv') => ({ name, size, type });

describe('the file an admin picks to import', () => {
  it('takes a CSV of up to 10 MB, by its name or its type', () => {
    expect(csvFileProblem(csv(1))).toBeNull();
    expect(csvFileProblem(csv(CSV_IMPORT_MAX_BYTES))).toBeNull();
    expect(csvFileProblem(csv(10, 'EXPORT.CSV', ''))).toBeNull();
    expect(csvFileProblem(csv(10, 'export', 'text/csv'))).toBeNull();
  });

  it('says how large a file over 10 MB is', () => {
    expect(csvFileProblem(csv(CSV_IMPORT_MAX_BYTES + 1))).toBe('The file is 10.1 MB: at most 10 MB can be imported.');
    expect(csvFileProblem(csv(12.3 * 1024 * 1024))).toBe('The file is 12.3 MB: at most 10 MB can be imported.');
  });

  it('refuses an empty file and one that is no CSV', () => {
    expect(csvFileProblem(csv(0))).toBe(CSV_MESSAGES.empty);
    expect(csvFileProblem(csv(10, 'products.xlsx', 'application/vnd.ms-excel.sheet'))).toBe(CSV_MESSAGES.notCsv);
  });
});

describe('the progress bar of an import', () => {
  it("shows the upload's percent until the server reports a phase", () => {
    expect(importProgressView(45, null)).toEqual({
      stage: 'uploading',
      label: 'Uploading 45%',
      now: 45,
      animated: false,
    });
    expect(importProgressView(45, { phase: 'reading', done: 0, total: 0 }).label).toBe('Uploading 45%');
    // the server's job is unknown (another process): the upload's progress stays
    expect(importProgressView(100, null).label).toBe('Uploading 100%');
  });

  it('counts the rows being checked, then being written', () => {
    expect(importProgressView(100, { phase: 'checking', done: 3000, total: 10000 })).toEqual({
      stage: 'checking',
      label: 'Checking rows 3,000 of 10,000',
      now: 30,
      animated: false,
    });
    expect(importProgressView(100, { phase: 'writing', done: 0, total: 0 })).toMatchObject({
      stage: 'writing',
      label: 'Writing…',
      now: 100,
      animated: true,
    });
    expect(importProgressView(100, { phase: 'writing', done: 250, total: 1000 })).toMatchObject({
      label: 'Writing products 250 of 1,000',
      now: 25,
    });
  });

  it('reads the file once it is sent, and finishes when the server is done', () => {
    expect(importProgressView(100, { phase: 'reading', done: 0, total: 0 })).toMatchObject({
      stage: 'reading',
      label: 'Reading the file…',
    });
    expect(importProgressView(100, { phase: 'done', done: 5, total: 5 })).toMatchObject({
      stage: 'finishing',
      now: 100,
    });
    expect(importProgressView(100, { phase: 'failed', done: 1, total: 5 }).stage).toBe('finishing');
  });

  it('never shows more than 100% or less than 0', () => {
    expect(importProgressView(100, { phase: 'checking', done: 12, total: 10 }).now).toBe(100);
    expect(importProgressView(100, { phase: 'checking', done: -1, total: 10 }).now).toBe(0);
  });
});

describe('the outcome of an import', () => {
  it('counts what was created and updated', () => {
    expect(importResultText({ created: 12, updated: 30 })).toBe('12 products created, 30 updated');
    expect(importResultText({ created: 1, updated: 1200 })).toBe('1 product created, 1,200 updated');
  });

  it('counts the rows that are not valid, each once', () => {
    const err = (row: number) => ({ row, message: 'bad' });
    expect(invalidRowsHeading([err(2), err(5), err(5), err(9)])).toBe('3 rows are not valid: nothing was imported');
    expect(invalidRowsHeading([err(2)])).toBe('1 row is not valid: nothing was imported');
  });

  it('names each import with an id the server takes', () => {
    const a = newImportJobId();
    expect(a).toMatch(IMPORT_JOB_RE);
    expect(newImportJobId()).not.toBe(a);
  });
});

/** The request of one import, answered by the test. */
function nextPost() {
  let answer!: (outcome: PostOutcome) => void;
  const done = new Promise<PostOutcome>((resolve) => (answer = resolve));
  vi.mocked(postWithProgress).mockReturnValueOnce({ cancel: () => answer({ kind: 'canceled' }), done });
  const call = () => vi.mocked(postWithProgress).mock.lastCall!;
  return { answer, call };
}

describe('startImport', () => {
  const onTokenFailed = vi.fn();
  const polls: string[] = [];
  let jobAnswer: { status: number; body: unknown } = { status: 404, body: { message: 'Not found' } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      polls.push(url);
      return new Response(JSON.stringify(jobAnswer.body), { status: jobAnswer.status });
    }),
  );
  setTokenFailedHandler(onTokenFailed);
  afterEach(() => {
    onTokenFailed.mockClear();
    polls.length = 0;
    jobAnswer = { status: 404, body: { message: 'Not found' } };
    vi.useRealTimers();
  });
  afterAll(() => {
    vi.unstubAllGlobals();
    setTokenFailedHandler(() => undefined);
  });
  const file = () => new File(['_id,slug\n'], 'products.csv', { type: 'text/csv' });

  it("sends the file with a job id, reports the upload and the server's progress, and stops asking once answered", async () => {
    vi.useFakeTimers();
    const request = nextPost();
    const events: ImportProgressEvent[] = [];
    const { done } = startImport(file(), 'admin', (p) => events.push(p));
    const [url, form, token, onUpload] = request.call();
    const job = /^\/api\/products\/import\?job=([^&]+)$/.exec(url)?.[1] ?? '';
    expect(job).toMatch(IMPORT_JOB_RE);
    expect((form.get('file') as File).name).toBe('products.csv');
    expect(token).toBe('admin');

    onUpload(45, 100);
    // an unknown job is no error: only the upload's progress so far
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS);
    expect(polls).toEqual([`/api/products/import/jobs/${job}`]);
    jobAnswer = { status: 200, body: { phase: 'checking', done: 3, total: 10 } };
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS);
    expect(events).toEqual([{ percent: 45 }, { job: { phase: 'checking', done: 3, total: 10 } }]);

    request.answer({ kind: 'ok', body: { created: 12, updated: 30 } });
    expect(await done).toEqual({ kind: 'done', result: { created: 12, updated: 30 } });
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS * 10);
    expect(polls).toHaveLength(2);
  });

  it("signs out when a progress request's token is refused, as every other call does", async () => {
    vi.useFakeTimers();
    jobAnswer = { status: 401, body: { message: AUTH_MESSAGES.tokenFailed, code: 'TOKEN_FAILED' } };
    setTokenProvider(() => 'expired');
    const request = nextPost();
    const { done } = startImport(file(), 'expired', () => undefined);
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS);
    setTokenProvider(() => undefined);
    expect(onTokenFailed).toHaveBeenCalledTimes(1);
    request.answer({ kind: 'canceled' });
    expect(await done).toEqual({ kind: 'canceled' });
  });
});

describe('the answer of an import', () => {
  const refused = (status: number, body: unknown, message = 'Request failed', explained = true) =>
    readImportOutcome({ kind: 'refused', error: new ApiError(message, status, undefined, explained), body });

  it('lists the rows a refused import names', () => {
    const errors = [{ row: 2, message: 'price: must be a number' }];
    expect(refused(400, { message: 'Some rows are not valid', errors })).toEqual({ kind: 'invalid', errors });
  });

  it("shows the server's reason for another refusal, or says the import failed", () => {
    expect(refused(413, { message: 'Too large' }, 'Too large')).toEqual({ kind: 'failed', message: 'Too large' });
    expect(refused(400, { message: 'No file', errors: [] }, 'No file')).toEqual({ kind: 'failed', message: 'No file' });
    expect(refused(502, undefined, 'Request failed (502)', false)).toEqual({
      kind: 'failed',
      message: CSV_MESSAGES.failed,
    });
  });

  it('says so when the connection is lost or the answer is not understood', () => {
    expect(readImportOutcome({ kind: 'failed' })).toEqual({ kind: 'failed', message: CSV_MESSAGES.lost });
    expect(readImportOutcome({ kind: 'ok', body: { ok: true } })).toEqual({
      kind: 'failed',
      message: CSV_MESSAGES.unexpected,
    });
    expect(readImportOutcome({ kind: 'canceled' })).toEqual({ kind: 'canceled' });
  });
});
