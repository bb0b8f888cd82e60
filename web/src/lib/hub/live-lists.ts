import type {
  Customer, HubEventMap, HubEventName, KitComponent, Location, LocationCategory, Sku, SkuAttribute, SkuBarcode, SkuPackage, UserDetails,
  UserListItem, Warehouse,
} from '@bolx/contracts';
import { liveAll, liveList, liveRecord, notifyLists, type LiveListSpec } from './live-list';
import { concernsOpenSku, hasActiveFilters, type ListData, type LiveChange } from './list-rules';

/**
 * The live lists of the master-data screens: each list endpoint goes live with one line,
 * `onCacheEntryAdded: LIVE.warehouses`. Later areas add their entry here (or call `liveList` with their own spec).
 */

type SkuSubEvent = HubEventMap['ReceiveSkuData']['subEvent'];

const itemsOf = <T>(data: ListData<T>): T[] => (Array.isArray(data) ? data : data.items);
const record = <T>(payload: unknown): T | null => (payload && typeof payload === 'object' ? (payload as T) : null);

/** An add or update upserts the event's record; a delete removes it by id. */
function changeOf<T>(payload: unknown, isDelete: boolean, idOf: (item: T) => number): LiveChange<T> | null {
  const item = record<T>(payload);
  if (!item) return null;
  return isDelete ? { type: 'delete', id: idOf(item) } : { type: 'upsert', item };
}

/** The SKU a per-SKU list was fetched for (its argument is the SKU id). */
const skuIdOfArg = (arg: unknown): number | null => {
  if (typeof arg === 'number') return arg;
  const a = arg as { skuid?: unknown; skuId?: unknown } | null;
  const id = Number(a?.skuid ?? a?.skuId);
  return Number.isInteger(id) && id > 0 ? id : null;
};

/**
 * A list of one SKU's parts (packages, barcodes, attributes, kit components) follows only the events of that SKU
 * and its customer (spec section 4): the open SKU is the list's argument, its customer the one its parts belong to.
 */
function skuPartList<T extends { customerid: number }>(
  subEvents: { add: SkuSubEvent[]; remove: SkuSubEvent[] },
  idOf: (item: T) => number,
): LiveListSpec<'ReceiveSkuData', T, number> {
  return {
    event: 'ReceiveSkuData',
    idOf,
    isFiltered: () => false,
    toChange(event, arg, data) {
      const isDelete = subEvents.remove.includes(event.subEvent);
      if (!isDelete && !subEvents.add.includes(event.subEvent)) return null;
      const skuId = skuIdOfArg(arg);
      const listedCustomer = itemsOf(data)[0]?.customerid;
      if (skuId === null || !concernsOpenSku(event, { skuId, customerId: listedCustomer ?? event.customerId ?? -1 })) return null;
      return changeOf<T>(event.payload, isDelete, idOf);
    },
  };
}

const PACKAGE_EVENTS: SkuSubEvent[] = ['AddPackage', 'UpdatePackage', 'DeletePackage'];
const DIMENSION_EVENTS: SkuSubEvent[] = ['SkuAdd', 'SkuUpdate', ...PACKAGE_EVENTS];

const sameIds = (a: number[], b: unknown) =>
  Array.isArray(b) && a.length === b.length && [...a].sort().join(',') === [...(b as number[])].sort().join(',');

/** Names a spec's types once, so its callbacks are typed by them. */
const spec = <K extends HubEventName, T, Arg>(s: LiveListSpec<K, T, Arg>) => s;

/** The header warehouse a list is scoped to (its `filters.warehouseId`), or null for all warehouses. */
const warehouseOfArg = (arg: unknown): number | null => {
  const id = Number((arg as { filters?: { warehouseId?: unknown } } | null)?.filters?.warehouseId);
  return Number.isInteger(id) && id > 0 ? id : null;
};
/**
 * Filters or a search other than the warehouse scope: an event of another warehouse is dropped by the spec
 * itself, so the scope alone does not make the list "filtered" (a new location there goes to the top).
 */
const filteredBeyondWarehouse = (arg: unknown): boolean => {
  const a = (arg && typeof arg === 'object' ? arg : {}) as { filters?: Record<string, unknown> };
  return hasActiveFilters({ ...a, filters: { ...a.filters, warehouseId: undefined } });
};

/**
 * ReceiveLocationData → /Location (storage kinds) or /OtherLocations (staging, dock, returns, quarantine). Only
 * events of the list's warehouse apply; a location whose kind moved it to the other list leaves this one; a
 * batch (pattern, upload) reloads the list.
 */
function locationList(category: LocationCategory): LiveListSpec<'ReceiveLocationData', Location, unknown> {
  return {
    event: 'ReceiveLocationData',
    idOf: (l) => l.locationId,
    isFiltered: filteredBeyondWarehouse,
    toChange(event, arg, data) {
      const scoped = warehouseOfArg(arg);
      if (scoped !== null && event.payload.warehouseId !== scoped) return null;
      if (event.subEvent === 'AddLocations') return 'reload';
      const location = record<Location>(event.payload);
      if (!location) return null;
      if (location.category !== category) {
        return itemsOf(data).some((l) => l.locationId === location.locationId) ? { type: 'delete', id: location.locationId } : null;
      }
      return { type: 'upsert', item: location };
    },
  };
}

/** Stock moved in or out of listed locations: their on-hand and occupancy changed, which only the server can sum. */
const locationStock = spec<'ReceiveInventoryData', Location, unknown>({
  event: 'ReceiveInventoryData',
  idOf: (l) => l.locationId,
  toChange: (event, _arg, data) => (itemsOf(data).some((l) => event.payload.locationIds?.includes(l.locationId)) ? 'reload' : null),
});

/** How each master-data list follows the hub (exported for the tests). */
export const LIVE_SPECS = {
  /** ReceiveWareHousedata → the warehouse list. */
  warehouses: spec<'ReceiveWareHousedata', Warehouse, unknown>({
    event: 'ReceiveWareHousedata',
    idOf: (w) => w.uniqueid,
    toChange: (event) => changeOf<Warehouse>(event.payload, false, (w) => w.uniqueid),
  }),

  /**
   * ReceiveUserData → the user list. The event names a user's warehouses and customers by id only, so a row is
   * replaced in place when those are unchanged; otherwise (a new user, new assignments) the list is fetched again.
   */
  users: spec<'ReceiveUserData', UserListItem, unknown>({
    event: 'ReceiveUserData',
    idOf: (u) => u.uniqueid,
    toChange(event, _arg, data) {
      const { warehouses, customers, ...rest } = event.payload;
      const listed = itemsOf(data).find((u) => u.uniqueid === rest.uniqueid);
      if (!listed) return 'reload';
      const sameScope = sameIds(listed.warehouses.map((w) => w.warehouseId), warehouses) && sameIds(listed.customers.map((c) => c.customerId), customers);
      if (!sameScope) return 'reload';
      return { type: 'upsert', item: { ...listed, ...(rest as Partial<UserListItem>), warehouses: listed.warehouses, customers: listed.customers } };
    },
  }),

  /** ReceiveCustomerData → the customer list. */
  customers: spec<'ReceiveCustomerData', Customer, unknown>({
    event: 'ReceiveCustomerData',
    idOf: (c) => c.uniqueid,
    toChange: (event) => changeOf<Customer>(event.payload, false, (c) => c.uniqueid),
  }),

  /** ReceiveSkuData (SkuAdd, SkuUpdate) → the SKU list. */
  skus: spec<'ReceiveSkuData', Sku, unknown>({
    event: 'ReceiveSkuData',
    idOf: (s) => s.uniqueId,
    toChange: (event) => (event.subEvent === 'SkuAdd' || event.subEvent === 'SkuUpdate' ? changeOf<Sku>(event.payload, false, (s) => s.uniqueId) : null),
  }),

  /** The package dimensions list (/Dimensions): its rows are SKUs and packages, so their changes reload it. */
  dimensions: spec<'ReceiveSkuData', unknown, unknown>({
    event: 'ReceiveSkuData',
    idOf: () => 0,
    toChange: (event) => (DIMENSION_EVENTS.includes(event.subEvent) ? 'reload' : null),
  }),

  /** The package tree (GetParentAndChildPackages) of the open SKU: any package change of it reloads the tree. */
  skuPackageTree: spec<'ReceiveSkuData', unknown, { skuid?: number; customerid?: number }>({
    event: 'ReceiveSkuData',
    idOf: () => 0,
    isFiltered: () => false,
    toChange(event, arg) {
      if (!PACKAGE_EVENTS.includes(event.subEvent)) return null;
      if (arg.skuid !== undefined && arg.skuid !== event.skuId) return null;
      if (arg.customerid !== undefined && arg.customerid !== event.customerId) return null;
      return 'reload';
    },
  }),

  /** The open SKU's packages, barcodes, attributes and kit components. */
  skuPackages: skuPartList<SkuPackage>({ add: ['AddPackage', 'UpdatePackage'], remove: ['DeletePackage'] }, (p) => p.packageid),
  skuBarcodes: skuPartList<SkuBarcode>({ add: ['AddBarcode', 'UpdateBarcode'], remove: ['DeleteBarcode'] }, (b) => b.uniqueid),
  skuAttributes: skuPartList<SkuAttribute>({ add: ['AddAttribute', 'UpdateAttribute'], remove: ['DeleteAttribute'] }, (a) => a.uniqueid),
  skuKitComponents: skuPartList<KitComponent>({ add: ['AddKitComponent', 'UpdateKitComponent'], remove: ['DeleteKitComponent'] }, (k) => k.uniqueid),

  locations: locationList('storage'),
  otherLocations: locationList('other'),
  locationStock,
};

/** For an endpoint's `onCacheEntryAdded`: e.g. `onCacheEntryAdded: LIVE.warehouses`. */
export const LIVE = {
  warehouses: liveList(LIVE_SPECS.warehouses),
  users: liveList(LIVE_SPECS.users),
  customers: liveList(LIVE_SPECS.customers),
  skus: liveList(LIVE_SPECS.skus),
  dimensions: liveList(LIVE_SPECS.dimensions),
  skuPackageTree: liveList(LIVE_SPECS.skuPackageTree),
  skuPackages: liveList(LIVE_SPECS.skuPackages),
  skuBarcodes: liveList(LIVE_SPECS.skuBarcodes),
  skuAttributes: liveList(LIVE_SPECS.skuAttributes),
  skuKitComponents: liveList(LIVE_SPECS.skuKitComponents),
  locations: liveAll(liveList(LIVE_SPECS.locations), liveList(LIVE_SPECS.locationStock)),
  otherLocations: liveAll(liveList(LIVE_SPECS.otherLocations), liveList(LIVE_SPECS.locationStock)),
  /** The open customer's record (GetCustomerInfoById, argument the customer id): UpdateCustomer replaces it. */
  customer: liveRecord<'ReceiveCustomerData', Customer, number>({
    event: 'ReceiveCustomerData',
    toRecord: (event, customerId) => {
      const next = record<Customer>(event.payload);
      return event.subEvent === 'UpdateCustomer' && next?.customerId === customerId ? next : null;
    },
  }),
  /** The open location (GetLocationById, argument its id): UpdateLocation replaces it. */
  location: liveRecord<'ReceiveLocationData', Location, number>({
    event: 'ReceiveLocationData',
    toRecord: (event, locationId) => (event.subEvent === 'UpdateLocation' && event.payload.locationId === locationId ? event.payload : null),
  }),
  /** The open SKU's own record (GetSKUInfoById, argument the SKU id): SkuUpdate replaces it. */
  sku: liveRecord<'ReceiveSkuData', Sku, number>({
    event: 'ReceiveSkuData',
    toRecord: (event, skuId) => (event.subEvent === 'SkuUpdate' && event.skuId === skuId ? record<Sku>(event.payload) : null),
  }),
};

/** A saved record in a mutation's answer (`{ message, data }`). */
const saved = <T>(result: { data?: T } | undefined): T | null => result?.data ?? null;
/** A user's row as the list shows it, from the user form's answer (which adds the modules and e-mail state). */
const userRow = (details: UserDetails | null): UserListItem | null => {
  if (!details) return null;
  const { modules: _modules, emailVerified: _verified, ...row } = details;
  return row;
};

/**
 * The notify flag (spec section 4, Live events) of the master-data update mutations: `onQueryStarted:
 * NOTIFY.warehouse`. The saved record replaces its entry in every cached list of its kind at once; a list with
 * filters or a search active is fetched again. The lists are not invalidated by these writes, so an unfiltered
 * list is not fetched again for the tab's own edit.
 */
export const NOTIFY = {
  warehouse: notifyLists<Warehouse, { data: Warehouse }, unknown>('getWarehouseList', { toItem: saved, idOf: LIVE_SPECS.warehouses.idOf }),
  user: notifyLists<UserListItem, { data: UserDetails }, unknown>('getUsers', { toItem: (r) => userRow(saved(r)), idOf: LIVE_SPECS.users.idOf }),
  customer: notifyLists<Customer, { data: Customer }, unknown>('getCustomers', { toItem: saved, idOf: LIVE_SPECS.customers.idOf }),
  sku: notifyLists<Sku, { data: Sku }, unknown>('getSkus', { toItem: saved, idOf: LIVE_SPECS.skus.idOf }),
  location: async (arg: unknown, api: Parameters<ReturnType<typeof notifyLists>>[1]) => {
    const options = (category: LocationCategory) => ({
      toItem: saved<Location>, idOf: (l: Location) => l.locationId, isFiltered: filteredBeyondWarehouse,
      belongs: (l: Location) => l.category === category,
    });
    await Promise.all([
      notifyLists<Location, { data: Location }, unknown>('getLocations', options('storage'))(arg, api as never),
      notifyLists<Location, { data: Location }, unknown>('getOtherLocations', options('other'))(arg, api as never),
    ]);
  },
};
