import { errorFromResponse, type ApiError } from './api.ts';

/**
 * How a multipart POST ended: `ok` a 2xx answer with a JSON object; `refused` any other answer, read as
 * lib/api.ts reads a failed answer (a refused bearer token signs out there) with its parsed body kept for the
 * caller's details; `failed` no answer at all; `canceled` stopped by the caller.
 */
export type PostOutcome =
  | { kind: 'ok'; body: object }
  | { kind: 'refused'; error: ApiError; body: unknown }
  | { kind: 'failed' }
  | { kind: 'canceled' };

export interface PostHandle {
  cancel: () => void;
  /** Never rejects: the outcome says how it ended. */
  done: Promise<PostOutcome>;
}

/**
 * POST `form` to `url` with XMLHttpRequest, because fetch reports no upload progress: the bearer token sent as
 * lib/api.ts sends it, `onProgress(loaded, total)` as the body goes out (`total` 0 while it is unknown).
 */
export function postWithProgress(
  url: string,
  form: FormData,
  token: string | undefined,
  onProgress: (loaded: number, total: number) => void,
): PostHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<PostOutcome>((resolve) => {
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object') {
        resolve({ kind: 'ok', body });
        return;
      }
      resolve({ kind: 'refused', error: errorFromResponse(xhr.status, body, Boolean(token)), body });
    };
    xhr.onerror = () => resolve({ kind: 'failed' });
    xhr.onabort = () => resolve({ kind: 'canceled' });
  });
  xhr.open('POST', url);
  xhr.setRequestHeader('Accept', 'application/json');
  if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
  xhr.send(form);
  return { cancel: () => xhr.abort(), done };
}
