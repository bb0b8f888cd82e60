import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp,
} from '../../../test/helpers.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { Scope } from '../../platform/scope.js';
import { inventoryReportRepository } from './inventory-reports.repository.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, other: number, skuA: number, skuB: number, otherSku: number;
let l1: number, l2: number, l3: number;

const day = (offset: number) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);
const adjust = (locationId: number, quantityChange: number, over: Record<string, unknown> = {}) =>
  admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: skuA, locationId, quantityChange, reasonCode: 'FOUND', ...over });
const report = (name: string, filters: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  admin.post(`/Warehouse/InventoryReport/Get${name}`, { filters: { warehouseId: wh, ...filters }, pageSize: 100, ...extra }).then((r) => {
    expect(r.statusCode).toBe(200);
    return r.json() as { items: Record<string, unknown>[]; totalCount: number };
  });

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  other = await makeCustomer(t.database, [wh]);
  skuA = await makeSku(t.database, cust, `=HYPERLINK("x")-${Math.random().toString(36).slice(2, 6)}`, { lot: true, expiry: true });
  skuB = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
  otherSku = await makeSku(t.database, other, undefined, { lot: true, expiry: true });
  l1 = await makeLocation(t.database, wh);
  l2 = await makeLocation(t.database, wh);
  l3 = await makeLocation(t.database, wh);
  await adjust(l1, 40, { lot: 'OLD', expiryDate: day(-3) });
  await adjust(l1, 25, { lot: 'NEAR', expiryDate: day(10), pallet: 'LP-A' });
  await adjust(l2, 15, { lot: 'FAR', expiryDate: day(200), pallet: 'LP-A' });
  await adjust(l2, 7, { skuId: skuB });
  await adjust(l3, 9, { customerId: other, skuId: otherSku });
  await inTransaction(t.database.db, (uow) => t.app.services.stock.allocate(uow, { owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, warehouseId: wh, customerId: cust, skuId: skuA, quantity: 5 }));
});
afterAll(async () => { await t?.close(); });

describe('on hand', () => {
  it('by SKU, from the balances, with allocated and available', async () => {
    const r = await report('OnHandBySku', { customerId: cust });
    expect(r.items).toEqual(expect.arrayContaining([
      expect.objectContaining({ skuId: skuA, onHand: 80, allocated: 5, available: 75, locationCount: 2 }),
      expect.objectContaining({ skuId: skuB, onHand: 7, allocated: 0, available: 7, locationCount: 1 }),
    ]));
    expect(r.totalCount).toBe(2);
  });

  it('by location, lot and pallet', async () => {
    const byLocation = await report('OnHandByLocation', { customerId: cust });
    expect(byLocation.items.map((i) => [i.locationId, i.onHand, i.skuCount])).toEqual(expect.arrayContaining([[l1, 65, 1], [l2, 22, 2]]));
    const byLot = await report('OnHandByLot', { skuId: skuA }, { sort: { field: 'expiryDate', order: 'ascend' } });
    expect(byLot.items.map((i) => [i.lot, i.onHand, i.allocated])).toEqual([['OLD', 40, 0], ['NEAR', 25, 5], ['FAR', 15, 0]]);
    const byPallet = await report('OnHandByPallet');
    expect(byPallet.items.map((i) => [i.pallet, i.locationId, i.onHand])).toEqual(expect.arrayContaining([['LP-A', l1, 25], ['LP-A', l2, 15]]));
    expect(byPallet.totalCount).toBe(2);
  });

  it('availability holds expired lots back from what can be allocated', async () => {
    const r = await report('Availability', { skuId: skuA });
    expect(r.items).toEqual([expect.objectContaining({ onHand: 80, allocated: 5, available: 75, expired: 40, allocatable: 35 })]);
  });

  it('aging buckets by when the stock arrived', async () => {
    await t.database.db.updateTable('inventory_balance').set({ received_at: new Date(Date.now() - 100 * 864e5).toISOString() })
      .where('location_id', '=', l2).where('lot', '=', 'FAR').execute();
    const r = await report('Aging', { customerId: cust }, { sort: { field: 'ageDays', order: 'ascend' } });
    expect(r.items[0]).toMatchObject({ lot: 'FAR', ageDays: 100, bucket: '91-180' });
    expect(r.items.slice(1).every((i) => i.bucket === '0-30')).toBe(true);
  });
});

describe('stock as of a past date', () => {
  it('equals the balances as they stood then, and nothing before any stock', async () => {
    const then = (await admin.post('/Warehouse/Inventory/GetStockOnHand', { filters: { warehouseId: wh }, pageSize: 500 })).json().items
      .map((i: Record<string, unknown>) => `${i.skuId}|${i.locationId}|${i.lot}|${i.pallet}|${i.onHand}`).sort();
    await new Promise((r) => setTimeout(r, 5));
    const mark = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await admin.post('/Warehouse/Move/MoveItems', { warehouseId: wh, customerId: cust, skuId: skuB, locationId: l2, toLocationId: l3, quantity: 4 });
    await adjust(l1, -10, { lot: 'OLD', reasonCode: 'EXPIRED' });
    await adjust(l3, 11, { lot: 'NEW' });
    await admin.post('/Warehouse/MovePallet/MovePallet', { warehouseId: wh, pallet: 'LP-A', fromLocationId: l2, toLocationId: l3 });
    const asOf = await report('StockAsOf', { asOf: mark });
    expect(asOf.items.map((i) => `${i.skuId}|${i.locationId}|${i.lot}|${i.pallet}|${i.onHand}`).sort()).toEqual(then);
    // Both ways of computing it agree: the ledger up to then, and today's balances less the ledger since.
    for (const direction of ['forward', 'backward'] as const) {
      const rows = await inventoryReportRepository.asOf(t.database.db, Scope.everything, { warehouseId: wh }, mark, direction, t.database.dialect).selectAll().execute();
      expect(rows.map((i) => `${i.sku_id}|${i.location_id}|${i.lot}|${i.pallet}|${i.on_hand}`).sort(), direction).toEqual(then);
    }
    expect((await report('StockAsOf', { asOf: '2001-01-01' })).totalCount).toBe(0);
    const today = await report('StockAsOf', { asOf: day(0), customerId: cust });
    const now = await report('OnHandBySku', { customerId: cust });
    expect(today.items.reduce((n, i) => n + (i.onHand as number), 0)).toBe(now.items.reduce((n, i) => n + (i.onHand as number), 0));
    expect((await admin.post('/Warehouse/InventoryReport/GetStockAsOf', { filters: { asOf: 'yesterday' } })).statusCode).toBe(400);
  });
});

describe('expiry', () => {
  it('lists lots expiring within N days, expired ones flagged (or left out)', async () => {
    const res = await admin.post('/Warehouse/Inventory/GetExpiringLots', { filters: { warehouseId: wh, customerId: cust, days: 30 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: Record<string, unknown>) => [i.lot, i.status, i.daysToExpiry])).toEqual([['OLD', 'Expired', -3], ['NEAR', 'Expiring', 10]]);
    const notExpired = (await admin.post('/Warehouse/Inventory/GetExpiringLots', { filters: { warehouseId: wh, days: 365, includeExpired: false } })).json();
    expect(notExpired.items.map((i: Record<string, unknown>) => i.lot)).toEqual(['NEAR', 'FAR']);
  });

  it('the expired lot is never allocated', async () => {
    const req = { warehouseId: wh, customerId: cust, skuId: skuA, quantity: 1000 };
    await expect(inTransaction(t.database.db, (uow) => t.app.services.stock.allocate(uow, { owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, ...req }))).rejects.toMatchObject({ status: 422 });
    let lots: string[] = [];
    await expect(inTransaction(t.database.db, async (uow) => {
      lots = (await t.app.services.stock.allocate(uow, { owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, ...req, allowPartial: true })).lines.map((l) => l.place.lot);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(lots.length).toBeGreaterThan(0);
    expect(lots).not.toContain('OLD');
  });
});

describe('downloads', () => {
  it('every report downloads as a workbook, formula-like text escaped', async () => {
    for (const path of ['OnHandBySku', 'OnHandByLocation', 'OnHandByLot', 'OnHandByPallet', 'Availability', 'Aging']) {
      const res = await admin.post(`/Warehouse/InventoryReport/Download${path}Excel`, { filters: { warehouseId: wh } });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename=".+\.xlsx"/);
    }
    const res = await admin.post('/Warehouse/InventoryReport/DownloadOnHandBySkuExcel', { filters: { warehouseId: wh, skuId: skuA } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(3).value).toBe('SKU');
    expect(String(sheet.getRow(2).getCell(3).value)).toMatch(/^'=HYPERLINK/);
    expect((await admin.post('/Warehouse/InventoryReport/DownloadStockAsOfExcel', { filters: { asOf: day(0) } })).statusCode).toBe(200);
    expect((await admin.post('/Warehouse/Inventory/DownloadExpiringLotsExcel', { filters: { days: 30 } })).statusCode).toBe(200);
  });
});

describe('access', () => {
  it('a client reads its own stock only; another customer’s is refused', async () => {
    const u = await makeUser(t.database, { role: 'Client', customerId: other, modules: { InventoryReports: 'read', ProductExpire: 'read' } });
    const client = as(t.app, await login(t.app, u.username, u.password));
    const own = (await client.post('/Warehouse/InventoryReport/GetOnHandBySku', {})).json();
    expect(own.items.map((i: Record<string, unknown>) => i.customerId)).toEqual([other]);
    expect((await client.post('/Warehouse/InventoryReport/GetOnHandBySku', { filters: { customerId: cust } })).statusCode).toBe(403);
    expect((await client.post('/Warehouse/InventoryReport/GetStockAsOf', { filters: { asOf: day(0), customerId: cust } })).statusCode).toBe(403);
    const asOf = (await client.post('/Warehouse/InventoryReport/GetStockAsOf', { filters: { asOf: day(0) } })).json();
    expect(asOf.items.every((i: Record<string, unknown>) => i.customerId === other)).toBe(true);
    expect((await client.post('/Warehouse/Inventory/GetExpiringLots', { filters: { days: 3650 } })).json().totalCount).toBe(0);
    expect((await client.post('/Warehouse/InventoryReport/DownloadAgingExcel', { filters: { customerId: cust } })).statusCode).toBe(403);
    const noModule = await makeUser(t.database, { role: 'Client', customerId: other, modules: {} });
    const bare = as(t.app, await login(t.app, noModule.username, noModule.password));
    expect((await bare.post('/Warehouse/InventoryReport/GetOnHandBySku', {})).statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents every inventory operation and report', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const paths = Object.keys(doc.paths);
    const ours = [
      '/Warehouse/Adjustment/GetReasonCodes', '/Warehouse/Adjustment/CreateAdjustment', '/Warehouse/Adjustment/GetAdjustments',
      '/Warehouse/Adjustment/ApproveAdjustment', '/Warehouse/Adjustment/RejectAdjustment', '/Warehouse/MovePallet/MovePallet', '/Warehouse/MovePallet/GetPallets',
      '/Warehouse/CycleCount/CreateCycleCount', '/Warehouse/CycleCount/GetCycleCounts', '/Warehouse/CycleCount/GetCycleCountLines',
      '/Warehouse/CycleCount/EnterCounts', '/Warehouse/CycleCount/ApproveCycleCount', '/Warehouse/CycleCount/CancelCycleCount',
      '/Warehouse/Replenishment/SaveReplenishmentRule', '/Warehouse/Replenishment/GetReplenishmentRules', '/Warehouse/Replenishment/GenerateTasks',
      '/Warehouse/Replenishment/GetReplenishmentTasks', '/Warehouse/Replenishment/CompleteTask', '/Warehouse/Replenishment/CancelTask',
      '/Warehouse/Inventory/GetExpiringLots', '/Warehouse/Inventory/DownloadExpiringLotsExcel', '/Warehouse/Adjustment/AdjustmentFiltersLabels',
      '/Warehouse/CycleCount/CycleCountFiltersLabels', '/Warehouse/CycleCount/DownloadCountSheetExcel', '/Warehouse/Replenishment/ReplenishmentTaskFiltersLabels',
      ...['OnHandBySku', 'OnHandByLocation', 'OnHandByLot', 'OnHandByPallet', 'Availability', 'Aging', 'StockAsOf']
        .flatMap((r) => [`/Warehouse/InventoryReport/Get${r}`, `/Warehouse/InventoryReport/Download${r}Excel`]),
    ];
    expect(ours.filter((p) => !paths.includes(p))).toEqual([]);
  });
});
