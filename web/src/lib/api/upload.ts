import type { SessionTokensView } from './session-events';
import { refreshAccessToken } from './base-api';

/** What an upload sends: multipart text fields and one file. */
export interface UploadRequest {
  url: string;
  fields: Record<string, string | number | undefined>;
  file: File;
  /** More files sent with it, each under its own field name (an order upload's documents). */
  extraFiles?: { field: string; file: File }[];
  /** Sent as Idempotency-Key, the same on the retry after a token refresh, so the server runs it once. */
  idempotencyKey?: string;
}

export interface UploadCallbacks {
  /** Bytes sent so far (XMLHttpRequest upload progress; fetch has no upload progress). */
  onProgress?(loaded: number, total: number): void;
  /** Every byte is sent; the server is working on it. */
  onSent?(): void;
}

/** The server's answer: a mutation's {message, data}, or its API_ERROR {status, message, details}. */
export type UploadResult =
  | { ok: true; status: number; message: string; data: unknown }
  | { ok: false; status: number; message: string; details?: unknown; aborted?: boolean };

export interface UploadHandle {
  done: Promise<UploadResult>;
  /** Stops the upload: the request is aborted and `done` resolves with aborted. */
  abort(): void;
}

type StoreApi = { getState(): unknown; dispatch(action: unknown): unknown };
/** The piece of XMLHttpRequest used here, so a test can stand in for it. */
export type XhrLike = Pick<XMLHttpRequest, 'open' | 'setRequestHeader' | 'send' | 'abort' | 'status' | 'responseText' | 'onload' | 'onerror' | 'onabort'> & {
  upload: Pick<XMLHttpRequestUpload, 'onprogress' | 'onload'>;
};

const messageOf = (body: unknown, fallback: string) =>
  typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : fallback;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends a multipart upload with the session's bearer token, reporting real upload progress. On a 401 it goes
 * through the same single-refresh queue as every API call and retries once with the new token.
 */
export function startUpload(store: StoreApi, request: UploadRequest, callbacks: UploadCallbacks = {}, createXhr: () => XhrLike = () => new XMLHttpRequest()): UploadHandle {
  let current: XhrLike | null = null;
  let aborted = false;

  const send = (token: string | null) =>
    new Promise<UploadResult>((resolve) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(request.fields)) if (value !== undefined && value !== '') form.append(name, String(value));
      form.append('file', request.file, request.file.name);
      for (const extra of request.extraFiles ?? []) form.append(extra.field, extra.file, extra.file.name);
      const xhr = createXhr();
      current = xhr;
      xhr.open('POST', request.url.startsWith('/') ? request.url : `/${request.url}`);
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      if (request.idempotencyKey) xhr.setRequestHeader('Idempotency-Key', request.idempotencyKey);
      xhr.upload.onprogress = (e) => callbacks.onProgress?.(e.loaded, e.lengthComputable ? e.total : request.file.size);
      xhr.upload.onload = () => callbacks.onSent?.();
      xhr.onload = () => {
        const body = parse(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) {
          const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
          resolve({ ok: true, status: xhr.status, message: messageOf(body, 'Uploaded successfully'), data });
        } else {
          const details = typeof body === 'object' && body !== null ? (body as { details?: unknown }).details : undefined;
          resolve({ ok: false, status: xhr.status, message: messageOf(body, `Upload failed (${xhr.status})`), details });
        }
      };
      xhr.onerror = () => resolve({ ok: false, status: 0, message: 'The upload could not reach the server' });
      xhr.onabort = () => resolve({ ok: false, status: 0, message: 'Upload stopped', aborted: true });
      xhr.send(form);
    });

  const tokenOf = () => (store.getState() as SessionTokensView).auth?.accessToken ?? null;
  const done = (async () => {
    const used = tokenOf();
    const first = await send(used);
    if (first.ok || first.status !== 401 || aborted) return first;
    let fresh: string;
    try {
      fresh = await refreshAccessToken(store, used);
    } catch {
      return first;
    }
    if (aborted) return { ok: false, status: 0, message: 'Upload stopped', aborted: true } as const;
    return send(fresh);
  })();

  return {
    done,
    abort() {
      aborted = true;
      current?.abort();
    },
  };
}
