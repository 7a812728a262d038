/** Outside APIs: one timeout for every call, and answers read as JSON when they are JSON. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** 0 when no answer came (network failure, timeout). */
    readonly status: number,
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** Larger answers are not what any of the APIs we call sends: refused rather than held in memory. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * One call with one deadline for all of it (connecting, the headers and the whole body): an API that
 * hangs, stops mid-answer or streams without end is given up after `timeoutMs` as an UpstreamError,
 * like one that cannot be reached. A body that is not JSON is kept as text (callers check the shape).
 */
export async function requestJson(url: string, init: RequestInit, timeoutMs = 10_000): Promise<HttpAnswer> {
  const host = new URL(url).host;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(Math.max(1, timeoutMs)) });
    text = await readText(res, host);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError(`${host} unreachable: ${(err as Error).message}`, 0);
  }
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the log
  }
  return { status: res.status, body };
}

async function readText(res: Response, host: string): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    // leaving the loop cancels the rest of the answer
    if (size > MAX_ANSWER_BYTES)
      throw new UpstreamError(`${host} answered more than ${MAX_ANSWER_BYTES} bytes`, res.status);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The time left until `deadline` (ms since the epoch), for the next call of a sequence sharing one budget. */
export const timeLeft = (deadline: number) => Math.max(1, deadline - Date.now());

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
