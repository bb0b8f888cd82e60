import { describe, expect, it } from 'vitest';
import type { Location, SkuBarcode, UserListItem, Warehouse } from '@bolx/contracts';
import { LIVE_SPECS } from './live-lists';

const barcode = (uniqueid: number, skuId = 5, customerid = 2): SkuBarcode =>
  ({ uniqueid, skuId, customerid, barcode: `B${uniqueid}`, barcodeType: 'CODE128', createdAt: '', updatedAt: '' }) as SkuBarcode;

describe('per-SKU lists follow only the open SKU and customer', () => {
  const spec = LIVE_SPECS.skuBarcodes;
  const list = [barcode(1), barcode(2)];

  it('adds, updates and deletes the open SKU\'s barcodes', () => {
    expect(spec.toChange({ subEvent: 'AddBarcode', payload: barcode(3), skuId: 5, customerId: 2 }, 5, list)).toEqual({ type: 'upsert', item: barcode(3) });
    expect(spec.toChange({ subEvent: 'DeleteBarcode', payload: barcode(2), skuId: 5, customerId: 2 }, 5, list)).toEqual({ type: 'delete', id: 2 });
  });

  it('ignores another SKU\'s events, another customer\'s, and other kinds of part', () => {
    expect(spec.toChange({ subEvent: 'AddBarcode', payload: barcode(3, 6), skuId: 6, customerId: 2 }, 5, list)).toBeNull();
    expect(spec.toChange({ subEvent: 'AddBarcode', payload: barcode(3, 5, 9), skuId: 5, customerId: 9 }, 5, list)).toBeNull();
    expect(spec.toChange({ subEvent: 'AddPackage', payload: {}, skuId: 5, customerId: 2 }, 5, list)).toBeNull();
  });

  it('reloads the package tree only for package changes of its SKU', () => {
    const tree = LIVE_SPECS.skuPackageTree;
    expect(tree.toChange({ subEvent: 'UpdatePackage', payload: {}, skuId: 5, customerId: 2 }, { skuid: 5 }, [])).toBe('reload');
    expect(tree.toChange({ subEvent: 'UpdatePackage', payload: {}, skuId: 6, customerId: 2 }, { skuid: 5 }, [])).toBeNull();
    expect(tree.toChange({ subEvent: 'AddBarcode', payload: {}, skuId: 5, customerId: 2 }, { skuid: 5 }, [])).toBeNull();
  });
});

describe('the SKU list', () => {
  it('takes SkuAdd and SkuUpdate, not the events of a SKU\'s parts', () => {
    const sku = { uniqueId: 7, skuId: 7, skuCode: 'X' };
    expect(LIVE_SPECS.skus.toChange({ subEvent: 'SkuAdd', payload: sku, skuId: 7, customerId: 1 }, {}, [])).toEqual({ type: 'upsert', item: sku });
    expect(LIVE_SPECS.skus.toChange({ subEvent: 'AddBarcode', payload: {}, skuId: 7, customerId: 1 }, {}, [])).toBeNull();
    expect(LIVE_SPECS.skus.idOf(sku as never)).toBe(7);
  });
});

describe('the warehouse list', () => {
  it('upserts the event\'s warehouse by its uniqueid', () => {
    const w = { uniqueid: 4, warehouseName: 'Oslo' } as Warehouse;
    expect(LIVE_SPECS.warehouses.toChange({ subEvent: 'UpdateWarehouse', payload: w }, {}, [])).toEqual({ type: 'upsert', item: w });
  });
});

describe('the user list', () => {
  const listed = {
    uniqueid: 3, username: 'staff', firstName: 'Sam',
    warehouses: [{ warehouseId: 1, warehouseName: 'Oslo' }], customers: [{ customerId: 2, customerName: 'Fjord' }],
  } as UserListItem;
  const page = { items: [listed], totalCount: 1 };

  it('replaces a listed user in place, keeping the warehouse and customer names the event does not carry', () => {
    const change = LIVE_SPECS.users.toChange(
      { subEvent: 'UpdateUser', payload: { uniqueid: 3, username: 'staff', firstName: 'Samuel', warehouses: [1], customers: [2] } },
      {},
      page,
    );
    expect(change).toEqual({ type: 'upsert', item: { ...listed, firstName: 'Samuel' } });
  });

  it('fetches the list again for a new user or changed assignments', () => {
    expect(LIVE_SPECS.users.toChange({ subEvent: 'AddUser', payload: { uniqueid: 9, warehouses: [1], customers: [] } }, {}, page)).toBe('reload');
    expect(LIVE_SPECS.users.toChange({ subEvent: 'UpdateUser', payload: { uniqueid: 3, warehouses: [1, 4], customers: [2] } }, {}, page)).toBe('reload');
  });
});

describe('the package dimensions list', () => {
  it('reloads for SKU and package changes only', () => {
    expect(LIVE_SPECS.dimensions.toChange({ subEvent: 'UpdatePackage', payload: {}, skuId: 1, customerId: 1 }, {}, [])).toBe('reload');
    expect(LIVE_SPECS.dimensions.toChange({ subEvent: 'SkuAdd', payload: {}, skuId: 1, customerId: 1 }, {}, [])).toBe('reload');
    expect(LIVE_SPECS.dimensions.toChange({ subEvent: 'AddBarcode', payload: {}, skuId: 1, customerId: 1 }, {}, [])).toBeNull();
  });
});

describe('the location lists', () => {
  const loc = (id: number, over: Partial<Location> = {}) => ({ uniqueid: id, locationId: id, warehouseId: 1, locationCode: `L${id}`, category: 'storage', ...over }) as Location;
  const page = { items: [loc(1), loc(2)], totalCount: 2 };
  const scoped = (warehouseId: number, more: object = {}) => ({ filters: { warehouseId, ...more }, searchQuery: '', pageNumber: 1, pageSize: 10 });
  const storage = LIVE_SPECS.locations;
  const other = LIVE_SPECS.otherLocations;

  it('upserts a location of the list’s warehouse and kind, and ignores other warehouses', () => {
    expect(storage.toChange({ subEvent: 'AddLocation', payload: loc(3) }, scoped(1), page)).toEqual({ type: 'upsert', item: loc(3) });
    expect(storage.toChange({ subEvent: 'UpdateLocation', payload: loc(2, { capacity: 9 }) }, {}, page)).toEqual({ type: 'upsert', item: loc(2, { capacity: 9 }) });
    expect(storage.toChange({ subEvent: 'AddLocation', payload: loc(3, { warehouseId: 2 }) }, scoped(1), page)).toBeNull();
  });

  it('sends a location to the list of its kind: a listed one whose type became a dock leaves /Location', () => {
    const dock = loc(2, { category: 'other', locationType: 'dock' });
    expect(storage.toChange({ subEvent: 'UpdateLocation', payload: dock }, scoped(1), page)).toEqual({ type: 'delete', id: 2 });
    expect(storage.toChange({ subEvent: 'AddLocation', payload: loc(5, { category: 'other' }) }, scoped(1), page)).toBeNull();
    expect(other.toChange({ subEvent: 'UpdateLocation', payload: dock }, scoped(1), { items: [], totalCount: 0 })).toEqual({ type: 'upsert', item: dock });
  });

  it('reloads for a batch of its warehouse (pattern or upload), on both lists', () => {
    const batch = { subEvent: 'AddLocations' as const, payload: { warehouseId: 1, count: 40, firstCode: 'A', lastCode: 'B', source: 'upload' as const } };
    expect(storage.toChange(batch, scoped(1), page)).toBe('reload');
    expect(other.toChange(batch, {}, page)).toBe('reload');
    expect(storage.toChange(batch, scoped(2), page)).toBeNull();
  });

  it('counts the warehouse scope as no filter, but a zone or a search as one', () => {
    expect(storage.isFiltered!(scoped(1))).toBe(false);
    expect(storage.isFiltered!(scoped(1, { zone: 'A' }))).toBe(true);
    expect(storage.isFiltered!({ ...scoped(1), searchQuery: 'A-0' })).toBe(true);
  });

  it('reloads when stock moved in or out of a listed location (its on-hand and occupancy)', () => {
    const moved = (locationIds: number[]) => ({ subEvent: 'Move' as const, payload: { document: 'MV-1', skuId: 1, locationIds } });
    expect(LIVE_SPECS.locationStock.toChange(moved([2, 9]), {}, page)).toBe('reload');
    expect(LIVE_SPECS.locationStock.toChange(moved([9]), {}, page)).toBeNull();
  });
});
