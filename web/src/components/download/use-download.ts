import { useCallback, useState } from 'react';
import { useAppStore } from '../../lib/hooks';
import { downloadFile, type DownloadRequest } from '../../lib/api/download';
import { errorToastText, toApiError } from '../../lib/api/api-error';
import { notifyError } from '../../lib/toast';

/**
 * Downloads a file (Excel export, a stored document) with the session's token; a failure toasts
 * 'Error: ' + details. Returns [download, downloading].
 */
export function useDownload(): [(request: DownloadRequest, fallbackName: string) => Promise<boolean>, boolean] {
  const store = useAppStore();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (request: DownloadRequest, fallbackName: string) => {
      setBusy(true);
      try {
        await downloadFile(store, request, fallbackName);
        return true;
      } catch (error) {
        notifyError(errorToastText(toApiError(error)));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [store],
  );
  return [run, busy];
}
