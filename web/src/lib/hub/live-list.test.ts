import { afterEach, describe, expect, it } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { baseApi } from '../api/base-api';
import { createHubEventBus } from './hub-events';
import { LIVE_RELOAD_DEBOUNCE_MS, liveAll, liveList, liveRecord, notifyLists, reloadOn } from './live-list';

interface Row {
  uniqueid: number;
  warehouseName: string;
}
interface Args {
  filters: Record<string, unknown>;
  searchQuery: string;
  pageNumber: number;
  pageSize: number;
}

/** A list endpoint backed by an in-memory "server", live on a private bus. */
function setup() {
  const bus = createHubEventBus();
  const server = { rows: [{ uniqueid: 1, warehouseName: 'Oslo' }, { uniqueid: 2, warehouseName: 'Bergen' }] as Row[], calls: 0 };
  const name = `liveTest${Math.random().toString(36).slice(2)}`;
  const api = baseApi.injectEndpoints({
    endpoints: (build) => ({
      [name]: build.query<{ items: Row[]; totalCount: number }, Args>({
        queryFn: (args) => {
          server.calls += 1;
          const rows = server.rows.filter((r) => r.warehouseName.toLowerCase().includes(args.searchQuery.toLowerCase()));
          return { data: { items: rows.slice(0, args.pageSize), totalCount: rows.length } };
        },
        onCacheEntryAdded: liveList<'ReceiveWareHousedata', Row, Args>(
          { event: 'ReceiveWareHousedata', idOf: (r) => r.uniqueid, toChange: (e) => ({ type: 'upsert', item: e.payload as Row }) },
          bus,
        ),
      }),
      [`${name}Update`]: build.mutation<{ data: Row }, Row>({
        queryFn: (row) => ({ data: { data: row } }),
        onQueryStarted: notifyLists<Row, { data: Row }, Args>(name, { toItem: (r) => r.data, idOf: (r) => r.uniqueid }),
      }),
    }),
  });
  const store = configureStore({ reducer: { [baseApi.reducerPath]: baseApi.reducer }, middleware: (d) => d().concat(baseApi.middleware) });
  // The generated endpoints have computed names; reach them untyped.
  const endpoints = api.endpoints as unknown as Record<string, {
    initiate(arg: unknown): { unwrap(): Promise<unknown>; unsubscribe(): void };
    select(arg: unknown): (s: unknown) => { data?: { items: Row[]; totalCount: number } };
  }>;
  const list = endpoints[name];
  const data = (args: Args) => list.select(args)(store.getState()).data;
  const subscribe = async (args: Args) => {
    const sub = store.dispatch(list.initiate(args) as never) as unknown as { unwrap(): Promise<unknown>; unsubscribe(): void };
    await sub.unwrap();
    // Not `return sub`: it is a promise itself, and an async function would unwrap it.
    return { unsubscribe: () => sub.unsubscribe() };
  };
  const edit = (row: Row) => (store.dispatch(endpoints[`${name}Update`].initiate(row) as never) as unknown as { unwrap(): Promise<unknown> }).unwrap();
  return { bus, server, store, data, subscribe, edit };
}

const args = (over: Partial<Args> = {}): Args => ({ filters: {}, searchQuery: '', pageNumber: 1, pageSize: 10, ...over });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const subs: { unsubscribe(): void }[] = [];
afterEach(() => subs.splice(0).forEach((s) => s.unsubscribe()));

describe('liveList on an RTK Query list endpoint', () => {
  it('puts an added record at the top of the cached page and counts it, without a request', async () => {
    const t = setup();
    subs.push(await t.subscribe(args()));
    t.bus.emit('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: { uniqueid: 3, warehouseName: 'Trondheim' } });
    expect(t.data(args())).toEqual({
      items: [{ uniqueid: 3, warehouseName: 'Trondheim' }, { uniqueid: 1, warehouseName: 'Oslo' }, { uniqueid: 2, warehouseName: 'Bergen' }],
      totalCount: 3,
    });
    expect(t.server.calls).toBe(1);
  });

  it('replaces an updated record in place', async () => {
    const t = setup();
    subs.push(await t.subscribe(args()));
    t.bus.emit('ReceiveWareHousedata', { subEvent: 'UpdateWarehouse', payload: { uniqueid: 2, warehouseName: 'Bergen Havn' } });
    expect(t.data(args())).toEqual({ items: [{ uniqueid: 1, warehouseName: 'Oslo' }, { uniqueid: 2, warehouseName: 'Bergen Havn' }], totalCount: 2 });
  });

  it('reloads a searched list once for a burst of events, instead of guessing', async () => {
    const t = setup();
    const searched = args({ searchQuery: 'os' });
    subs.push(await t.subscribe(searched));
    t.server.rows.push({ uniqueid: 3, warehouseName: 'Oslo Sør' }, { uniqueid: 4, warehouseName: 'Molde' });
    t.bus.emit('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: { uniqueid: 3, warehouseName: 'Oslo Sør' } });
    t.bus.emit('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: { uniqueid: 4, warehouseName: 'Molde' } });
    expect(t.data(searched)?.items).toHaveLength(1); // nothing guessed
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(t.server.calls).toBe(2);
    expect(t.data(searched)).toEqual({ items: [{ uniqueid: 1, warehouseName: 'Oslo' }, { uniqueid: 3, warehouseName: 'Oslo Sør' }], totalCount: 2 });
  });

  it('fetches again after a reconnect, since events may have been missed', async () => {
    const t = setup();
    subs.push(await t.subscribe(args()));
    t.server.rows.push({ uniqueid: 5, warehouseName: 'Tromsø' });
    t.bus.resync();
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(t.server.calls).toBe(2);
    expect(t.data(args())?.items).toHaveLength(3);
  });

  it('stops following once the list leaves the cache', async () => {
    const t = setup();
    let following = 0;
    const on = t.bus.on.bind(t.bus);
    t.bus.on = (name, handler) => {
      following += 1;
      const off = on(name, handler);
      return () => {
        following -= 1;
        off();
      };
    };
    const sub = await t.subscribe(args());
    expect(following).toBe(1);
    sub.unsubscribe();
    t.store.dispatch(baseApi.util.resetApiState());
    await sleep(10);
    expect(following).toBe(0);
  });
});

describe('notifyLists (the notify flag after a local edit)', () => {
  it('replaces the edited record in every cached list at once, and reloads the searched one', async () => {
    const t = setup();
    const searched = args({ searchQuery: 'berg' });
    subs.push(await t.subscribe(args()), await t.subscribe(searched));
    t.server.rows[1] = { uniqueid: 2, warehouseName: 'Stavanger' };
    await t.edit({ uniqueid: 2, warehouseName: 'Stavanger' });
    expect(t.data(args())?.items).toContainEqual({ uniqueid: 2, warehouseName: 'Stavanger' });
    await sleep(50);
    // The searched list no longer matches the renamed record: the server says so.
    expect(t.data(searched)).toEqual({ items: [], totalCount: 0 });
  });
});

describe('liveRecord (a detail drawer\'s record)', () => {
  it('replaces the cached record with the one the event carries, and only that record', async () => {
    const bus = createHubEventBus();
    const name = `liveRecord${Math.random().toString(36).slice(2)}`;
    const api = baseApi.injectEndpoints({
      endpoints: (build) => ({
        [name]: build.query<Row, number>({
          queryFn: (id) => ({ data: { uniqueid: id, warehouseName: 'Oslo' } }),
          onCacheEntryAdded: liveRecord<'ReceiveWareHousedata', Row, number>(
            { event: 'ReceiveWareHousedata', toRecord: (e, id) => ((e.payload as Row).uniqueid === id ? (e.payload as Row) : null) },
            bus,
          ),
        }),
      }),
    });
    const store = configureStore({ reducer: { [baseApi.reducerPath]: baseApi.reducer }, middleware: (d) => d().concat(baseApi.middleware) });
    const endpoint = (api.endpoints as unknown as Record<string, { initiate(a: number): never; select(a: number): (s: unknown) => { data?: Row } }>)[name];
    const sub = store.dispatch(endpoint.initiate(1)) as unknown as { unwrap(): Promise<unknown>; unsubscribe(): void };
    await sub.unwrap();
    bus.emit('ReceiveWareHousedata', { subEvent: 'UpdateWarehouse', payload: { uniqueid: 2, warehouseName: 'Other' } });
    expect(endpoint.select(1)(store.getState()).data).toEqual({ uniqueid: 1, warehouseName: 'Oslo' });
    bus.emit('ReceiveWareHousedata', { subEvent: 'UpdateWarehouse', payload: { uniqueid: 1, warehouseName: 'Oslo Havn' } });
    expect(endpoint.select(1)(store.getState()).data).toEqual({ uniqueid: 1, warehouseName: 'Oslo Havn' });
    sub.unsubscribe();
  });
});

describe('reloadOn and liveAll (lists whose rows the payload cannot build)', () => {
  it('fetches again for the events that concern the entry only, from any of the events it follows', async () => {
    const bus = createHubEventBus();
    const server = { calls: 0 };
    const name = `reloadOn${Math.random().toString(36).slice(2)}`;
    const api = baseApi.injectEndpoints({
      endpoints: (build) => ({
        [name]: build.query<number, number>({
          queryFn: () => ({ data: ++server.calls }),
          onCacheEntryAdded: liveAll(
            reloadOn<'ReceiveCycleCountData', number>('ReceiveCycleCountData', (e, id) => e.payload.cycleCountId === id, bus),
            reloadOn('ReceiveInventoryData', undefined, bus),
          ),
        }),
      }),
    });
    const store = configureStore({ reducer: { [baseApi.reducerPath]: baseApi.reducer }, middleware: (d) => d().concat(baseApi.middleware) });
    const endpoint = (api.endpoints as unknown as Record<string, { initiate(a: number): never }>)[name];
    const sub = store.dispatch(endpoint.initiate(7)) as unknown as { unwrap(): Promise<unknown>; unsubscribe(): void };
    await sub.unwrap();
    bus.emit('ReceiveCycleCountData', { subEvent: 'UpdateCycleCount', payload: { cycleCountId: 8, status: 'Counted' } });
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(server.calls).toBe(1); // another count
    bus.emit('ReceiveCycleCountData', { subEvent: 'UpdateCycleCount', payload: { cycleCountId: 7, status: 'Counted' } });
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(server.calls).toBe(2);
    bus.emit('ReceiveInventoryData', { subEvent: 'Move', payload: { document: 'MV-1', skuId: 1, locationIds: [1] } });
    await sleep(LIVE_RELOAD_DEBOUNCE_MS + 100);
    expect(server.calls).toBe(3);
    sub.unsubscribe();
  });
});
