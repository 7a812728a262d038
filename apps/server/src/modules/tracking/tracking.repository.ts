import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { trackingEvents, trackingNumbers } from '#server/db/schema/index.ts';

export type TrackingEventRow = typeof trackingEvents.$inferSelect;
const EVENTS_MAX = 200;

export const trackingRepository = {
  /** Events of every order's entry with this number (one parcel can serve two orders), newest first. */
  async eventsByNumber(db: Db, number: string): Promise<TrackingEventRow[]> {
    return db
      .select({
        id: trackingEvents.id,
        trackingNumberId: trackingEvents.trackingNumberId,
        occurredAt: trackingEvents.occurredAt,
        status: trackingEvents.status,
        location: trackingEvents.location,
        createdAt: trackingEvents.createdAt,
      })
      .from(trackingEvents)
      .innerJoin(trackingNumbers, eq(trackingNumbers.id, trackingEvents.trackingNumberId))
      .where(sql`upper(${trackingNumbers.number}) = ${number.toUpperCase()}`)
      .orderBy(desc(trackingEvents.occurredAt), desc(trackingEvents.id))
      .limit(EVENTS_MAX);
  },

  async findNumber(db: Db, orderId: string, id: string) {
    const [row] = await db
      .select()
      .from(trackingNumbers)
      .where(and(eq(trackingNumbers.id, id), eq(trackingNumbers.orderId, orderId)));
    return row;
  },

  async insertEvent(db: Db, values: typeof trackingEvents.$inferInsert): Promise<void> {
    await db.insert(trackingEvents).values(values);
  },

  async eventsOf(db: Db, trackingNumberId: string): Promise<TrackingEventRow[]> {
    return db
      .select()
      .from(trackingEvents)
      .where(eq(trackingEvents.trackingNumberId, trackingNumberId))
      .orderBy(desc(trackingEvents.occurredAt), desc(trackingEvents.id))
      .limit(EVENTS_MAX);
  },
};
