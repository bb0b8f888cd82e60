import { z } from 'zod';

/**
 * The building blocks of every request contract: ids, whole numbers and text with the bounds both engines hold.
 * PostgreSQL's INTEGER columns end at 2^31-1 and its text cannot hold a NUL byte; SQLite takes both. A value past
 * these bounds is refused here, with a 400 naming the field, so no engine ever sees it.
 */

/** The largest INTEGER PostgreSQL stores: the bound of every id and whole number a request carries. */
export const INT_MAX = 2_147_483_647;
/** A quantity on one line: far above any real count, far below what a balance column can add up to. */
export const QUANTITY_MAX = 10_000_000;
export const NUL_MESSAGE = 'Must not contain a NUL character';

type NumberParams = Parameters<typeof z.number>[0];
type StringParams = Parameters<typeof z.string>[0];
/** A schema-level message, when given, is also the message of the bound checks (the form shows one text). */
const messageOf = (params: NumberParams | StringParams) => (typeof params === 'string' ? params : undefined);

const hasNoNul = (s: string) => !s.includes('\u0000');

export const field = {
  /** A record id in a JSON body: a positive whole number a PostgreSQL INTEGER holds. */
  id: (params?: NumberParams) => z.number(params).int(messageOf(params)).positive(messageOf(params)).max(INT_MAX, messageOf(params) ?? 'Not a valid id'),
  /** A whole number from min to max (never past INT_MAX). */
  int: (min: number, max: number, params?: NumberParams) =>
    z.number(params).int(messageOf(params)).min(min, messageOf(params)).max(Math.min(max, INT_MAX), messageOf(params) ?? `At most ${Math.min(max, INT_MAX)}`),
  /** A number with a fractional part (weights, dimensions) from min to max. */
  decimal: (min: number, max: number, params?: NumberParams) => z.number(params).min(min, messageOf(params)).max(max, messageOf(params) ?? `At most ${max}`),
  /** An id in a querystring or a multipart text field: the text is read as a number first. */
  idParam: (params?: NumberParams) =>
    z.coerce.number(params).int(messageOf(params)).positive(messageOf(params)).max(INT_MAX, messageOf(params) ?? 'Not a valid id'),
  /** A whole number in a querystring or a multipart text field (0 often meaning "all"). */
  intParam: (min: number, max: number, params?: NumberParams) =>
    z.coerce.number(params).int(messageOf(params)).min(min, messageOf(params)).max(Math.min(max, INT_MAX), messageOf(params) ?? `At most ${Math.min(max, INT_MAX)}`),
  /** Text of at most `max` characters, never with a NUL byte. Chain .trim(), .min(), .regex() as needed. */
  text: (max: number, params?: StringParams, tooLong = `At most ${max} characters`) => z.string(params).max(max, tooLong).refine(hasNoNul, NUL_MESSAGE),
};
