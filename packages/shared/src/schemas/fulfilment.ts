/** Shipment tracking, the tracking e-mail and the AliExpress connection. */
import { z } from 'zod';
import { boundedDate } from './dates.ts';
import { TRACKING_NUMBER_PATTERN, normalizeTrackingNumber, trackingNumberSchema } from './orders.ts';

export const TRACKING_MESSAGES = {
  invalid: 'Invalid shipment data',
  noMovement: 'No movement data yet',
  unavailable: 'Tracking service unavailable, please try again later',
  statusRequired: 'Status is required',
  badDate: 'Invalid date',
  trackingNumberNotFound: 'Tracking number not found',
  emailSent: 'Email sent',
  emailMismatch: 'E-mail does not match the order',
  bigNumberRequired: 'Please add at least one tracking number',
} as const;

export const ALIEXPRESS_MESSAGES = {
  notConfigured: 'AliExpress is not configured',
  // the messages the tracking screens show
  urlFailed: 'Failed to get AliExpress auth URL',
  urlMissing: 'authURL missing in response',
  startFailed: 'Unable to start AliExpress OAuth',
} as const;

const field = (max: number) =>
  z
    .string({ error: TRACKING_MESSAGES.invalid })
    .trim()
    .min(1, TRACKING_MESSAGES.invalid)
    .max(max, TRACKING_MESSAGES.invalid);

/**
 * POST /api/orders/shipments/tracking: every field is needed, else 'Invalid shipment data'. The number is
 * normalised as the shipping form stores it (normalizeTrackingNumber), so a number typed with spaces finds
 * the stored one. `language` is checked but not used: carriers are always asked in English.
 */
export const shipmentTrackingSchema = z.object(
  {
    trackingId: z
      .string({ error: TRACKING_MESSAGES.invalid })
      .max(200, TRACKING_MESSAGES.invalid)
      .overwrite(normalizeTrackingNumber)
      .min(1, TRACKING_MESSAGES.invalid)
      .max(64, TRACKING_MESSAGES.invalid)
      .regex(TRACKING_NUMBER_PATTERN, TRACKING_MESSAGES.invalid),
    destinationCountry: field(56),
    language: field(8).regex(/^[A-Za-z]{2}(-[A-Za-z]{2})?$/, TRACKING_MESSAGES.invalid),
    zipcode: field(16),
  },
  { error: TRACKING_MESSAGES.invalid },
);
export type ShipmentTrackingInput = z.infer<typeof shipmentTrackingSchema>;

/** One movement of a shipment, newest first in every list. */
export const movementEventSchema = z.object({ time: z.string(), status: z.string(), location: z.string() });
export type MovementEvent = z.infer<typeof movementEventSchema>;
export const movementListSchema = z.array(movementEventSchema);

/** POST /api/orders/{id}/tracking/{trackingNumberId}/events (admin, manual provider). */
export const trackingEventInputSchema = z.object({
  status: z
    .string({ error: TRACKING_MESSAGES.statusRequired })
    .trim()
    .min(1, TRACKING_MESSAGES.statusRequired)
    .max(200, 'Status must be at most 200 characters'),
  location: z.string().max(200, 'Location must be at most 200 characters').optional().default(''),
  /** An ISO date-time (or a day) from year 1 to 9999; now when left out or blank. */
  occurredAt: boundedDate({ invalid: TRACKING_MESSAGES.badDate }).optional(),
});
export type TrackingEventInput = z.infer<typeof trackingEventInputSchema>;

/** POST /api/orders/email/send (admin): the tracking numbers and their items, mailed to the order's e-mail. */
export const trackingEmailSchema = z.object({
  orderId: z.string({ error: 'Order id is required' }).max(64),
  bigNumber: z
    .array(
      z.object({
        number: trackingNumberSchema,
        trackingItem: z.array(z.string().max(200)).max(100).default([]),
      }),
      { error: TRACKING_MESSAGES.bigNumberRequired },
    )
    .min(1, TRACKING_MESSAGES.bigNumberRequired)
    .max(20, 'At most 20 tracking numbers'),
  email: z.string().max(254).optional(),
});
export type TrackingEmailInput = z.infer<typeof trackingEmailSchema>;

export const aliexpressAuthUrlSchema = z.object({ authURL: z.string() });
export const aliexpressStatusSchema = z.object({
  configured: z.boolean(),
  connected: z.boolean(),
  account: z.string().nullable(),
  expiresAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
});
export type AliexpressStatus = z.infer<typeof aliexpressStatusSchema>;
