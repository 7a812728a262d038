import type { Db } from '#server/db/client.ts';
import { mailingList } from '#server/db/schema/index.ts';

export const mailingListRepository = {
  /** Adds the address once: a second subscription of the same address changes nothing. */
  async add(db: Db, email: string, source: string): Promise<void> {
    await db.insert(mailingList).values({ email, source }).onConflictDoNothing({ target: mailingList.email });
  },
};
