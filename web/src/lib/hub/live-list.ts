import type { HubEventMap, HubEventName } from '@bolx/contracts';
import { baseApi } from '../api/base-api';
import { hubEvents, type HubEventBus } from './hub-events';
import { LIVE_RELOAD_DEBOUNCE_MS } from './hub-constants';
import { applyLiveChange, hasActiveFilters, viewOf, type ListData, type LiveChange, type RecordId } from './list-rules';

export { LIVE_RELOAD_DEBOUNCE_MS };

/** How one list endpoint follows one hub event. */
export interface LiveListSpec<K extends HubEventName, T, Arg> {
  event: K;
  /**
   * What an event means for the list fetched with `arg` (whose current answer is `data`): a change to apply,
   * 'reload' when only the server can tell, or null when the event does not concern this list.
   */
  toChange(event: HubEventMap[K], arg: Arg, data: ListData<T>): LiveChange<T> | 'reload' | null;
  idOf(item: T): RecordId;
  /** Filters or a search active; by default any list argument other than paging and sort that holds a value. */
  isFiltered?(arg: Arg): boolean;
}

/** The part of RTK Query's cache-entry lifecycle a live list uses (method syntax: RTK's own types fit it). */
interface CacheEntryLifecycle {
  cacheDataLoaded: Promise<unknown>;
  cacheEntryRemoved: Promise<unknown>;
  getCacheEntry(): { data?: unknown; endpointName?: string };
  /** RTK's takes a recipe for the endpoint's own result type; ours returns the next answer whole. */
  // `any`: the endpoint may answer any shape that holds the list (a page, an array, a page with columns).
  updateCachedData(recipe: (draft: any) => any): unknown;
  dispatch(action: never): unknown;
}

type Initiate = (arg: unknown, options: { subscribe: boolean; forceRefetch: boolean }) => unknown;

/** Fetches one cached list again, without adding a subscription of its own. */
function refetch(dispatch: (action: never) => unknown, endpointName: string, arg: unknown) {
  const endpoint = (baseApi.endpoints as unknown as Record<string, { initiate: Initiate } | undefined>)[endpointName];
  if (endpoint) dispatch(endpoint.initiate(arg, { subscribe: false, forceRefetch: true }) as never);
}

/**
 * Makes a list endpoint live: `onCacheEntryAdded: liveList(SPEC)`. While the list is cached, each matching hub
 * event is applied to it by the list rules (list-rules.ts); a change only the server can judge, and a reconnect
 * (events may have been missed), fetch it again. Events that arrive while the first answer loads are applied
 * after it (replacing by id makes that safe).
 */
export function liveList<K extends HubEventName, T, Arg>(spec: LiveListSpec<K, T, Arg>, bus: HubEventBus = hubEvents) {
  return async (arg: Arg, api: CacheEntryLifecycle): Promise<void> => {
    let loaded = false;
    const early: HubEventMap[K][] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;

    const reload = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const name = api.getCacheEntry().endpointName;
        if (name) refetch(api.dispatch, name, arg);
      }, LIVE_RELOAD_DEBOUNCE_MS);
    };
    const apply = (event: HubEventMap[K]) => {
      const data = api.getCacheEntry().data as ListData<T> | undefined;
      if (!data) return;
      const change = spec.toChange(event, arg, data);
      if (!change) return;
      if (change === 'reload') return reload();
      const filtered = spec.isFiltered ? spec.isFiltered(arg) : hasActiveFilters(arg);
      const outcome = applyLiveChange(data, change, viewOf(arg, filtered), spec.idOf);
      if (outcome.next !== data) api.updateCachedData(() => outcome.next);
      if (outcome.reload) reload();
    };

    const off = bus.on(spec.event, (event) => (loaded ? apply(event) : early.push(event)));
    const offResync = bus.onResync(reload);
    try {
      await api.cacheDataLoaded;
      loaded = true;
      early.splice(0).forEach(apply);
    } catch {
      // The entry went away before its first answer: nothing to follow.
    }
    await api.cacheEntryRemoved;
    off();
    offResync();
    clearTimeout(timer);
  };
}

/**
 * Makes a one-record endpoint live (a detail drawer's record): `onCacheEntryAdded: liveRecord(SPEC)`. An event
 * that carries the cached record's new state replaces it; a reconnect fetches it again.
 */
export function liveRecord<K extends HubEventName, T, Arg>(
  spec: { event: K; toRecord(event: HubEventMap[K], arg: Arg): T | null },
  bus: HubEventBus = hubEvents,
) {
  return async (arg: Arg, api: CacheEntryLifecycle): Promise<void> => {
    const off = bus.on(spec.event, (event) => {
      const next = spec.toRecord(event, arg);
      if (next && api.getCacheEntry().data !== undefined) api.updateCachedData(() => next);
    });
    const offResync = bus.onResync(() => {
      const name = api.getCacheEntry().endpointName;
      if (name) refetch(api.dispatch, name, arg);
    });
    await api.cacheEntryRemoved;
    off();
    offResync();
  };
}

/**
 * A list (or summary) whose rows cannot be built from an event's payload: it is fetched again (debounced) for
 * each event of its kind in the user's scope, or for those `when` says concern it.
 */
export function reloadOn<K extends HubEventName, Arg = unknown>(event: K, when: (event: HubEventMap[K], arg: Arg) => boolean = () => true, bus?: HubEventBus) {
  return liveList<K, unknown, Arg>({ event, idOf: () => 0, isFiltered: () => false, toChange: (e, arg) => (when(e, arg) ? 'reload' : null) }, bus);
}

/** One endpoint following several events: `onCacheEntryAdded: liveAll(liveList(A), liveList(B))`. */
export function liveAll<Arg>(...lifecycles: ((arg: Arg, api: CacheEntryLifecycle) => Promise<void>)[]) {
  return async (arg: Arg, api: CacheEntryLifecycle): Promise<void> => {
    await Promise.all(lifecycles.map((follow) => follow(arg, api)));
  };
}

/** The part of RTK Query's mutation lifecycle `notifyLists` uses. */
interface MutationLifecycle<R> {
  queryFulfilled: Promise<{ data: R }>;
  getState(): unknown;
  dispatch(action: never): unknown;
}

/**
 * The notify flag (spec section 4, Live events): after this tab's own edit, the updated record from the
 * mutation's answer replaces its entry in every cached list of `listEndpoint` at once (without waiting for the
 * hub), and a list with filters or a search active is fetched again. For a mutation's `onQueryStarted`.
 */
export function notifyLists<T, R, Arg>(
  listEndpoint: string,
  spec: {
    toItem(result: R): T | null | undefined;
    idOf(item: T): RecordId;
    isFiltered?(arg: Arg): boolean;
    /** Whether the record still belongs in a list of this endpoint (e.g. its kind changed); if not, it leaves it. */
    belongs?(item: T, arg: Arg): boolean;
  },
) {
  return async (_mutationArg: unknown, api: MutationLifecycle<R>): Promise<void> => {
    let result: R;
    try {
      ({ data: result } = await api.queryFulfilled);
    } catch {
      return; // the mutation failed: nothing changed
    }
    const item = spec.toItem(result);
    if (!item) return;
    const util = baseApi.util as unknown as {
      selectCachedArgsForQuery(state: unknown, endpoint: string): Arg[];
      updateQueryData(endpoint: string, arg: Arg, recipe: (draft: ListData<T>) => ListData<T>): unknown;
    };
    const endpoint = (baseApi.endpoints as unknown as Record<string, { select(arg: Arg): (state: unknown) => { data?: unknown } } | undefined>)[listEndpoint];
    if (!endpoint) return;
    const state = api.getState();
    for (const arg of util.selectCachedArgsForQuery(state, listEndpoint)) {
      const data = endpoint.select(arg)(state).data as ListData<T> | undefined;
      if (!data) continue;
      const filtered = spec.isFiltered ? spec.isFiltered(arg) : hasActiveFilters(arg);
      const change: LiveChange<T> = spec.belongs && !spec.belongs(item, arg) ? { type: 'delete', id: spec.idOf(item) } : { type: 'upsert', item, notify: true };
      const outcome = applyLiveChange(data, change, viewOf(arg, filtered), spec.idOf);
      if (outcome.next !== data) api.dispatch(util.updateQueryData(listEndpoint, arg, () => outcome.next) as never);
      if (outcome.reload) refetch(api.dispatch, listEndpoint, arg);
    }
  };
}
