import type { PickJobDetail } from '@bolx/contracts';
import { toApiError } from '../../lib/api/api-error';
import type { Translate } from '../../lib/i18n/use-t';

/** The job an answer names: the job itself, or wrapped as {job} or {data}. */
export function jobIdOf(answer: unknown): number | undefined {
  const a = answer as { jobId?: unknown; job?: { jobId?: unknown }; data?: { jobId?: unknown } } | null;
  const id = a?.jobId ?? a?.job?.jobId ?? a?.data?.jobId;
  return typeof id === 'number' && id > 0 ? id : undefined;
}

/** The job an answer carries whole (with its stops), when it does. */
export function jobOf(answer: unknown): PickJobDetail | undefined {
  const a = answer as { stops?: unknown; job?: PickJobDetail; data?: PickJobDetail } | null;
  const job = a && Array.isArray(a.stops) ? (a as PickJobDetail) : a?.job ?? a?.data;
  return job && Array.isArray(job.stops) ? job : undefined;
}

/**
 * What a failed call tells the person at the scanner: the server's refusal, or, when no answer came (the Wi-Fi
 * dropped it), that the same scan may be sent again — it carries its key, so it takes effect once.
 */
export function refusalOf(raw: unknown, t: Translate): string {
  const error = toApiError(raw);
  return error.status === 0 ? t('handheld.noAnswer') : error.details;
}
