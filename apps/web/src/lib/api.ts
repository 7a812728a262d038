/** Tiny fetch wrapper: JSON in and out, the server's `{message}` becomes the Error's message. */
export class ApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

let tokenProvider: () => string | undefined = () => undefined;

/** The auth feature tells the wrapper where the bearer token lives (lib stays free of features). */
export function setTokenProvider(provider: () => string | undefined): void {
  tokenProvider = provider;
}

export const TOKEN_FAILED = 'Not authorized, token failed';
let onTokenFailed: () => void = () => undefined;

/** Called when a request that sent a bearer token is refused with 'Not authorized, token failed' (spec §4: automatic logout). */
export function setTokenFailedHandler(handler: () => void): void {
  onTokenFailed = handler;
}

export interface ApiOptions extends Omit<RequestInit, 'body'> {
  json?: unknown;
}

export async function api<T>(path: string, { json, headers, ...init }: ApiOptions = {}): Promise<T> {
  const token = tokenProvider();
  const res = await fetch(path, {
    ...init,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const message =
      data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message
        ? data.message
        : `Request failed (${res.status})`;
    if (res.status === 401 && token && message === TOKEN_FAILED) onTokenFailed();
    throw new ApiError(message, res.status);
  }
  return data as T;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** Query string from the defined values only. */
export function qs(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}
