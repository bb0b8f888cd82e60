import { useCallback } from 'react';
import { baseApi } from '../../../../lib/api/base-api';
import { rowErrorsOf } from '../../../../lib/api/upload-errors';
import { startUpload, type UploadHandle, type UploadRequest } from '../../../../lib/api/upload';
import { notifyError, notifySuccess } from '../../../../lib/toast';
import { useAppDispatch, useAppStore } from '../../../../lib/hooks';
import {
  uploadFailed, uploadProgressed, uploadRemoved, uploadSent, uploadStarted, uploadSucceeded, type UploadKind,
} from '../../../../lib/state/uploads-slice';

/** A list cache tag the upload changes (the features' tag names: Location, ReceivingOrder, Sku, Stock). */
export type ListTag = { type: string; id?: string | number } | string;

/** The running requests, by upload id: kept out of Redux, where only serialisable state belongs. */
const running = new Map<string, UploadHandle>();

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
      void handle.done.then((result) => {
        running.delete(id);
        if (result.ok) {
          dispatch(uploadSucceeded({ id, message: result.message }));
          notifySuccess(result.message);
          dispatch(baseApi.util.invalidateTags(invalidates as never));
        } else if (!result.aborted) {
          const { rows, notes } = rowErrorsOf(result.details);
          dispatch(uploadFailed({ id, message: result.message, rowErrors: rows.map(({ row, column, message }) => ({ row, column, message })), notes }));
          notifyError(`Error: ${result.message}`);
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
      dispatch(uploadRemoved(id));
    },
    [dispatch],
  );

  return { start, stop };
}
