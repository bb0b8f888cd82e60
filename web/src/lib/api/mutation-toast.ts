import { notifyError, notifySuccess } from '../toast';
import { errorToastText, toApiError, type ApiError } from './api-error';

/**
 * The one way a screen runs a mutation: success toasts the server's message, failure toasts 'Error: ' + details.
 * Resolves to the answer, or undefined after a failure (already shown).
 */
export async function runMutation<T extends { message?: string }>(
  call: { unwrap(): Promise<T> },
  options: {
    onError?: (error: ApiError) => void;
    silentSuccess?: boolean;
    /** The error toast's text when a screen has its own default (e.g. 'Failed to delete carrier'). */
    errorText?: (error: ApiError) => string;
    /** An answer the screen handles itself (the server asking to confirm): no error toast. */
    quietError?: (error: ApiError) => boolean;
  } = {},
): Promise<T | undefined> {
  try {
    const result = await call.unwrap();
    if (!options.silentSuccess && result?.message) notifySuccess(result.message);
    return result;
  } catch (raw) {
    const error = toApiError(raw);
    if (!options.quietError?.(error)) notifyError((options.errorText ?? errorToastText)(error));
    options.onError?.(error);
    return undefined;
  }
}
