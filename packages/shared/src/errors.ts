import { z } from 'zod';

/**
 * Machine-readable names of the errors the API answers, sent as `code` beside `message`
 * (`{ "message": "Not authorized, token failed", "code": "TOKEN_FAILED" }`). Clients decide on the
 * code, never on the message text: messages are for people and may be reworded; a code, once
 * published, keeps its meaning.
 */
export const ERROR_CODES = {
  /** The request is malformed or a field breaks a rule; `message` says which. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** A request that changes something carried nothing to change. */
  NOTHING_TO_UPDATE: 'NOTHING_TO_UPDATE',
  /** No bearer token (or guest session) where one is needed. */
  NO_TOKEN: 'NO_TOKEN',
  /** The bearer token is invalid, expired, or its account was changed: the client signs out. */
  TOKEN_FAILED: 'TOKEN_FAILED',
  /** Wrong e-mail or password at sign-in. */
  BAD_CREDENTIALS: 'BAD_CREDENTIALS',
  /** Sign-in of an account whose e-mail address is not confirmed yet. */
  EMAIL_UNCONFIRMED: 'EMAIL_UNCONFIRMED',
  /** Sign-in of an account an admin deactivated. */
  ACCOUNT_DEACTIVATED: 'ACCOUNT_DEACTIVATED',
  /** Signed in, but not allowed (not an admin, not the owner). */
  FORBIDDEN: 'FORBIDDEN',
  /** No such route, or no such thing (product, order, user) behind it. */
  NOT_FOUND: 'NOT_FOUND',
  /** A captcha answer was needed and none was sent. */
  CAPTCHA_REQUIRED: 'CAPTCHA_REQUIRED',
  /** The captcha answer was wrong, expired or already used. */
  CAPTCHA_FAILED: 'CAPTCHA_FAILED',
  /** An order asks for more units than are left. */
  OUT_OF_STOCK: 'OUT_OF_STOCK',
  /** A discount code does not apply to this order (unknown, inactive, not started, ended, used up, below its minimum). */
  COUPON_NOT_APPLICABLE: 'COUPON_NOT_APPLICABLE',
  /** A discount code's last use went to another order placed at the same time. */
  COUPON_USED_UP: 'COUPON_USED_UP',
  /** A variant SKU or a discount code that another one already has. */
  DUPLICATE: 'DUPLICATE',
  /** The order is already paid. */
  ALREADY_PAID: 'ALREADY_PAID',
  /** Any other state conflict (an order in the wrong state for the action). */
  CONFLICT: 'CONFLICT',
  /** The request body (or one of its files) is over the size or count the route takes. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** The body's Content-Type is not one the route reads (JSON, or multipart for uploads). */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** The URL (or one of its path parameters) is longer than the server reads. */
  URI_TOO_LONG: 'URI_TOO_LONG',
  /** The request's headers are larger than the server reads. */
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  /** The request took too long to arrive; the connection is closed. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  /** Too many requests from this client (or for this account) in the window; see Retry-After. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** An outside service (PayPal, a carrier, the address service) failed or answered nonsense. */
  UPSTREAM_FAILED: 'UPSTREAM_FAILED',
  /** The database or the server is briefly unavailable; the same request may work a few seconds later. */
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  /** The server's disk is full: nothing was stored. */
  INSUFFICIENT_STORAGE: 'INSUFFICIENT_STORAGE',
  /** Something failed inside the server; the message says nothing more. */
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Messages fixed by the API's contract, shared by the server (which sends them) and the web app. */
export const AUTH_MESSAGES = {
  noToken: 'Not authorized, no token',
  tokenFailed: 'Not authorized, token failed',
  notAdmin: 'Not authorized as an admin',
} as const;

/** The error body every failed API call answers (also its schema in the API docs). */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
