import { afterEach, describe, expect, it } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { baseApi } from '../api/base-api';
import { createHubEventBus } from './hub-events';
import { headerRefreshFor, liveHeader } from './live-header';
import { LIVE_RELOAD_DEBOUNCE_MS } from './live-list';
import { tokenUserId } from './token';

const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.s`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('which events refresh the header filters', () => {
  it('warehouses and customers added or renamed; the signed-in user’s own record, not another user’s', () => {
    expect(headerRefreshFor('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: {} }, 4)).toEqual(['WarehouseClient']);
    expect(headerRefreshFor('ReceiveWareHousedata', { subEvent: 'UpdateWarehouse', payload: {} }, 4)).toEqual(['WarehouseClient']);
    expect(headerRefreshFor('ReceiveCustomerData', { subEvent: 'AddCustomer', payload: {} }, 4)).toEqual(['WarehouseClient']);
    const user = (userId: number) => ({ subEvent: 'UpdateUser' as const, payload: { userId, warehouses: [1], customers: [] } });
    expect(headerRefreshFor('ReceiveUserData', user(4), 4)).toEqual(['WarehouseClient', 'UserModules']);
    expect(headerRefreshFor('ReceiveUserData', user(5), 4)).toEqual([]);
    expect(headerRefreshFor('ReceiveUserData', user(5), null)).toEqual([]);
    expect(headerRefreshFor('ReceiveSkuData', { subEvent: 'SkuAdd', payload: {} }, 4)).toEqual([]);
  });

  it('knows the signed-in user from the access token’s subject', () => {
    expect(tokenUserId(jwt({ sub: '42', exp: 1 }))).toBe(42);
    expect(tokenUserId('not-a-jwt')).toBeNull();
    expect(tokenUserId(null)).toBeNull();
  });
});

describe('liveHeader on the GetWarehouseClient endpoint', () => {
  const subs: { unsubscribe(): void }[] = [];
  afterEach(() => subs.splice(0).forEach((s) => s.unsubscribe()));

  function setup(accessToken: string) {
    const bus = createHubEventBus();
    const server = { calls: 0, warehouses: ['Oslo'] };
    const name = `liveHeader${Math.random().toString(36).slice(2)}`;
    const api = baseApi.injectEndpoints({
      endpoints: (build) => ({
        [name]: build.query<string[], void>({
          queryFn: () => {
            server.calls += 1;
            return { data: [...server.warehouses] };
          },
          providesTags: ['WarehouseClient'],
          onCacheEntryAdded: liveHeader(bus),
        }),
      }),
    });
    const store = configureStore({
      reducer: { auth: () => ({ accessToken }), [baseApi.reducerPath]: baseApi.reducer },
      middleware: (d) => d().concat(baseApi.middleware),
    });
    const endpoint = (api.endpoints as unknown as Record<string, { initiate(a: void): never; select(a: void): (s: unknown) => { data?: string[] } }>)[name];
    const load = async () => {
      const sub = store.dispatch(endpoint.initiate()) as unknown as { unwrap(): Promise<unknown>; unsubscribe(): void };
      await sub.unwrap();
      subs.push({ unsubscribe: () => sub.unsubscribe() });
    };
    return { bus, server, load, data: () => endpoint.select()(store.getState()).data };
  }

  it('fetches the lists again once for a burst of warehouse events, without a page reload', async () => {
    const t = setup(jwt({ sub: '4' }));
    await t.load();
    t.server.warehouses.push('Bergen');
    t.bus.emit('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: { warehouseId: 2, warehouseName: 'Bergen' } });
    t.bus.emit('ReceiveCustomerData', { subEvent: 'AddCustomer', payload: {} });
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(t.server.calls).toBe(2);
    expect(t.data()).toEqual(['Oslo', 'Bergen']);
  });

  it('follows the signed-in user’s own assignments and ignores other users’', async () => {
    const t = setup(jwt({ sub: '4' }));
    await t.load();
    t.bus.emit('ReceiveUserData', { subEvent: 'UpdateUser', payload: { userId: 5, warehouses: [2], customers: [] } });
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(t.server.calls).toBe(1);
    t.server.warehouses = ['Tromsø'];
    t.bus.emit('ReceiveUserData', { subEvent: 'UpdateUser', payload: { userId: 4, warehouses: [3], customers: [] } });
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(t.server.calls).toBe(2);
    expect(t.data()).toEqual(['Tromsø']);
  });
});
