import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import type { RefreshResponse } from '@bolx/contracts';
import { createRefreshQueue, withRefresh } from './refresh-queue';
import { sessionExpired, sessionRefreshed, type SessionTokensView } from './session-events';

/** Calls where a 401 means "wrong credentials" or "no session", never "token expired". */
const NO_REFRESH_ENDPOINTS = new Set(['login', 'sendResetLink', 'resetPasswordWithToken']);
const REFRESH_PATH = '/Common/Auth/refresh-token';

const rawQuery = fetchBaseQuery({ baseUrl: '/' });

/** The store the refresh queue talks to; set by every call, there is one store per page. */
let store: { getState(): unknown; dispatch(action: unknown): unknown } | null = null;
const tokensOf = () => (store?.getState() as SessionTokensView | undefined)?.auth;

const refreshQueue = createRefreshQueue({
  currentAccessToken: () => tokensOf()?.accessToken ?? null,
  async refresh() {
    const refreshToken = tokensOf()?.refreshtoken;
    if (!refreshToken) throw new Error('No refresh token');
    const res = await fetch(REFRESH_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    if (!res.ok) throw new Error(`Refresh failed with status ${res.status}`);
    const body = (await res.json()) as RefreshResponse;
    return { accessToken: body.accesstoken, refreshToken: body.refreshtoken };
  },
  onRefreshed: (tokens) => store?.dispatch(sessionRefreshed(tokens)),
  onRefreshFailed: () => store?.dispatch(sessionExpired()),
});

/**
 * A new access token for a caller outside RTK Query (the hub's token factory), through the same queue, so it
 * never races a 401 refresh; a failed refresh ends the session as it does for requests.
 */
export function refreshAccessToken(appStore: NonNullable<typeof store>, usedToken: string | null): Promise<string> {
  store ??= appStore;
  return refreshQueue.tokenAfter401(usedToken);
}

type Result = Awaited<ReturnType<typeof rawQuery>>;

/** Adds the Retry-After seconds of a 429 to the error body, for the sign-in screen's message. */
function withRetryAfter(result: Result): Result {
  const error = result.error;
  if (!error || error.status !== 429) return result;
  const seconds = Number(result.meta?.response?.headers.get('Retry-After'));
  if (!Number.isFinite(seconds)) return result;
  const data = typeof error.data === 'object' && error.data !== null ? error.data : {};
  return { ...result, error: { ...error, data: { ...data, retryAfterSeconds: seconds } } };
}

/** fetchBaseQuery + bearer token + the refresh-once-on-401 rule. */
export const baseQueryWithReauth: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta> = async (
  args,
  api,
  extraOptions,
) => {
  store = api;
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const send = async (token: string | null) => {
    const headers = new Headers(request.headers as HeadersInit | undefined);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const result = withRetryAfter(await rawQuery({ ...request, headers }, api, extraOptions));
    return { result, unauthorized: result.error?.status === 401 && !NO_REFRESH_ENDPOINTS.has(api.endpoint) };
  };
  return withRefresh(refreshQueue, tokensOf()?.accessToken ?? null, send);
};

/** The one api base; every feature adds its calls with `baseApi.injectEndpoints`. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: ['UserModules', 'UserApps', 'WarehouseClient', 'Profile', 'Dashboard'],
  endpoints: () => ({}),
});
