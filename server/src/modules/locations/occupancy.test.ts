import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp,
} from '../../../test/helpers.js';

// Occupancy's one rule, seen from its three readers: GetLocationOccupancy, the dashboard tiles and the
// WarehouseSelection cards. Only active storage locations holding a positive on-hand quantity are used.
let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, other: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database, 'Occupancy Warehouse');
  cust = await makeCustomer(t.database, [wh]);
  other = await makeCustomer(t.database, [wh]);
  const sku = await makeSku(t.database, cust);
  const otherSku = await makeSku(t.database, other);
  const [emptied, stocked, othersStock] = [await makeLocation(t.database, wh, 'A-1', 'rack'), await makeLocation(t.database, wh, 'A-2', 'shelf'), await makeLocation(t.database, wh, 'A-3', 'rack')];
  await makeLocation(t.database, wh, 'A-4', 'rack'); // never used
  const dock = await makeLocation(t.database, wh, 'DOCK-1', 'dock');
  const quarantine = await makeLocation(t.database, wh, 'Q-1', 'quarantine');
  const inactive = await makeLocation(t.database, wh, 'A-5', 'rack');
  await t.database.db.updateTable('location').set({ is_active: 0 }).where('id', '=', inactive).execute();
  // Through the stock engine, so the ledger reconciles with the balances.
  const at = (customerId: number, skuId: number, locationId: number) => ({ warehouseId: wh, customerId, skuId, locationId, lot: '', pallet: '' });
  await postStock(t, [
    { place: at(cust, sku, emptied), qty: 5 },
    { place: at(cust, sku, stocked), qty: 4 },
    { place: at(other, otherSku, othersStock), qty: 3 },
    { place: at(cust, sku, dock), qty: 7 }, // waiting at the dock to be put away
    { place: at(cust, sku, quarantine), qty: 2 },
  ]);
  await postStock(t, [{ place: at(cust, sku, emptied), qty: -5 }]); // everything moved out: the row stays, the location is empty
  expect(await ledgerBalanced(t, wh)).toBe(true);
});
afterAll(async () => { await t?.close(); });

describe('warehouse occupancy', () => {
  it('GetLocationOccupancy counts active storage positions and those holding stock', async () => {
    const res = await admin.get(`/Warehouse/Location/GetLocationOccupancy?warehouseId=${wh}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([{ warehouseId: wh, warehouseName: 'Occupancy Warehouse', totalPositions: 4, usedPositions: 2, occupancy: 50 }]);
  });

  it('the dashboard tiles count storage positions only, for the chosen client or all', async () => {
    const tiles = async (customerId: number) => (await admin.get(`/Warehouse/Dashboard/GetDashboard?warehouseId=${wh}&customerId=${customerId}`)).json();
    expect(await tiles(0)).toMatchObject({ locationsUsed: 2, locationsTotal: 4, occupancy: 50, stockUnits: 16 });
    expect(await tiles(cust)).toMatchObject({ locationsUsed: 1, locationsTotal: 4, occupancy: 25, stockUnits: 13 });
  });

  it('the WarehouseSelection card counts the same storage positions as the dashboard, not the warehouse capacity', async () => {
    const body = (await admin.get('/Common/UserModule/GetWarehouseClient')).json();
    const card = body.warehouseData.find((w: { warehouseId: number }) => w.warehouseId === wh);
    expect(card).toMatchObject({ capacity: 10, usedLocations: 2, totalLocations: 4, occupancy: 50 });
  });

  it('one definition: the card, the dashboard and GetLocationOccupancy agree for a manager and for a client', async () => {
    const figures = async (s: ReturnType<typeof as>) => {
      const card = (await s.get('/Common/UserModule/GetWarehouseClient')).json().warehouseData.find((w: { warehouseId: number }) => w.warehouseId === wh);
      const tiles = (await s.get(`/Warehouse/Dashboard/GetDashboard?warehouseId=${wh}`)).json();
      const gauges = await s.get(`/Warehouse/Location/GetLocationOccupancy?warehouseId=${wh}`);
      const gauge = gauges.statusCode === 200 ? gauges.json()[0] : undefined; // staff only
      return {
        card: [card.usedLocations, card.totalLocations, card.occupancy],
        dashboard: [tiles.locationsUsed, tiles.locationsTotal, tiles.occupancy],
        ...(gauge ? { gauge: [gauge.usedPositions, gauge.totalPositions, gauge.occupancy] } : {}),
      };
    };
    const manager = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust, other], modules: { Location: 'read', Dashboard: 'read' } });
    const m = await figures(as(t.app, await login(t.app, manager.username, manager.password)));
    expect(m).toEqual({ card: [2, 4, 50], dashboard: [2, 4, 50], gauge: [2, 4, 50] });
    // A client account's figures are its own stock's, on every screen alike.
    const client = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { Location: 'read', Dashboard: 'read' } });
    const c = await figures(as(t.app, await login(t.app, client.username, client.password)));
    expect(c).toEqual({ card: [1, 4, 25], dashboard: [1, 4, 25] });
  });
});
