import { afterEach, describe, expect, it, vi } from 'vitest';
import { startUpload, type XhrLike } from './upload';

/** A stand-in XMLHttpRequest answering each send with the next scripted reply, after reporting progress. */
function fakeXhrs(replies: { status: number; body: unknown }[]) {
  const sent: { headers: Record<string, string>; url: string; form: FormData }[] = [];
  const create = (): XhrLike => {
    const headers: Record<string, string> = {};
    let url = '';
    const xhr = {
      status: 0, responseText: '', upload: { onprogress: null, onload: null },
      onload: null, onerror: null, onabort: null,
      open: (_m: string, u: string) => { url = u; },
      setRequestHeader: (k: string, v: string) => { headers[k] = v; },
      abort: () => (xhr.onabort as unknown as (() => void) | null)?.(),
      send: (form: FormData) => {
        sent.push({ headers, url, form });
        const reply = replies.shift()!;
        queueMicrotask(() => {
          (xhr.upload.onprogress as unknown as (e: object) => void)?.({ loaded: 5, total: 10, lengthComputable: true });
          (xhr.upload.onload as unknown as () => void)?.();
          xhr.status = reply.status;
          xhr.responseText = JSON.stringify(reply.body);
          (xhr.onload as unknown as () => void)?.();
        });
      },
    };
    return xhr as unknown as XhrLike;
  };
  return { create, sent };
}

const store = (token: string) => ({ getState: () => ({ auth: { accessToken: token, refreshtoken: 'r1' } }), dispatch: vi.fn() });
const file = new File(['SKU,Quantity\nA,1\n'], 'count.csv', { type: 'text/csv' });

afterEach(() => vi.unstubAllGlobals());

describe('startUpload', () => {
  it('sends the fields, the file, the bearer token and the idempotency key, reporting progress then the server’s text', async () => {
    const xhrs = fakeXhrs([{ status: 200, body: { message: '3 locations uploaded successfully', data: { count: 3 } } }]);
    const progress: number[] = [];
    const onSent = vi.fn();
    const handle = startUpload(store('t1'), { url: 'warehouse/Location/UploadLocations', fields: { warehouseId: 4, note: undefined }, file, idempotencyKey: 'k1' },
      { onProgress: (loaded) => progress.push(loaded), onSent }, xhrs.create);
    expect(await handle.done).toEqual({ ok: true, status: 200, message: '3 locations uploaded successfully', data: { count: 3 } });
    expect(progress).toEqual([5]);
    expect(onSent).toHaveBeenCalledOnce();
    expect(xhrs.sent[0].url).toBe('/warehouse/Location/UploadLocations');
    expect(xhrs.sent[0].headers).toEqual({ Authorization: 'Bearer t1', 'Idempotency-Key': 'k1' });
    expect(xhrs.sent[0].form.get('warehouseId')).toBe('4');
    expect(xhrs.sent[0].form.has('note')).toBe(false);
    expect((xhrs.sent[0].form.get('file') as File).name).toBe('count.csv');
  });

  it('answers the API error with its details (row errors)', async () => {
    const xhrs = fakeXhrs([{ status: 422, body: { status: 422, message: '1 rows have errors', details: { '2.SKU': 'Row 2, SKU: Unknown' } } }]);
    const result = await startUpload(store('t1'), { url: '/x', fields: {}, file }, {}, xhrs.create).done;
    expect(result).toEqual({ ok: false, status: 422, message: '1 rows have errors', details: { '2.SKU': 'Row 2, SKU: Unknown' } });
  });

  it('on 401 refreshes through the shared queue and retries once with the new token', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ accesstoken: 't2', refreshtoken: 'r2' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const xhrs = fakeXhrs([{ status: 401, body: { message: 'expired' } }, { status: 200, body: { message: 'ok', data: null } }]);
    const s = store('t1');
    const result = await startUpload(s, { url: '/x', fields: {}, file, idempotencyKey: 'k' }, {}, xhrs.create).done;
    expect(result).toMatchObject({ ok: true, message: 'ok' });
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(xhrs.sent.map((x) => x.headers.Authorization)).toEqual(['Bearer t1', 'Bearer t2']);
    expect(xhrs.sent.map((x) => x.headers['Idempotency-Key'])).toEqual(['k', 'k']);
    expect(s.dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'session/refreshed' }));
  });

  it('stops when aborted', async () => {
    const xhrs = fakeXhrs([{ status: 200, body: { message: 'ok' } }]);
    const handle = startUpload(store('t1'), { url: '/x', fields: {}, file }, {}, xhrs.create);
    handle.abort();
    expect(await handle.done).toMatchObject({ ok: false, aborted: true });
  });
});
