import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ApiErrorBody } from '@bolx/contracts';
import { AppError } from '../platform/errors.js';
import { classifyDbError, SQL_CONFLICT } from '../db/dialect.js';

/**
 * The one error mapper: every failure leaves as {status, message, details, code, requestId}. Never a stack
 * trace, a driver message or SQL text.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const body = toApiError(err, request.id);
    if (body.status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ status: body.status, code: body.code, message: body.message }, 'request refused');
    if (err instanceof AppError && err.headers) void reply.headers(err.headers);
    return reply.status(body.status).send(body);
  });
});

/** The client went away mid-upload (a stopped upload): a client error, never a server one. */
const INTERRUPTED = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'ECONNABORTED']);

export function toApiError(err: FastifyError, requestId: string): ApiErrorBody {
  if (err instanceof AppError) {
    return { status: err.status, message: err.message, details: err.details, code: err.code, requestId };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details: Record<string, string> = {};
    for (const issue of err.validation) {
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || (err.validationContext ?? 'body');
      details[field] ??= issue.message ?? 'Invalid value';
    }
    const first = Object.values(details)[0];
    return { status: 400, message: first ?? 'Validation failed', details, code: ERROR_CODES.VALIDATION, requestId };
  }
  if (INTERRUPTED.has(err.code)) {
    return { status: 400, message: 'The upload was interrupted before the whole file arrived', code: ERROR_CODES.VALIDATION, requestId };
  }
  if (isResponseSerializationError(err)) {
    return { status: 500, message: 'Internal server error', code: ERROR_CODES.INTERNAL, requestId };
  }
  switch (classifyDbError(err)) {
    case 'unique':
      return { status: 409, message: 'A record with the same key already exists', code: ERROR_CODES.CONFLICT, requestId };
    case 'foreign_key':
      return { status: 409, message: 'The record refers to, or is referred to by, other records', code: ERROR_CODES.CONFLICT, requestId };
    case 'check':
    case 'not_null':
      return { status: 422, message: 'The change would break a data rule', code: ERROR_CODES.UNPROCESSABLE, requestId };
    case 'bad_value':
      return { status: 400, message: 'A value is out of range or holds characters that cannot be stored', code: ERROR_CODES.VALIDATION, requestId };
    case 'conflict':
      return { status: 409, message: String(err.message).slice(SQL_CONFLICT.length), code: ERROR_CODES.CONFLICT, requestId };
    case 'busy':
    case 'serialization':
      return { status: 503, message: 'The database is busy, please try again', code: ERROR_CODES.INTERNAL, requestId };
    default:
      break;
  }
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, unsupported media type, body too large): their messages are safe.
    const code = status === 401 ? ERROR_CODES.UNAUTHENTICATED : status === 404 ? ERROR_CODES.NOT_FOUND
      : status === 429 ? ERROR_CODES.THROTTLED : ERROR_CODES.VALIDATION;
    return { status, message: err.message, code, requestId };
  }
  return { status: 500, message: 'Internal server error', details: 'Unexpected error occurred', code: ERROR_CODES.INTERNAL, requestId };
}
