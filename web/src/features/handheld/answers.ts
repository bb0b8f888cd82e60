import type { PickJobDetail } from '@bolx/contracts';

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
