import { z } from 'zod';

/** The one error body every failing call answers with (spec section 8, API_ERROR). */
export const apiErrorSchema = z.object({
  status: z.number().int(),
  message: z.string(),
  details: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  code: z.string().optional(),
  requestId: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** Stable machine-readable codes; the message is for people. */
export const ERROR_CODES = {
  VALIDATION: 'VALIDATION',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE',
  THROTTLED: 'THROTTLED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
