import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { oauthStates, settings } from '#server/db/schema/index.ts';

export const aliexpressRepository = {
  async insertState(db: Db, values: typeof oauthStates.$inferInsert): Promise<void> {
    await db.insert(oauthStates).values(values);
  },

  /** Takes a live state once: the delete is the check, so two callbacks with one state cannot both pass. */
  async takeState(db: Db, provider: string, stateHash: string): Promise<{ userId: string | null } | undefined> {
    const [row] = await db
      .delete(oauthStates)
      .where(
        and(
          eq(oauthStates.stateHash, stateHash),
          eq(oauthStates.provider, provider),
          gt(oauthStates.expiresAt, new Date()),
        ),
      )
      .returning({ userId: oauthStates.userId });
    return row;
  },

  async pruneStates(db: Db): Promise<void> {
    await db.delete(oauthStates).where(lte(oauthStates.expiresAt, new Date()));
  },

  async readSetting(db: Db, key: string): Promise<unknown> {
    const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    return row?.value;
  },

  async writeSetting(db: Db, key: string, value: unknown): Promise<void> {
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  },
};
