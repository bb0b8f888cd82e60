import { z } from 'zod';
import { field } from './fields.js';

/** A background job's life: queued → running → succeeded | failed (a failed attempt with tries left is queued again). */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINISHED_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** A job as its owner sees it: how far it got and, once finished, its result or its error. */
export const jobView = z.object({
  jobId: z.number(),
  name: z.string(),
  status: z.enum(JOB_STATUSES),
  progress: z.object({ done: z.number(), total: z.number().nullable(), message: z.string().nullable(), percent: z.number().nullable() }),
  attempts: z.number(),
  maxAttempts: z.number(),
  warehouseId: z.number().nullable(),
  customerId: z.number().nullable(),
  ownerUserId: z.number().nullable(),
  /** What the job's work answered (for an upload: the answer the upload route gives). */
  result: z.unknown().nullable(),
  /** Why it failed: the message, and per-field or per-row details when the work gave them. */
  error: z.object({ status: z.number(), message: z.string(), details: z.unknown().optional() }).nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type JobView = z.infer<typeof jobView>;

export const getJobQuery = z.object({ jobId: field.idParam({ message: 'jobId is required' }) });
export const cancelJobRequest = z.object({ jobId: field.id({ message: 'jobId is required' }) });

/** An upload handed to a background job: the route answers at once with the job to follow. */
export const queuedJobResult = z.object({ jobId: z.number(), status: z.enum(JOB_STATUSES) });
export type QueuedJobResult = z.infer<typeof queuedJobResult>;
