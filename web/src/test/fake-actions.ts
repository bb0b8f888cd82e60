import type { UnknownAction } from '@reduxjs/toolkit';

/** RTK Query's lifecycle actions for one endpoint, built by hand so slices can be tested without fetch. */
function lifecycle(kind: 'query' | 'mutation', endpointName: string, originalArgs: unknown) {
  const type = kind === 'query' ? 'api/executeQuery' : 'api/executeMutation';
  const arg = { type: kind, endpointName, originalArgs, queryCacheKey: `${endpointName}(${JSON.stringify(originalArgs)})` };
  const meta = (requestStatus: string, extra: object = {}) => ({ arg, requestId: 'r1', requestStatus, ...extra });
  return {
    pending: (): UnknownAction => ({ type: `${type}/pending`, payload: undefined, meta: meta('pending', { startedTimeStamp: 1 }) }),
    /** A refetch of the cached entry, as RTK starts one after a tag invalidation (no subscription of its own). */
    refetchPending: (): UnknownAction => ({
      type: `${type}/pending`, payload: undefined,
      meta: { ...meta('pending', { startedTimeStamp: 1 }), arg: { ...arg, subscribe: false, forceRefetch: true } },
    }),
    fulfilled: (payload: unknown): UnknownAction => ({ type: `${type}/fulfilled`, payload, meta: meta('fulfilled', { fulfilledTimeStamp: 2 }) }),
    rejected: (payload: unknown): UnknownAction => ({
      type: `${type}/rejected`,
      payload,
      error: { message: 'Rejected' },
      meta: meta('rejected', { rejectedWithValue: true, aborted: false, condition: false }),
    }),
  };
}

export const loginActions = (args: { username: string; password: string; rememberMe?: boolean }) => lifecycle('mutation', 'login', args);
export const warehouseClientActions = () => lifecycle('query', 'getWarehouseClient', undefined);
export const setDefaultAppActions = (appId: number) => lifecycle('mutation', 'setDefaultApp', appId);
