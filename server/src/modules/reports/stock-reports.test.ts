import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../../../test/helpers.js';
import { inTransaction } from '../../platform/unit-of-work.js';

// A hand-built warehouse (UTC): client A's SKU in three lots over two locations (one lot expired, two on pallet
// LP-A, one received 100 days ago), a second SKU of A, client B's SKU; 5 units of A's allocated. Every figure of
// /InventoryReports on the report pattern is checked against it.
let t: TestApp;
let admin: ReturnType<typeof as>;
let clientB: ReturnType<typeof as>;
let wh: number, custA: number, custB: number, skuA: number, skuB: number, skuC: number, l1: number, l2: number, l3: number;
const day = (offset: number) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);
type Result = { toDate: string; rows: Record<string, string | number | null>[]; totals: Record<string, string | number | null>; chart: { xAxis: { data: string[] }; series: { name: string; data: number[] }[] } | null };
const get = (s: ReturnType<typeof as>, report: string, filters: Record<string, unknown> = {}) =>
  s.post('/Warehouse/InventoryReport/GetReport', { report, filters: { warehouseId: wh, ...filters } });
const json = async (s: ReturnType<typeof as>, report: string, filters: Record<string, unknown> = {}): Promise<Result> => {
  const res = await get(s, report, filters);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh]);
  custB = await makeCustomer(t.database, [wh]);
  skuA = await makeSku(t.database, custA, `SA-${wh}`, { lot: true, expiry: true });
  skuB = await makeSku(t.database, custA, `SB-${wh}`);
  skuC = await makeSku(t.database, custB, `SC-${wh}`);
  l1 = await makeLocation(t.database, wh, `IR-1-${wh}`);
  l2 = await makeLocation(t.database, wh, `IR-2-${wh}`);
  l3 = await makeLocation(t.database, wh, `IR-3-${wh}`);
  const place = (customerId: number, skuId: number, locationId: number, lot = '', pallet = '') => ({ warehouseId: wh, customerId, skuId, locationId, lot, pallet });
  await postStock(t, [
    { place: place(custA, skuA, l1, 'OLD'), qty: 40, expiryDate: day(-3) },
    { place: place(custA, skuA, l1, 'NEAR', 'LP-A'), qty: 25, expiryDate: day(10) },
    { place: place(custA, skuA, l2, 'FAR', 'LP-A'), qty: 15, expiryDate: day(200) },
    { place: place(custA, skuB, l2), qty: 7 },
    { place: place(custB, skuC, l3), qty: 9 },
  ]);
  await inTransaction(t.database.db, (uow) => t.app.services.stock.allocate(uow, {
    owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, warehouseId: wh, customerId: custA, skuId: skuA, quantity: 5,
  }));
  await t.database.db.updateTable('inventory_balance').set({ received_at: new Date(Date.now() - 100 * 864e5).toISOString() })
    .where('location_id', '=', l2).where('lot', '=', 'FAR').execute();
  const u = await makeUser(t.database, { role: 'Client', customerId: custB, warehouseIds: [wh], customerIds: [custB], modules: { InventoryReports: 'read' } });
  clientB = as(t.app, await login(t.app, u.username, u.password));
});
afterAll(async () => { await t?.close(); });

describe('/InventoryReports on the report pattern', () => {
  it('stock on hand by SKU, with totals and a chart of the largest', async () => {
    const r = await json(admin, 'stock-on-hand', { customerId: custA });
    expect(r.rows.map((x) => [x.sku, x.locations, x.onHand, x.allocated, x.available])).toEqual([[`SA-${wh}`, 2, 80, 5, 75], [`SB-${wh}`, 1, 7, 0, 7]]);
    expect(r.totals).toMatchObject({ sku: 'Total', onHand: 87, allocated: 5, available: 82 });
    expect(r.chart?.xAxis.data).toEqual([`SA-${wh}`, `SB-${wh}`]);
    expect(r.chart?.series).toEqual([{ name: 'On hand', data: [80, 7] }, { name: 'Allocated', data: [5, 0] }]);
  });

  it('stock on hand by location, lot, pallet and client', async () => {
    const byLocation = await json(admin, 'stock-on-hand', { customerId: custA, groupBy: 'location' });
    expect(byLocation.rows.map((x) => [x.location, x.skus, x.onHand])).toEqual([[`IR-1-${wh}`, 1, 65], [`IR-2-${wh}`, 2, 22]]);
    const byLot = await json(admin, 'stock-on-hand', { customerId: custA, groupBy: 'lot' });
    expect(byLot.rows.map((x) => [x.sku, x.lot, x.expiry, x.onHand, x.allocated]).sort()).toEqual([
      [`SA-${wh}`, 'FAR', day(200), 15, 0], [`SA-${wh}`, 'NEAR', day(10), 25, 5], [`SA-${wh}`, 'OLD', day(-3), 40, 0], [`SB-${wh}`, '', '', 7, 0],
    ]);
    const byPallet = await json(admin, 'stock-on-hand', { groupBy: 'pallet' });
    expect(byPallet.rows.map((x) => [x.pallet, x.location, x.onHand]).sort()).toEqual([['LP-A', `IR-1-${wh}`, 25], ['LP-A', `IR-2-${wh}`, 15]]);
    expect(byPallet.totals).toMatchObject({ pallet: 'Total', onHand: 40 });
    const byClient = await json(admin, 'stock-on-hand', { groupBy: 'customer' });
    expect(byClient.rows.map((x) => [x.skus, x.onHand, x.allocated])).toEqual(expect.arrayContaining([[2, 87, 5], [1, 9, 0]]));
    expect(byClient.totals).toMatchObject({ client: 'Total', onHand: 96, allocated: 5, available: 91 });
  });

  it('availability holds expired lots back from what can be allocated', async () => {
    const r = await json(admin, 'availability', { customerId: custA });
    expect(r.rows.map((x) => [x.sku, x.onHand, x.allocated, x.available, x.expired, x.allocatable])).toEqual([[`SA-${wh}`, 80, 5, 75, 40, 35], [`SB-${wh}`, 7, 0, 7, 0, 7]]);
    expect(r.totals).toMatchObject({ onHand: 87, expired: 40, allocatable: 42 });
    expect(r.chart?.series).toEqual([{ name: 'Expired', data: [40] }]);
  });

  it('stock aging per bucket, per SKU with a column per bucket, and per place', async () => {
    const byBucket = await json(admin, 'stock-aging', { customerId: custA });
    expect(byBucket.rows.map((x) => [x.bucket, x.places, x.skus, x.onHand, x.share])).toEqual([
      ['0-30', 3, 2, 72, 82.8], ['31-60', 0, 0, 0, 0], ['61-90', 0, 0, 0, 0], ['91-180', 1, 1, 15, 17.2], ['181+', 0, 0, 0, 0],
    ]);
    // A SKU in two buckets counts once in the total.
    expect(byBucket.totals).toMatchObject({ places: 4, skus: 2, onHand: 87, share: 100 });
    expect(byBucket.chart?.series[0].data).toEqual([72, 0, 0, 15, 0]);
    const bySku = await json(admin, 'stock-aging', { customerId: custA, groupBy: 'sku' });
    expect(bySku.rows[0]).toMatchObject({ sku: `SA-${wh}`, 'age:0-30': 65, 'age:91-180': 15, onHand: 80, oldestDays: 100 });
    expect(bySku.totals).toMatchObject({ 'age:0-30': 72, 'age:91-180': 15, onHand: 87, oldestDays: 100 });
    const byPlace = await json(admin, 'stock-aging', { customerId: custA, groupBy: 'location' });
    expect(byPlace.rows[0]).toMatchObject({ lot: 'FAR', location: `IR-2-${wh}`, ageDays: 100, bucket: '91-180', onHand: 15 });
    expect(byPlace.rows).toHaveLength(4);
  });

  it('stock as of the range’s last day, from the ledger: today as now, yesterday before any of it', async () => {
    const today = await json(admin, 'stock-as-of', { customerId: custA, preset: 'today' });
    expect(today.rows).toHaveLength(4);
    expect(today.totals).toMatchObject({ onHand: 87 });
    const bySku = await json(admin, 'stock-as-of', { customerId: custA, preset: 'today', groupBy: 'sku' });
    expect(bySku.rows.map((x) => [x.sku, x.locations, x.onHand])).toEqual([[`SA-${wh}`, 3, 80], [`SB-${wh}`, 1, 7]]);
    const before = await json(admin, 'stock-as-of', { customerId: custA, preset: 'yesterday' });
    expect(before.rows).toEqual([]);
    expect(before.toDate).toBe(day(-1));
  });

  it('a client account sees its own stock only; another client’s is refused', async () => {
    const own = await json(clientB, 'stock-on-hand');
    expect(own.rows.map((x) => x.sku)).toEqual([`SC-${wh}`]);
    expect(own.totals).toMatchObject({ onHand: 9 });
    for (const report of ['stock-aging', 'availability', 'stock-as-of']) {
      const r = await json(clientB, report, report === 'stock-as-of' ? { preset: 'today' } : {});
      expect(JSON.stringify(r.rows), report).not.toContain(`SA-${wh}`);
    }
    expect((await get(clientB, 'stock-on-hand', { customerId: custA })).statusCode).toBe(403);
    const csv = await clientB.post('/Warehouse/InventoryReport/DownloadReport', { report: 'stock-on-hand', filters: { warehouseId: wh }, format: 'csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`SC-${wh}`);
    expect(csv.body).not.toContain(`SA-${wh}`);
  });

  it('exports Excel, CSV and PDF that read back with the rows and totals', async () => {
    const body = { report: 'stock-on-hand', filters: { warehouseId: wh, customerId: custA }, format: 'xlsx' };
    const xlsx = await admin.post('/Warehouse/InventoryReport/DownloadReport', body);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'SKU', 'Description', 'Warehouse', 'Client', 'Locations', 'On hand', 'Allocated', 'Available']);
    expect(sheet.getRow(2).getCell(1).value).toBe(`SA-${wh}`);
    expect([sheet.getRow(4).getCell(1).value, sheet.getRow(4).getCell(6).value, sheet.getRow(4).getCell(8).value]).toEqual(['Total', 87, 82]);
    const csv = await admin.post('/Warehouse/InventoryReport/DownloadReport', { ...body, format: 'csv' });
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('SKU,Description,Warehouse,Client,Locations,On hand,Allocated,Available');
    expect(lines[3]).toMatch(/^Total,.*,87,5,82$/);
    const pdf = await admin.post('/Warehouse/InventoryReport/DownloadReport', { ...body, format: 'pdf' });
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('bad input: a grouping the report lacks, a report of another screen, an unknown warehouse — 4xx naming the field', async () => {
    const group = await get(admin, 'stock-on-hand', { groupBy: 'carrier' });
    expect(group.statusCode).toBe(400);
    expect(group.body).toContain('groupBy');
    expect((await admin.post('/Warehouse/InventoryReport/GetReport', { report: 'sku-velocity', filters: {} })).statusCode).toBe(400);
    expect((await admin.post('/Warehouse/OtherReport/GetReport', { report: 'stock-on-hand', filters: {} })).statusCode).toBe(400);
    const unknown = await get(admin, 'stock-on-hand', { warehouseId: 999999 });
    expect(unknown.statusCode).toBeGreaterThanOrEqual(400);
    expect(unknown.statusCode).toBeLessThan(500);
    const bare = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [custA], modules: { OrderReports: 'read' } });
    expect((await as(t.app, await login(t.app, bare.username, bare.password)).post('/Warehouse/InventoryReport/GetReport', { report: 'stock-on-hand', filters: {} })).statusCode).toBe(403);
  });
});
