import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import type { Location, Warehouse } from '@bolx/contracts';
import { baseApi } from '../lib/api/base-api';
import { warehousesApi } from '../features/warehouses/warehouses-api';
import { locationsApi } from '../features/locations/locations-api';
import { usersApi } from '../features/users/users-api';

/**
 * The notify flag wired to the master-data update mutations, end to end through RTK Query: a tiny HTTP stand-in
 * answers the calls (no network), and every request is counted.
 */
type Handler = (url: URL, body: unknown) => unknown;
const requests: { method: string; path: string; search: string; body: unknown }[] = [];
let answer: Handler = () => ({});

beforeAll(() => {
  // fetchBaseQuery builds a Request from a relative URL, as a browser would resolve it.
  class RelativeRequest extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://portal.test') : input, init);
    }
  }
  vi.stubGlobal('Request', RelativeRequest);
  vi.stubGlobal('fetch', async (req: Request) => {
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.text();
    const body = text ? JSON.parse(text) : undefined;
    requests.push({ method: req.method, path: url.pathname, search: url.search, body });
    return new Response(JSON.stringify(answer(url, body)), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
afterAll(() => vi.unstubAllGlobals());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function makeStore() {
  return configureStore({
    reducer: { auth: () => ({ accessToken: null }), [baseApi.reducerPath]: baseApi.reducer },
    middleware: (d) => d({ serializableCheck: false, immutableCheck: false }).concat(baseApi.middleware),
  });
}
const calls = (path: string) => requests.filter((r) => r.path.endsWith(path));

const warehouse = (id: number, name: string) => ({ uniqueid: id, warehouseId: id, warehouseName: name }) as unknown as Warehouse;

describe('the notify flag on the warehouse update', () => {
  it('replaces the saved warehouse in an unfiltered list without fetching it again, and reloads a searched one', async () => {
    const store = makeStore();
    let rows = [warehouse(1, 'Oslo'), warehouse(2, 'Bergen')];
    answer = (url, body) => {
      if (url.pathname.endsWith('UpdateWarehouse')) {
        const saved = warehouse(2, (body as { warehouseName: string }).warehouseName);
        rows = rows.map((w) => (w.warehouseId === 2 ? saved : w));
        return { message: 'Warehouse updated successfully', data: saved };
      }
      const q = (url.searchParams.get('searchQuery') ?? '').toLowerCase();
      const items = rows.filter((w) => w.warehouseName.toLowerCase().includes(q));
      return { items, totalCount: items.length, columns: [] };
    };
    const plain = { filters: {}, searchQuery: '', pageNumber: 1, pageSize: 10 };
    const searched = { ...plain, searchQuery: 'berg' };
    const subs = [plain, searched].map((a) => store.dispatch(warehousesApi.endpoints.getWarehouseList.initiate(a)));
    await Promise.all(subs.map((s) => s.unwrap()));
    const listCalls = calls('GetWarehouseListWithColumns').length;

    await store.dispatch(warehousesApi.endpoints.updateWarehouse.initiate({ warehouseId: 2, warehouseName: 'Stavanger' } as never)).unwrap();
    await sleep(50);

    const list = (a: typeof plain) => warehousesApi.endpoints.getWarehouseList.select(a)(store.getState() as never).data;
    expect(list(plain)?.items.map((w) => w.warehouseName)).toEqual(['Oslo', 'Stavanger']);
    // Only the searched list went back to the server: the renamed warehouse no longer matches its search.
    const again = calls('GetWarehouseListWithColumns').slice(listCalls);
    expect(again.map((r) => new URLSearchParams(r.search).get('searchQuery'))).toEqual(['berg']);
    expect(list(searched)).toMatchObject({ items: [], totalCount: 0 });
    subs.forEach((s) => s.unsubscribe());
  });
});

describe('the notify flag on the location update', () => {
  const loc = (id: number, over: Partial<Location> = {}) =>
    ({ uniqueid: id, locationId: id, warehouseId: 1, locationCode: `A-0${id}`, category: 'storage', locationType: 'rack', ...over }) as Location;

  it('replaces the location in place, moves it out of a list whose kind it left, and reloads a filtered list', async () => {
    const store = makeStore();
    let storage = [loc(1), loc(2)];
    answer = (url, body) => {
      if (url.pathname.endsWith('UpdateLocation')) {
        const b = body as { locationId: number; locationType: string; description?: string };
        const saved = loc(b.locationId, { locationType: b.locationType, description: b.description ?? null, category: b.locationType === 'dock' ? 'other' : 'storage' });
        storage = storage.map((l) => (l.locationId === saved.locationId ? saved : l)).filter((l) => l.category === 'storage');
        return { message: 'Location updated successfully', data: saved };
      }
      const zone = (body as { filters?: { zone?: string } }).filters?.zone;
      const items = url.pathname.endsWith('GetOtherLocations') ? [] : storage.filter((l) => !zone || l.zone === zone);
      return { items, totalCount: items.length };
    };
    const scoped = { filters: { warehouseId: 1 }, searchQuery: '', pageNumber: 1, pageSize: 10 };
    const zoned = { ...scoped, filters: { warehouseId: 1, zone: 'A' } };
    const subs = [scoped, zoned].map((a) => store.dispatch(locationsApi.endpoints.getLocations.initiate(a)));
    await Promise.all(subs.map((s) => s.unwrap()));
    const before = calls('GetLocations').length;
    const list = (a: typeof scoped) => locationsApi.endpoints.getLocations.select(a)(store.getState() as never).data;

    // The header's warehouse alone does not count as a filter: the scoped list is patched, not fetched.
    await store.dispatch(locationsApi.endpoints.updateLocation.initiate({ locationId: 1, locationType: 'shelf', description: 'Top' } as never)).unwrap();
    await sleep(50);
    expect(list(scoped)?.items[0]).toMatchObject({ locationId: 1, locationType: 'shelf', description: 'Top' });
    expect(calls('GetLocations').slice(before).map((r) => (r.body as { filters: object }).filters)).toEqual([{ warehouseId: 1, zone: 'A' }]);

    // Now a dock: it leaves the storage list at once, and the count follows.
    await store.dispatch(locationsApi.endpoints.updateLocation.initiate({ locationId: 2, locationType: 'dock' } as never)).unwrap();
    await sleep(50);
    expect(list(scoped)).toMatchObject({ items: [{ locationId: 1 }], totalCount: 1 });
    subs.forEach((s) => s.unsubscribe());
  });
});

describe('the notify flag on the user update', () => {
  it('puts the saved user in the list as a list row (without the form-only fields)', async () => {
    const store = makeStore();
    const row = { uniqueid: 5, userId: 5, username: 'sam', firstName: 'Sam', warehouses: [], customers: [] };
    answer = (url) =>
      url.pathname.endsWith('UpdateUser')
        ? { message: 'User updated successfully', data: { ...row, firstName: 'Samuel', modules: [{ moduleKey: 'SKU' }], emailVerified: true } }
        : { items: [row], totalCount: 1 };
    const args = { filters: {}, searchQuery: '', pageNumber: 1, pageSize: 10 };
    const sub = store.dispatch(usersApi.endpoints.getUsers.initiate(args));
    await sub.unwrap();
    await store.dispatch(usersApi.endpoints.updateUser.initiate({ userId: 5, body: {} as never })).unwrap();
    await sleep(50);
    expect(usersApi.endpoints.getUsers.select(args)(store.getState() as never).data?.items).toEqual([{ ...row, firstName: 'Samuel' }]);
    sub.unsubscribe();
  });
});
