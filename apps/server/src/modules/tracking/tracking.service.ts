import {
  DATE_MESSAGES,
  TRACKING_MESSAGES,
  cleanText,
  isObjectId,
  parseBoundedDate,
  type MovementEvent,
  type ShipmentTrackingInput,
  type TrackingEmailInput,
  type TrackingEventInput,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import type { TrackingProvider } from '#server/integrations/tracking/index.ts';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import { enqueueMail, orderShippedMail } from '#server/lib/mailer/index.ts';
import { findOrder } from '../orders/orders-read.service.ts';
import { lifecycleRepository } from '../orders/lifecycle.repository.ts';
import { trackingRepository as repo, type TrackingEventRow } from './tracking.repository.ts';

export const toMovement = (e: Pick<TrackingEventRow, 'occurredAt' | 'status' | 'location'>): MovementEvent => ({
  time: e.occurredAt.toISOString(),
  status: e.status,
  location: e.location,
});

/** What the manual provider answers: the movements admins recorded for the number. */
export async function recordedEvents(db: Db, trackingId: string): Promise<MovementEvent[]> {
  return (await repo.eventsByNumber(db, trackingId)).map(toMovement);
}

/** POST /api/orders/shipments/tracking: the movements, newest first (an empty list: 'No movement data yet'). */
export async function trackShipment(
  provider: TrackingProvider,
  input: ShipmentTrackingInput,
): Promise<MovementEvent[]> {
  return (await provider.track(input)).events;
}

/** When a movement happened: the date given (years 1 to 9999 only, as the database reads them), else now. */
function occurredAt(value: string | undefined): Date {
  if (!value?.trim()) return new Date();
  const parsed = parseBoundedDate(value);
  if (parsed === 'invalid') throw new BadRequestError(TRACKING_MESSAGES.badDate);
  if (parsed === 'out-of-range') throw new BadRequestError(DATE_MESSAGES.outOfRange);
  return parsed.date;
}

/** POST /api/orders/{id}/tracking/{trackingNumberId}/events (admin): records a movement; answers them all. */
export async function recordEvent(
  db: Db,
  orderId: string,
  trackingNumberId: string,
  input: TrackingEventInput,
): Promise<MovementEvent[]> {
  const order = await findOrder(db, orderId);
  const number = isObjectId(trackingNumberId) ? await repo.findNumber(db, order.id, trackingNumberId) : undefined;
  if (!number) throw new NotFoundError(TRACKING_MESSAGES.trackingNumberNotFound);
  const status = cleanText(input.status, 200);
  if (!status) throw new BadRequestError(TRACKING_MESSAGES.statusRequired);
  await repo.insertEvent(db, {
    trackingNumberId: number.id,
    status,
    location: cleanText(input.location ?? '', 200),
    occurredAt: occurredAt(input.occurredAt),
  });
  return (await repo.eventsOf(db, number.id)).map(toMovement);
}

/**
 * POST /api/orders/email/send (admin): mails the tracking numbers and their items to the order's e-mail,
 * through the outbox. The address is the order's own: a different one in the body is refused rather than
 * used, so order details never go to an address the buyer did not give.
 */
export async function sendTrackingEmail(
  db: Db,
  input: TrackingEmailInput,
  ctx: { publicUrl: string },
): Promise<{ message: string }> {
  const order = await findOrder(db, input.orderId);
  const given = input.email?.trim().toLowerCase();
  if (given && given !== order.email.toLowerCase()) throw new BadRequestError(TRACKING_MESSAGES.emailMismatch);
  const trackingNumbers = input.bigNumber.map((b) => ({
    number: cleanText(b.number, 64),
    // each item once per number, blanks dropped
    trackingItem: [...new Set(b.trackingItem.map((s) => cleanText(s, 200)).filter(Boolean))],
  }));
  if (trackingNumbers.some((t) => !t.number)) throw new BadRequestError('Tracking number is required');
  const mail = orderShippedMail(ctx.publicUrl, {
    to: order.email,
    name: order.firstName,
    orderId: order.id,
    orderNumber: order.orderNumber,
    trackingNumbers,
  });
  await db.transaction(async (tx) => {
    await enqueueMail(tx, mail);
    await lifecycleRepository.addEvent(tx, order.id, 'email', 'system', mail.subject);
  });
  return { message: TRACKING_MESSAGES.emailSent };
}
