import { AUTH_MESSAGES, ERROR_CODES, type ErrorCode } from '@store/shared';

/** The code an answer of this status carries when nothing more specific is known. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return ERROR_CODES.NO_TOKEN;
    case 403:
      return ERROR_CODES.FORBIDDEN;
    case 404:
      return ERROR_CODES.NOT_FOUND;
    case 408:
      return ERROR_CODES.REQUEST_TIMEOUT;
    case 409:
      return ERROR_CODES.CONFLICT;
    case 413:
      return ERROR_CODES.PAYLOAD_TOO_LARGE;
    case 414:
      return ERROR_CODES.URI_TOO_LONG;
    case 415:
      return ERROR_CODES.UNSUPPORTED_MEDIA_TYPE;
    case 429:
      return ERROR_CODES.RATE_LIMITED;
    case 431:
      return ERROR_CODES.HEADERS_TOO_LARGE;
    case 502:
      return ERROR_CODES.UPSTREAM_FAILED;
    case 503:
      return ERROR_CODES.SERVICE_UNAVAILABLE;
    case 507:
      return ERROR_CODES.INSUFFICIENT_STORAGE;
    default:
      return status >= 500 ? ERROR_CODES.INTERNAL : ERROR_CODES.BAD_REQUEST;
  }
}

/**
 * Typed errors: services throw them, one error handler maps them to a status and `{ message, code }`.
 * The code defaults to the status's (codeForStatus); a specific one is passed where clients decide on it.
 */
export class HttpError extends Error {
  readonly code: ErrorCode;
  constructor(
    readonly statusCode: number,
    message: string,
    code?: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
    this.code = code ?? codeForStatus(statusCode);
  }
}
export class BadRequestError extends HttpError {
  constructor(message = 'Bad request', code: ErrorCode = ERROR_CODES.BAD_REQUEST) {
    super(400, message, code);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message: string = AUTH_MESSAGES.noToken, code: ErrorCode = ERROR_CODES.NO_TOKEN) {
    super(401, message, code);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message: string = AUTH_MESSAGES.notAdmin, code: ErrorCode = ERROR_CODES.FORBIDDEN) {
    super(403, message, code);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found', code: ErrorCode = ERROR_CODES.NOT_FOUND) {
    super(404, message, code);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string, code: ErrorCode = ERROR_CODES.CONFLICT) {
    super(409, message, code);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(message = 'Too many requests, please try again later.', code: ErrorCode = ERROR_CODES.RATE_LIMITED) {
    super(429, message, code);
  }
}
/** A service the store needs (the database) is briefly out of reach: the same request may work in a moment. */
export class ServiceUnavailableError extends HttpError {
  constructor(
    message = 'Service temporarily unavailable, please try again',
    code: ErrorCode = ERROR_CODES.SERVICE_UNAVAILABLE,
  ) {
    super(503, message, code);
  }
}
/** An outside service (PayPal) refused or did not answer: the message says what the user can do. */
export class BadGatewayError extends HttpError {
  constructor(message: string, code: ErrorCode = ERROR_CODES.UPSTREAM_FAILED) {
    super(502, message, code);
  }
}
/** The disk is full: nothing was stored. */
export class InsufficientStorageError extends HttpError {
  constructor(
    message = 'Not enough storage space on the server, please try again later',
    code: ErrorCode = ERROR_CODES.INSUFFICIENT_STORAGE,
  ) {
    super(507, message, code);
  }
}
