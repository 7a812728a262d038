/** Typed errors: services throw them, one error handler maps them to a status and { message }. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class BadRequestError extends HttpError {
  constructor(message = 'Bad request') {
    super(400, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = 'Not authorized, no token') {
    super(401, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = 'Not authorized as an admin') {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(message = 'Too many requests, please try again later.') {
    super(429, message);
  }
}
/** A service the store needs (the database) is briefly out of reach: the same request may work in a moment. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'Service temporarily unavailable, please try again') {
    super(503, message);
  }
}
/** The disk is full: nothing was stored. */
export class InsufficientStorageError extends HttpError {
  constructor(message = 'Not enough storage space on the server, please try again later') {
    super(507, message);
  }
}
