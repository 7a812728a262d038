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

export async function requestJson(url: string, init: RequestInit, timeoutMs = 10_000): Promise<HttpAnswer> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new UpstreamError(`${new URL(url).host} unreachable: ${(err as Error).message}`, 0);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the log
  }
  return { status: res.status, body };
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
