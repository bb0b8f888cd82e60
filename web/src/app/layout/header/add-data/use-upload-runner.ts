import { useCallback } from 'react';
import { baseApi } from '../../../../lib/api/base-api';
import { rowErrorsOf } from '../../../../lib/api/upload-errors';
import { startUpload, type UploadHandle, type UploadRequest } from '../../../../lib/api/upload';
import { followJob, jobsApi } from '../../../../lib/api/jobs-api';
import { notifyError, notifySuccess } from '../../../../lib/toast';
import { useAppDispatch, useAppStore } from '../../../../lib/hooks';
import {
  uploadFailed, uploadProgressed, uploadRemoved, uploadSent, uploadStarted, uploadSucceeded, type UploadKind,
} from '../../../../lib/state/uploads-slice';

/** A list cache tag the upload changes (the features' tag names: Location, ReceivingOrder, Sku, Stock). */
export type ListTag = { type: string; id?: string | number } | string;

/** The running requests, by upload id: kept out of Redux, where only serialisable state belongs. */
const running = new Map<string, UploadHandle>();
/** Uploads the server handed to a background job (202): the job, and how to stop following it. */
const following = new Map<string, { jobId: number; stop: () => void }>();

/** The server's 202 for a large upload: the job that will do it. */
const queuedJobOf = (status: number, data: unknown): number | null =>
  status === 202 && typeof (data as { jobId?: unknown } | null)?.jobId === 'number' ? (data as { jobId: number }).jobId : null;

const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/**
 * Starts uploads with a floating progress card each, and stops them. On the server's answer: a success toast
 * with its text and the affected lists refetched; a failure toast and the row errors on the card.
 */
export function useUploadRunner() {
  const store = useAppStore();
  const dispatch = useAppDispatch();

  const start = useCallback(
    (kind: UploadKind, request: Omit<UploadRequest, 'idempotencyKey'>, invalidates: ListTag[]) => {
      const id = newId();
      dispatch(uploadStarted({ id, kind, title: request.file.name, total: request.file.size }));
      const handle = startUpload(store, { ...request, idempotencyKey: id }, {
        onProgress: (completed, total) => dispatch(uploadProgressed({ id, completed, total })),
        onSent: () => dispatch(uploadSent(id)),
      });
      running.set(id, handle);
      const succeeded = (message: string) => {
        dispatch(uploadSucceeded({ id, message }));
        notifySuccess(message);
        dispatch(baseApi.util.invalidateTags(invalidates as never));
      };
      const failed = (message: string, details: unknown) => {
        const { rows, notes } = rowErrorsOf(details);
        dispatch(uploadFailed({ id, message, rowErrors: rows.map(({ row, column, message: text }) => ({ row, column, message: text })), notes }));
        notifyError(`Error: ${message}`);
      };
      void handle.done.then((result) => {
        running.delete(id);
        const jobId = result.ok ? queuedJobOf(result.status, result.data) : null;
        if (jobId !== null) {
          // A large file: the card stays "processing" until its job ends (over the hub, or the status API).
          following.set(id, { jobId, stop: followJob(jobId, {
            fetchJob: async (job) => {
              const read = store.dispatch(jobsApi.endpoints.getJob.initiate(job, { subscribe: false, forceRefetch: true }));
              return (await read).data;
            },
            onDone: (job) => {
              following.delete(id);
              const answer = job.result as { message?: unknown } | null;
              if (job.status === 'succeeded') succeeded(typeof answer?.message === 'string' ? answer.message : 'Uploaded successfully');
              else failed(job.status === 'cancelled' ? 'The upload was cancelled' : job.error?.message ?? 'The upload failed', job.error?.details);
            },
          }) });
        } else if (result.ok) {
          succeeded(result.message);
        } else if (!result.aborted) {
          failed(result.message, result.details);
        }
      });
      return id;
    },
    [dispatch, store],
  );

  /** Stops a running upload (aborts its request) or dismisses a finished card. */
  const stop = useCallback(
    (id: string) => {
      running.get(id)?.abort();
      running.delete(id);
      // Stopping a card whose job has not started cancels the job; one already running finishes (its work is all
      // or nothing), and the card just stops following it.
      const job = following.get(id);
      if (job) {
        job.stop();
        void store.dispatch(jobsApi.endpoints.cancelJob.initiate(job.jobId)).then(() => undefined, () => undefined);
      }
      following.delete(id);
      dispatch(uploadRemoved(id));
    },
    [dispatch, store],
  );

  return { start, stop };
}
