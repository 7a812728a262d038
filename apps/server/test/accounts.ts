import { desc, eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { mailOutbox, users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/lib/password.ts';
import { createUser } from './factories.ts';
import type { TestContext } from './helpers.ts';

export const PASSWORD = 'Secret-123!';
let defaultHash: Promise<string> | undefined;

/** A confirmed, active account with a known password, and a bearer token for it. */
export async function createAccount(
  t: TestContext,
  o: Partial<typeof users.$inferInsert> & { password?: string } = {},
) {
  const { password, ...fields } = o;
  const passwordHash = password ? await hashPassword(password) : await (defaultHash ??= hashPassword(PASSWORD));
  const user = await createUser(t.database.db, { passwordHash, ...fields });
  const token = await t.app.signToken(user);
  return { user, token, headers: { authorization: `Bearer ${token}` } };
}

/** The newest mail queued for an address. */
export async function lastMailTo(db: Db, to: string) {
  const [row] = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(1);
  return row;
}

export async function mailCount(db: Db, to: string): Promise<number> {
  return (await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.to, to))).length;
}

/** Test apps: the mail worker stays off (tests read the outbox or call app.mailer.runOnce()). */
export const NO_WORKER = { mailWorker: { enabled: false, pollMs: 60_000 } };
