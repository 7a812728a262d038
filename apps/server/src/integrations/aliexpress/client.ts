import { createHmac } from 'node:crypto';
import { UpstreamError, isRecord, requestJson } from '../http.ts';

export interface AliexpressApp {
  appKey: string;
  appSecret: string;
  apiBase: string;
}

/** What /auth/token/create answers on success (the fields we keep). */
export interface AliexpressToken {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms. */
  expiresAt: number | null;
  refreshExpiresAt: number | null;
  account: string;
  sellerId: string;
}

export const TOKEN_CREATE_PATH = '/auth/token/create';

/**
 * AliExpress Open Platform signature for /rest system APIs (sign_method=sha256): HMAC-SHA256 keyed with the
 * app secret over the API path followed by every parameter but `sign`, sorted by name, as name+value;
 * upper-case hex.
 */
export function signRequest(apiPath: string, params: Record<string, string>, appSecret: string): string {
  const text =
    apiPath +
    Object.keys(params)
      .filter((k) => k !== 'sign')
      .sort()
      .map((k) => `${k}${params[k]}`)
      .join('');
  return createHmac('sha256', appSecret).update(text, 'utf8').digest('hex').toUpperCase();
}

/** The seller is sent here to authorise the app; AliExpress comes back to `redirectUri` with code and state. */
export function authorizeUrl(
  app: Pick<AliexpressApp, 'appKey' | 'apiBase'>,
  redirectUri: string,
  state: string,
): string {
  const q = new URLSearchParams({
    response_type: 'code',
    force_auth: 'true',
    redirect_uri: redirectUri,
    client_id: app.appKey,
    state,
  });
  return `${app.apiBase.replace(/\/+$/, '')}/oauth/authorize?${q.toString()}`;
}

const num = (v: unknown): number | null => (v === undefined || v === null || v === '' ? null : Number(v) || null);

/** Exchanges an authorisation code for tokens: POST {apiBase}/rest/auth/token/create, signed. */
export async function createToken(app: AliexpressApp, code: string): Promise<AliexpressToken> {
  const params: Record<string, string> = {
    app_key: app.appKey,
    code,
    sign_method: 'sha256',
    timestamp: String(Date.now()),
  };
  params.sign = signRequest(TOKEN_CREATE_PATH, params, app.appSecret);
  const res = await requestJson(`${app.apiBase.replace(/\/+$/, '')}/rest${TOKEN_CREATE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
    body: new URLSearchParams(params).toString(),
  });
  const b = isRecord(res.body) ? res.body : {};
  // success is code "0" with the tokens; failures carry another code and a message
  if (res.status !== 200 || String(b.code ?? '0') !== '0' || typeof b.access_token !== 'string' || !b.access_token)
    throw new UpstreamError(
      `AliExpress token exchange failed (${res.status}): ${String(b.code ?? '')} ${String(b.message ?? '')}`.trim(),
      res.status,
      res.body,
    );
  const now = Date.now();
  const expiresIn = num(b.expires_in);
  const refreshIn = num(b.refresh_expires_in);
  return {
    accessToken: b.access_token,
    refreshToken: typeof b.refresh_token === 'string' ? b.refresh_token : '',
    expiresAt: num(b.expire_time) ?? (expiresIn ? now + expiresIn * 1000 : null),
    refreshExpiresAt: num(b.refresh_token_valid_time) ?? (refreshIn ? now + refreshIn * 1000 : null),
    account: String(b.user_nick || b.account || ''),
    sellerId: String(b.seller_id || b.user_id || ''),
  };
}
