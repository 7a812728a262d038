import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { hashPassword } from '../../lib/password.ts';
import type { Db } from '../client.ts';
import { users } from '../schema/index.ts';

export interface AdminSignIn {
  email: string;
  /** Known only when this process created or reset it, or it is kept in the data dir. */
  password?: string;
  source: 'env' | 'demo';
}

const DEMO_EMAIL = 'admin@store.local';

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD: that active admin exists with that password.
 * Otherwise, on a fresh embedded database: a demo admin with a generated password, kept in the data dir.
 */
export async function ensureAdmin(db: Db, config: Config): Promise<AdminSignIn | undefined> {
  if (config.adminEmail && config.adminPassword) {
    const passwordHash = await hashPassword(config.adminPassword);
    // guests may carry the same address (they are not accounts): only an account can become the admin
    const [existing] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, config.adminEmail), eq(users.isGuest, false)));
    if (existing) {
      await db
        .update(users)
        .set({ isAdmin: true, isActive: true, isGuest: false, passwordHash })
        .where(eq(users.id, existing.id));
    } else {
      await db.insert(users).values({
        username: uniqueUsername(config.adminEmail),
        firstName: 'Store',
        lastName: 'Admin',
        email: config.adminEmail,
        passwordHash,
        isAdmin: true,
        isActive: true,
      });
    }
    return { email: config.adminEmail, source: 'env' };
  }
  if (config.databaseUrl) return undefined;

  const file = path.join(config.dataDir, 'admin-credentials.txt');
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, DEMO_EMAIL), eq(users.isGuest, false)));
  if (existing) {
    const password = existsSync(file) ? /password:\s*(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] : undefined;
    return { email: DEMO_EMAIL, password, source: 'demo' };
  }
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

function uniqueUsername(email: string): string {
  const local = (email.split('@')[0] ?? 'admin').replace(/[^a-zA-Z0-9_.-]/g, '').replace(/^[.-]+/, '');
  return `${local.slice(0, 20) || 'admin'}_${randomBytes(3).toString('hex')}`;
}
