import { ERROR_CODES, type ErrorCode } from '@bolx/contracts';

/** A failure a caller can act on. The error handler turns it into the API_ERROR body; nothing else does. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: string | Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: string | Record<string, string>) =>
  new AppError(400, ERROR_CODES.VALIDATION, message, details);
export const unauthenticated = (message = 'Authentication required') =>
  new AppError(401, ERROR_CODES.UNAUTHENTICATED, message);
export const forbidden = (message = 'You are not authorized for this action') =>
  new AppError(403, ERROR_CODES.FORBIDDEN, message);
export const notFound = (what: string) => new AppError(404, ERROR_CODES.NOT_FOUND, `${what} not found`);
export const conflict = (message: string, details?: string) => new AppError(409, ERROR_CODES.CONFLICT, message, details);
export const unprocessable = (message: string, details?: string | Record<string, string>) =>
  new AppError(422, ERROR_CODES.UNPROCESSABLE, message, details);
export const throttled = (retryAfterSeconds: number) =>
  new AppError(429, ERROR_CODES.THROTTLED, 'Too many attempts. Please try again later.',
    `Try again in ${retryAfterSeconds} seconds`, { 'retry-after': String(retryAfterSeconds) });
