import type { HubEventMap, HubEventName } from '@bolx/contracts';
import { baseApi } from '../api/base-api';
import { hubEvents, type HubEventBus } from './hub-events';
// Not from live-list: this module loads with the shell (GetWarehouseClient), and the list rules need not.
import { LIVE_RELOAD_DEBOUNCE_MS } from './hub-constants';
import { tokenUserId } from './token';

/**
 * What the header filters (GetWarehouseClient: the user's warehouses and customers) fetch again for an event:
 * a warehouse or customer added or renamed, or the signed-in user's own record changed (new warehouses or
 * customers; their modules may have changed too, so the sidebar follows). Another user's record: nothing.
 */
export function headerRefreshFor<K extends HubEventName>(name: K, event: HubEventMap[K], signedInUserId: number | null): string[] {
  switch (name) {
    case 'ReceiveWareHousedata':
    case 'ReceiveCustomerData':
      return ['WarehouseClient'];
    case 'ReceiveUserData': {
      const userId = (event as HubEventMap['ReceiveUserData']).payload?.userId;
      return signedInUserId !== null && userId === signedInUserId ? ['WarehouseClient', 'UserModules'] : [];
    }
    default:
      return [];
  }
}

const FOLLOWED: HubEventName[] = ['ReceiveWareHousedata', 'ReceiveCustomerData', 'ReceiveUserData'];

interface HeaderLifecycle {
  cacheEntryRemoved: Promise<unknown>;
  getState(): unknown;
  dispatch(action: never): unknown;
}

/**
 * Makes the header's warehouse and customer lists live (`onCacheEntryAdded` of GetWarehouseClient): the events
 * above fetch them again (a burst costs one fetch), as does a reconnect. The header keeps its selection while it
 * is still valid (header-slice.ts, header-filters.ts).
 */
export function liveHeader(bus: HubEventBus = hubEvents) {
  return async (_arg: unknown, api: HeaderLifecycle): Promise<void> => {
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (tags: string[]) => {
      if (tags.length === 0) return;
      tags.forEach((tag) => pending.add(tag));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const due = [...pending] as ('WarehouseClient' | 'UserModules')[];
        pending.clear();
        api.dispatch(baseApi.util.invalidateTags(due) as never);
      }, LIVE_RELOAD_DEBOUNCE_MS);
    };
    const signedInUserId = () => tokenUserId((api.getState() as { auth?: { accessToken?: string | null } }).auth?.accessToken);
    const offs = [
      ...FOLLOWED.map((name) => bus.on(name, (event) => refresh(headerRefreshFor(name, event, signedInUserId())))),
      bus.onResync(() => refresh(['WarehouseClient'])),
    ];
    await api.cacheEntryRemoved;
    offs.forEach((off) => off());
    clearTimeout(timer);
  };
}
