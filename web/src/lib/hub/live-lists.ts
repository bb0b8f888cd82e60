import type { Customer, HubEventMap, HubEventName, KitComponent, Sku, SkuAttribute, SkuBarcode, SkuPackage, UserListItem, Warehouse } from '@bolx/contracts';
import { liveList, liveRecord, type LiveListSpec } from './live-list';
import { concernsOpenSku, type ListData, type LiveChange } from './list-rules';

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
  /** The open customer's record (GetCustomerInfoById, argument the customer id): UpdateCustomer replaces it. */
  customer: liveRecord<'ReceiveCustomerData', Customer, number>({
    event: 'ReceiveCustomerData',
    toRecord: (event, customerId) => {
      const next = record<Customer>(event.payload);
      return event.subEvent === 'UpdateCustomer' && next?.customerId === customerId ? next : null;
    },
  }),
  /** The open SKU's own record (GetSKUInfoById, argument the SKU id): SkuUpdate replaces it. */
  sku: liveRecord<'ReceiveSkuData', Sku, number>({
    event: 'ReceiveSkuData',
    toRecord: (event, skuId) => (event.subEvent === 'SkuUpdate' && event.skuId === skuId ? record<Sku>(event.payload) : null),
  }),
};
