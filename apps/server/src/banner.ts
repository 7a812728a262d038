import path from 'node:path';
import { listenUrl, type Config } from './config.ts';
import type { AdminSignIn } from './db/seed/admin.ts';

/**
 * The lines printed once the server listens. The store's address is PUBLIC_URL, the base of every e-mail
 * link, so the browser opened from here is the one those links reach; where the server listens is added
 * when that differs (behind a proxy, or a PUBLIC_URL of another host).
 */
export function banner(
  config: Config,
  kind: string,
  admin: AdminSignIn | undefined,
  readySeconds: number,
  extra = '',
): string {
  const url = config.publicUrl;
  const listening = listenUrl(config.host, config.port);
  const lines = [
    '',
    `  Store is running at ${url}  (${kind}${extra}, ready in ${readySeconds.toFixed(1)} s)`,
    ...(listening === url ? [] : [`  Listening on ${listening}`]),
    `  API docs: ${url}/api/docs`,
  ];
  if (admin) {
    // a password is never printed in production
    const password = config.isProduction ? undefined : admin.password;
    lines.push(`  Admin sign-in: ${admin.email} / ${password ?? '(the ADMIN_PASSWORD you set)'}`);
    if (admin.source === 'demo') lines.push(`  (kept in ${path.join(config.dataDir, 'admin-credentials.txt')})`);
  }
  return lines.join('\n') + '\n';
}
