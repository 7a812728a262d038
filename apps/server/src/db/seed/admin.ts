import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Config } from '#server/config.ts';
import { hashPassword, verifyPassword } from '#server/lib/password.ts';
import type { Db } from '../client.ts';
import { authTokens, users } from '../schema/index.ts';

export interface AdminSignIn {
  email: string;
  /** Known only outside production, when this process created the demo admin or it is kept in the data dir. */
  password?: string;
  source: 'env' | 'demo';
}

/** ADMIN_EMAIL belongs to an account that is not an admin: start-up leaves it alone and says so. */
export interface AdminSkipped {
  skipped: string;
}

const DEMO_EMAIL = 'admin@store.local';

/** A database nobody has used yet: no account of any kind (the demo shoppers are added after this is asked). */
export async function isBrandNew(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.isGuest, false)).limit(1);
  return !row;
}

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD: that active admin exists with that password. Start-up creates it only
 * when no account uses the address, and never promotes an existing account that is not an admin (it
 * logs why and starts without one: whoever took the address must not become admin by a restart). An
 * existing admin whose password or active state differ is brought back to them, and every sign-in and
 * link it had ends.
 *
 * Without ADMIN_EMAIL: a demo admin with a generated password, only on a brand-new embedded database
 * outside production (kept in the data dir, so the banner can show it again).
 */
export async function ensureAdmin(
  db: Db,
  config: Config,
  { brandNew }: { brandNew: boolean },
): Promise<AdminSignIn | AdminSkipped | undefined> {
  if (config.adminEmail && config.adminPassword)
    return ensureConfiguredAdmin(db, config.adminEmail, config.adminPassword);
  if (config.databaseUrl || config.isProduction) return undefined;

  const file = path.join(config.dataDir, 'admin-credentials.txt');
  const [existing] = await db
    .select({ id: users.id, isAdmin: users.isAdmin })
    .from(users)
    .where(and(eq(users.email, DEMO_EMAIL), eq(users.isGuest, false)));
  if (existing?.isAdmin) {
    const password = existsSync(file) ? /password:\s*(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] : undefined;
    return { email: DEMO_EMAIL, password, source: 'demo' };
  }
  if (existing || !brandNew) return undefined;
  const password = `Demo-${randomBytes(9).toString('base64url')}1!`;
  await db.insert(users).values({
    username: 'admin',
    firstName: 'Store',
    lastName: 'Admin',
    email: DEMO_EMAIL,
    passwordHash: await hashPassword(password),
    isAdmin: true,
    isActive: true,
  });
  writeFileSync(file, `Demo admin of this data directory\nemail: ${DEMO_EMAIL}\npassword: ${password}\n`, {
    mode: 0o600,
  });
  return { email: DEMO_EMAIL, password, source: 'demo' };
}

async function ensureConfiguredAdmin(db: Db, email: string, password: string): Promise<AdminSignIn | AdminSkipped> {
  // guests may carry the same address (they are not accounts): only accounts count
  const [existing] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), eq(users.isGuest, false)));
  if (!existing) {
    await db.insert(users).values({
      username: uniqueUsername(email),
      firstName: 'Store',
      lastName: 'Admin',
      email,
      passwordHash: await hashPassword(password),
      isAdmin: true,
      isActive: true,
    });
    return { email, source: 'env' };
  }
  if (!existing.isAdmin)
    return {
      skipped:
        `ADMIN_EMAIL: ${email} belongs to an existing account that is not an admin; start-up does not promote ` +
        'accounts, so no admin was ensured. Set ADMIN_EMAIL to an address no account uses, or give that ' +
        'account admin rights from the admin user list.',
    };
  const samePassword = existing.passwordHash ? await verifyPassword(existing.passwordHash, password) : false;
  if (!samePassword || !existing.isActive) {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          isActive: true,
          emailConfirmedAt: existing.emailConfirmedAt ?? new Date(),
          pendingEmail: null,
          ...(samePassword ? {} : { passwordHash: await hashPassword(password) }),
          tokenVersion: sql`${users.tokenVersion} + 1`,
        })
        .where(eq(users.id, existing.id));
      await tx
        .update(authTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(authTokens.userId, existing.id), isNull(authTokens.usedAt)));
    });
  }
  return { email, source: 'env' };
}

function uniqueUsername(email: string): string {
  const local = (email.split('@')[0] ?? 'admin').replace(/[^a-zA-Z0-9_.-]/g, '').replace(/^[.-]+/, '');
  return `${local.slice(0, 20) || 'admin'}_${randomBytes(3).toString('hex')}`;
}
