import type { AUTH_MESSAGES, ErrorCode } from '@store/shared';

/**
 * Tiny fetch wrapper: JSON in and out. A failed answer `{ message, code }` becomes an ApiError: the
 * message is for people, the code is what the app decides on.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The API's machine-readable error name (ERROR_CODES of @store/shared); absent when the answer carried none. */
  readonly code?: ErrorCode;
  /** Whether the server explained the failure; otherwise the message is a generic "Request failed (status)". */
  readonly explained: boolean;
  constructor(message: string, status: number, code?: ErrorCode, explained = true) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.explained = explained;
  }
}

/**
 * Whether `err` is the API's answer with `code`. `fallback` recognises the same error by its message,
 * for a server that does not send this code yet; drop it once the server does.
 */
export function hasErrorCode(err: unknown, code: ErrorCode, fallback?: (message: string) => boolean): err is ApiError {
  return err instanceof ApiError && (err.code === code || (fallback?.(err.message) ?? false));
}

let tokenProvider: () => string | undefined = () => undefined;

/** The app tells the wrapper where the bearer token lives (lib/api.ts stays free of the auth store). */
export function setTokenProvider(provider: () => string | undefined): void {
  tokenProvider = provider;
}

/**
 * The message of a refused token, `AUTH_MESSAGES.tokenFailed` of @store/shared: its type is that constant's, so
 * the compiler holds the two equal. (Not imported as a value: the module that defines it also builds a zod
 * schema, which would put zod into every page's first load.)
 */
export const TOKEN_FAILED: (typeof AUTH_MESSAGES)['tokenFailed'] = 'Not authorized, token failed';
let onTokenFailed: () => void = () => undefined;

/** Called when a request that sent a bearer token is refused because of that token: the app signs out. */
export function setTokenFailedHandler(handler: () => void): void {
  onTokenFailed = handler;
}

/** A refused bearer token (invalid, expired, or its account changed). */
const isTokenFailure = (err: unknown) => hasErrorCode(err, 'TOKEN_FAILED', (message) => message === TOKEN_FAILED);

/**
 * The ApiError of a failed answer, from its status and parsed JSON body (anything else counts as no
 * body). When the request sent a bearer token and the server refused it, the app signs out, as for
 * every call through `api`. For requests made without `api` (an XHR upload with progress).
 */
export function errorFromResponse(status: number, body: unknown, sentToken = true): ApiError {
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const explained = typeof fields.message === 'string' && fields.message !== '';
  const message = explained ? (fields.message as string) : `Request failed (${status})`;
  // a code this app does not know yet is kept as sent: it simply matches none of the codes the app checks
  const code = typeof fields.code === 'string' && fields.code !== '' ? (fields.code as ErrorCode) : undefined;
  const err = new ApiError(message, status, code, explained);
  if (status === 401 && sentToken && isTokenFailure(err)) onTokenFailed();
  return err;
}

export interface ApiOptions extends Omit<RequestInit, 'body'> {
  json?: unknown;
}

/** What a request that got no answer at all says (the network is down, or the server unreachable). */
export const NETWORK_FAILED = 'Could not reach the store. Check your connection and try again.';

/**
 * The text to show for a failed request: the server's own message when it gave one, otherwise the screen's
 * `fallback` ('Failed to load order', 'Update failed.'…), never the browser's "Failed to fetch" or a bare status.
 */
export function failureText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.explained ? err.message : fallback;
}

export async function api<T>(path: string, { json, headers, ...init }: ApiOptions = {}): Promise<T> {
  const token = tokenProvider();
  const res = await send(path, {
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
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw unreachable(err);
  }
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) throw errorFromResponse(res.status, data, Boolean(token));
  return data as T;
}

/** A request that got no answer becomes an unexplained ApiError of status 0; a caller's abort stays as it is. */
function unreachable(err: unknown): unknown {
  if (err instanceof DOMException && err.name === 'AbortError') return err;
  return new ApiError(NETWORK_FAILED, 0, undefined, false);
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (err) {
    throw unreachable(err);
  }
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
