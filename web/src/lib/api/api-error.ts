/**
 * The one error mapper (spec section 8): any failed call becomes an API_ERROR {status, message, details}.
 * Screens and toasts only ever see this shape.
 */
export interface ApiError {
  type: 'API_ERROR';
  status: number;
  message: string;
  details: string;
  /** Seconds from a 429's Retry-After header, when the server sent one. */
  retryAfterSeconds?: number;
  /** The server's message per request field ('lines.1.quantity' → 'At most 3 available'), for forms to show on the field. */
  fields?: Record<string, string>;
}

export const NO_RESPONSE = { message: 'No response from server', details: 'Request was made but no response received' } as const;
export const CLIENT_ERROR = { message: 'Client error', details: 'Unexpected error occurred' } as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Details from a response body, in the spec's order of preference. */
export function detailsFromBody(body: unknown): string | undefined {
  if (nonEmpty(body)) return body;
  if (!isRecord(body)) return undefined;
  if (nonEmpty(body.message)) return body.message;
  if (isRecord(body.details) && nonEmpty(body.details.message)) return body.details.message;
  if (Array.isArray(body.errors)) {
    const list = body.errors.map((e) => (isRecord(e) && nonEmpty(e.message) ? e.message : String(e))).filter(nonEmpty);
    if (list.length) return list.join(', ');
  }
  if (isRecord(body.errors)) {
    const values = Object.values(body.errors).flat().map(String).filter(nonEmpty);
    if (values.length) return values.join(', ');
  }
  if (nonEmpty(body.details)) return body.details;
  return undefined;
}

/** The error forms RTK Query's fetchBaseQuery produces, plus thrown Errors and anything else. */
export function toApiError(error: unknown): ApiError {
  if (isRecord(error) && error.type === 'API_ERROR') return error as unknown as ApiError;
  if (isRecord(error) && 'status' in error) {
    const { status } = error;
    if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return { type: 'API_ERROR', status: 0, ...NO_RESPONSE };
    if (typeof status === 'number' || status === 'PARSING_ERROR') {
      const code = typeof status === 'number' ? status : Number(error.originalStatus) || 500;
      const body = error.data;
      const details = detailsFromBody(body) ?? `Request failed with status ${code}`;
      const message = isRecord(body) && nonEmpty(body.message) ? body.message : details;
      const retry = isRecord(body) && typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : undefined;
      const fields = isRecord(body) && isRecord(body.details) ? Object.fromEntries(Object.entries(body.details).filter(([, v]) => nonEmpty(v))) as Record<string, string> : undefined;
      return {
        type: 'API_ERROR', status: code, message, details, ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
        ...(fields && Object.keys(fields).length ? { fields } : {}),
      };
    }
    if (status === 'CUSTOM_ERROR') {
      return { type: 'API_ERROR', status: 500, message: nonEmpty(error.error) ? error.error : CLIENT_ERROR.message, details: CLIENT_ERROR.details };
    }
  }
  if (error instanceof Error && nonEmpty(error.message)) {
    return { type: 'API_ERROR', status: 500, message: error.message, details: CLIENT_ERROR.details };
  }
  return { type: 'API_ERROR', status: 500, ...CLIENT_ERROR };
}

/**
 * The server's field messages as antd Form `setFields` entries: a dotted path becomes a name path ('lines.1.quantity'
 * → ['lines', 1, 'quantity']). Only the fields the form has (`known`) are kept; the toast still says the rest.
 */
export function formFieldErrors(error: ApiError, known: (name: (string | number)[]) => boolean = () => true): { name: (string | number)[]; errors: string[] }[] {
  return Object.entries(error.fields ?? {})
    .map(([path, message]) => ({ name: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), errors: [message] }))
    .filter((f) => known(f.name));
}

/** What a mutation's error toast says (spec section 8). */
export const errorToastText = (error: ApiError): string => `Error: ${error.details}`;
