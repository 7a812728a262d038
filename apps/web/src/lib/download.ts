import { errorFromResponse } from './api.ts';
import { currentToken } from './auth.ts';

/** Characters no file name may hold on common systems (path separators, reserved and control characters). */
const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/**
 * The file name a `Content-Disposition` header gives: `filename*=UTF-8''…` (percent-encoded) before
 * `filename="…"` or a bare `filename=…`; `fallback` when it names none. Never a path: separators and characters
 * a file system refuses become `_`.
 */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  let name = '';
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header ?? '');
  if (extended) {
    const value = extended[1]!.trim().replace(/^"(.*)"$/, '$1');
    const encoded = /^[\w!#$&+.^`|~-]*'[^']*'(.*)$/.exec(value)?.[1] ?? value;
    try {
      name = decodeURIComponent(encoded);
    } catch {
      name = '';
    }
  }
  if (!name) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:\\.|[^"\\])*)"|([^;]*))/i.exec(header ?? '');
    name = (plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2] ?? '').trim();
  }
  const safe = name.replace(UNSAFE, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  // a name of separators or dots alone names nothing
  return /[\p{L}\p{N}]/u.test(safe) ? safe : fallback;
}

/** Hands `blob` to the browser as a download named `name`, through a short-lived object URL. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // the browser has read the URL once the download has started; some need a moment after the click
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * GET `path` with the bearer token, as lib/api.ts sends it, and save the answer as a file named by its
 * Content-Disposition (else `fallbackName`). A failed answer throws the ApiError lib/api.ts would throw, so a
 * refused token signs out here too.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const token = currentToken();
  const res = await fetch(path, {
    credentials: 'same-origin',
    headers: { Accept: 'text/csv, application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    throw errorFromResponse(res.status, body, Boolean(token));
  }
  saveBlob(await res.blob(), filenameFromDisposition(res.headers.get('content-disposition'), fallbackName));
}
