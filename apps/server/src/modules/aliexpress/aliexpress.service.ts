import { ALIEXPRESS_MESSAGES, type AliexpressStatus } from '@store/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { authorizeUrl, createToken, type AliexpressApp } from '#server/integrations/aliexpress/client.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import { deriveKey, seal, type Sealed } from '#server/lib/secret-box.ts';
import { hashToken, randomToken } from '#server/lib/tokens.ts';
import { aliexpressRepository as repo } from './aliexpress.repository.ts';

const PROVIDER = 'aliexpress';
export const TOKEN_SETTING = 'aliexpress.token';
export const STATE_TTL_MS = 10 * 60_000;
export const ADMIN_RETURN = '/admin/productlist';

/** Kept in settings: the tokens sealed (AES-256-GCM), what the admin screen shows in clear. */
export interface StoredToken {
  sealed: Sealed;
  account: string;
  sellerId: string;
  expiresAt: string | null;
  refreshExpiresAt: string | null;
  connectedAt: string;
}

interface Configured extends AliexpressApp {
  redirectUri: string;
}

function configured(config: Config): Configured | undefined {
  const { appKey, appSecret, apiBase, callbackUrl } = config.aliexpress;
  if (!appKey || !appSecret) return undefined;
  return {
    appKey,
    appSecret,
    apiBase,
    redirectUri: callbackUrl ?? `${config.publicUrl}/api/aliexpress/oauth/callback`,
  };
}

export function requireConfigured(config: Config): Configured {
  const app = configured(config);
  if (!app) throw new BadRequestError(ALIEXPRESS_MESSAGES.notConfigured);
  return app;
}

export const tokenKey = (config: Config) => deriveKey(config.jwtSecret, 'aliexpress-token');

/** GET /api/aliexpress/oauth/url: the authorise address with a fresh single-use state (kept hashed, 10 min). */
export async function startOAuth(db: Db, config: Config, userId: string): Promise<{ authURL: string }> {
  const app = requireConfigured(config);
  await repo.pruneStates(db);
  const state = randomToken();
  await repo.insertState(db, {
    stateHash: hashToken(state),
    provider: PROVIDER,
    userId,
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  return { authURL: authorizeUrl(app, app.redirectUri, state) };
}

/**
 * GET /api/aliexpress/oauth/callback: a known, unexpired state (used up here), then the code exchanged with a
 * signed request and the tokens stored sealed. Answers where to send the admin back to.
 */
export async function finishOAuth(
  db: Db,
  config: Config,
  q: { code?: string; state?: string; error?: string },
  log: FastifyBaseLogger,
): Promise<string> {
  const app = requireConfigured(config);
  const fail = (why: string, extra: object = {}) => {
    log.warn({ ...extra, why }, 'AliExpress connection failed');
    return `${ADMIN_RETURN}?aliexpress=error`;
  };
  if (!q.state || !(await repo.takeState(db, PROVIDER, hashToken(q.state)))) return fail('unknown or used state');
  if (q.error || !q.code) return fail('no code', { error: q.error });
  try {
    const token = await createToken(app, q.code);
    const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : null);
    const stored: StoredToken = {
      sealed: seal(
        tokenKey(config),
        JSON.stringify({ accessToken: token.accessToken, refreshToken: token.refreshToken }),
      ),
      account: token.account,
      sellerId: token.sellerId,
      expiresAt: iso(token.expiresAt),
      refreshExpiresAt: iso(token.refreshExpiresAt),
      connectedAt: new Date().toISOString(),
    };
    await repo.writeSetting(db, TOKEN_SETTING, stored);
  } catch (err) {
    return fail('token exchange', { err });
  }
  return `${ADMIN_RETURN}?aliexpress=connected`;
}

/** GET /api/aliexpress/status: whether the button can work and which account is connected. */
export async function connectionStatus(db: Db, config: Config): Promise<AliexpressStatus> {
  const stored = (await repo.readSetting(db, TOKEN_SETTING)) as StoredToken | undefined;
  return {
    configured: Boolean(configured(config)),
    connected: Boolean(stored?.sealed),
    account: stored?.account || null,
    expiresAt: stored?.expiresAt ?? null,
    connectedAt: stored?.connectedAt ?? null,
  };
}
