import type { FetchArgs } from '@reduxjs/toolkit/query/react';
import { baseQueryWithReauth } from './base-api';
import { toApiError } from './api-error';

/** What a file download asks for: the same url/method/body/params as an RTK Query call. */
export type DownloadRequest = Pick<FetchArgs, 'url' | 'method' | 'body' | 'params'>;

/** `attachment; filename="users-2026-01-01.xlsx"` → `users-2026-01-01.xlsx` (RFC 6266, plain and `filename*`). */
export function fileNameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // a malformed encoding: fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  return name || fallback;
}

/** Saves a blob under a name through a temporary link (the browser's normal download). */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

type StoreApi = { dispatch: (action: never) => unknown; getState: () => unknown };

/**
 * Fetches a file through the api base (bearer token and the 401-refresh rule): its Blob and the name the server
 * gave it. Files never go into the RTK Query cache (a Blob is not serialisable). Throws an ApiError on failure, so
 * callers can toast 'Error: ' + details.
 */
export async function fetchFile(store: StoreApi, request: DownloadRequest, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  const controller = new AbortController();
  const result = await baseQueryWithReauth(
    {
      ...request,
      // Errors come back as JSON ({status, message, details}); only a successful answer is the file.
      responseHandler: async (response) => {
        if (response.ok) return response.blob();
        const type = response.headers.get('content-type') ?? '';
        return type.includes('json') ? response.json() : response.text();
      },
    },
    {
      signal: controller.signal,
      abort: (reason) => controller.abort(reason),
      dispatch: store.dispatch as never,
      getState: store.getState,
      extra: undefined,
      endpoint: 'downloadFile',
      type: 'query',
    },
    {},
  );
  if (result.error) throw toApiError(result.error);
  return { blob: result.data as Blob, fileName: fileNameFromDisposition(result.meta?.response?.headers.get('content-disposition'), fallbackName) };
}

/** Downloads a file (see fetchFile) and saves it under its name; the name is returned. */
export async function downloadFile(store: StoreApi, request: DownloadRequest, fallbackName: string): Promise<string> {
  const { blob, fileName } = await fetchFile(store, request, fallbackName);
  saveBlob(blob, fileName);
  return fileName;
}
