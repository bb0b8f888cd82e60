import { describe, expect, it, vi } from 'vitest';
import { createRefreshQueue, withRefresh, type TokenPair } from './refresh-queue';

/** A fake server: accepts only the current access token; refresh rotates it (once per call), after `delayMs`. */
function fakeServer(opts: { refreshFails?: boolean } = {}) {
  let valid = 'access-1';
  let n = 1;
  const session = { access: 'access-1' as string | null, refresh: 'refresh-1' };
  const refresh = vi.fn(async (): Promise<TokenPair> => {
    await new Promise((r) => setTimeout(r, 5));
    if (opts.refreshFails) throw new Error('401 refresh');
    n += 1;
    valid = `access-${n}`;
    return { accessToken: valid, refreshToken: `refresh-${n}` };
  });
  const onRefreshed = vi.fn((t: TokenPair) => {
    session.access = t.accessToken;
    session.refresh = t.refreshToken;
  });
  const onRefreshFailed = vi.fn(() => {
    session.access = null;
  });
  const queue = createRefreshQueue({ currentAccessToken: () => session.access, refresh, onRefreshed, onRefreshFailed });
  const calls: (string | null)[] = [];
  const send = async (token: string | null) => {
    calls.push(token);
    await new Promise((r) => setTimeout(r, 1));
    const ok = !rejectAll && token === valid;
    return { result: ok ? { data: 'ok', token } : { error: 401 }, unauthorized: !ok };
  };
  let rejectAll = false;
  const expire = () => {
    valid = 'server-rotated-key';
  };
  const rejectEverything = () => {
    rejectAll = true;
  };
  return { session, queue, refresh, onRefreshed, onRefreshFailed, send, calls, expire, rejectEverything, setValid: (v: string) => (valid = v) };
}

describe('401 refresh queue', () => {
  it('passes a request with a good token straight through', async () => {
    const s = fakeServer();
    await expect(withRefresh(s.queue, s.session.access, s.send)).resolves.toEqual({ data: 'ok', token: 'access-1' });
    expect(s.refresh).not.toHaveBeenCalled();
  });

  it('refreshes once for many concurrent 401s and retries each with the new token', async () => {
    const s = fakeServer();
    s.setValid('access-2'); // the access token expired
    const results = await Promise.all(Array.from({ length: 8 }, () => withRefresh(s.queue, s.session.access, s.send)));
    expect(s.refresh).toHaveBeenCalledTimes(1);
    expect(s.onRefreshed).toHaveBeenCalledTimes(1);
    expect(results.every((r) => 'data' in r && r.token === 'access-2')).toBe(true);
    expect(s.session).toEqual({ access: 'access-2', refresh: 'refresh-2' });
  });

  it('retries without a new refresh a request that was sent before an earlier refresh finished', async () => {
    const s = fakeServer();
    s.setValid('access-2');
    await withRefresh(s.queue, s.session.access, s.send); // refresh #1 done
    const late = await withRefresh(s.queue, 'access-1', s.send); // sent with the old token
    expect(late).toEqual({ data: 'ok', token: 'access-2' });
    expect(s.refresh).toHaveBeenCalledTimes(1);
  });

  it('retries only once per request', async () => {
    const s = fakeServer();
    s.rejectEverything(); // not even the refreshed token is accepted
    const result = await withRefresh(s.queue, s.session.access, s.send);
    expect(result).toEqual({ error: 401 });
    expect(s.calls).toHaveLength(2);
  });

  it('rejects every waiting request and ends the session once when the refresh fails', async () => {
    const s = fakeServer({ refreshFails: true });
    s.expire();
    const waiting = Array.from({ length: 5 }, () => s.queue.tokenAfter401('access-1'));
    const settled = await Promise.allSettled(waiting);
    expect(settled.every((r) => r.status === 'rejected')).toBe(true);
    expect(s.refresh).toHaveBeenCalledTimes(1);
    expect(s.onRefreshFailed).toHaveBeenCalledTimes(1);
    expect(s.session.access).toBeNull();
  });

  it('a failed refresh answers each request with its original 401', async () => {
    const s = fakeServer({ refreshFails: true });
    s.expire();
    const results = await Promise.all(Array.from({ length: 3 }, () => withRefresh(s.queue, s.session.access, s.send)));
    expect(results).toEqual([{ error: 401 }, { error: 401 }, { error: 401 }]);
    expect(s.refresh).toHaveBeenCalledTimes(1);
  });
});
