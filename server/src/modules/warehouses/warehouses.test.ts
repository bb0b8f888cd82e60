import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeUser, makeWarehouse, recordEvents, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
});
afterAll(async () => { await t?.close(); });

const valid = (over: Record<string, unknown> = {}) => ({
  warehouseCode: `WH${Math.random().toString(36).slice(2, 8)}`, warehouseName: 'Reno Overflow', address1: '1 Logistics Way',
  city: 'Reno', state: 'NV', zip: '89502', country: 'United States', timezone: 'America/Los_Angeles', capacity: 120, ...over,
});
const auditCount = async () => Number((await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).where('entity', '=', 'warehouse').executeTakeFirstOrThrow()).n);

describe('AddWarehouse', () => {
  it('creates, audits and raises ReceiveWareHousedata after commit', async () => {
    const events = await recordEvents(t.app);
    const res = await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ warehouseCode: 'reno1' }));
    const seen = await events.until(1);
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Warehouse added successfully');
    expect(data).toMatchObject({ warehouseCode: 'RENO1', warehouseName: 'Reno Overflow', capacity: 120, isActive: true, uniqueid: data.warehouseId });
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'warehouse').where('entity_id', '=', String(data.warehouseId)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    expect(seen.map((e) => [e.target, (e.payload as { subEvent: string }).subEvent, e.warehouseId])).toEqual([['ReceiveWareHousedata', 'AddWarehouse', data.warehouseId]]);
  });

  it('refuses bad input with the spec messages and writes nothing', async () => {
    const before = await auditCount();
    const res = await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ warehouseName: '', city: '', zip: '!', state: '', country: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({
      warehouseName: 'Please enter name!', city: 'Please enter city!', zip: 'Enter valid zip code!', state: 'Please enter state!', country: 'Please enter country!',
    });
    expect((await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ timezone: 'Nowhere/Land' }))).statusCode).toBe(400);
    expect((await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ capacity: -1 }))).statusCode).toBe(400);
    expect(await auditCount()).toBe(before);
  });

  it('refuses a duplicate code with 409', async () => {
    await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ warehouseCode: 'DUP1' }));
    const res = await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ warehouseCode: 'dup1' }));
    expect(res.statusCode).toBe(409);
  });

  it('is for administrators with the Warehouse module', async () => {
    const wh = await makeWarehouse(t.database);
    const manager = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], modules: { Warehouse: 'write' } });
    const res = await as(t.app, await login(t.app, manager.username, manager.password)).post('/Warehouse/Warehouse/AddWarehouse', valid());
    expect(res.statusCode).toBe(403);
  });

  it('assigns an Administrator to the warehouse they create', async () => {
    const a = await makeUser(t.database, { role: 'Administrator', modules: { Warehouse: 'write' } });
    const s = as(t.app, await login(t.app, a.username, a.password));
    const created = (await s.post('/Warehouse/Warehouse/AddWarehouse', valid())).json().data;
    const list = (await s.get('/Warehouse/Warehouse/GetWarehouseListWithColumns?Modules=Warehouse')).json();
    expect(list.items.map((w: { warehouseId: number }) => w.warehouseId)).toEqual([created.warehouseId]);
  });
});

describe('UpdateWarehouse', () => {
  it('updates with before and after in the audit', async () => {
    const created = (await admin.post('/Warehouse/Warehouse/AddWarehouse', valid())).json().data;
    const res = await admin.put('/Warehouse/Warehouse/UpdateWarehouse', { ...valid({ warehouseCode: created.warehouseCode, capacity: 999 }), warehouseId: created.warehouseId, isActive: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ capacity: 999, isActive: false });
    const row = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'warehouse').where('action', '=', 'update')
      .where('entity_id', '=', String(created.warehouseId)).executeTakeFirstOrThrow();
    expect(JSON.parse(row.before_json!).capacity).toBe(120);
    expect(JSON.parse(row.after_json!).capacity).toBe(999);
  });

  it('answers 404 for an unknown id and 403 outside the caller’s warehouses', async () => {
    expect((await admin.put('/Warehouse/Warehouse/UpdateWarehouse', { ...valid(), warehouseId: 999999 })).statusCode).toBe(404);
    const mine = await makeWarehouse(t.database);
    const other = await makeWarehouse(t.database);
    const a = await makeUser(t.database, { role: 'Administrator', warehouseIds: [mine], modules: { Warehouse: 'write' } });
    const s = as(t.app, await login(t.app, a.username, a.password));
    expect((await s.put('/Warehouse/Warehouse/UpdateWarehouse', { ...valid(), warehouseId: other })).statusCode).toBe(403);
    expect((await s.get(`/Warehouse/Warehouse/GetWarehouseById?warehouseId=${other}`)).statusCode).toBe(403);
    expect((await s.get(`/Warehouse/Warehouse/GetWarehouseById?warehouseId=${mine}`)).statusCode).toBe(200);
  });
});

describe('lists', () => {
  it('GetWarehouseListWithColumns pages, searches and sorts, with its columns', async () => {
    for (const name of ['Alpha Depot', 'Bravo Depot', 'Charlie Depot']) await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ warehouseName: name }));
    const page = (await admin.get('/Warehouse/Warehouse/GetWarehouseListWithColumns?Modules=Warehouse&searchQuery=depot&pageSize=2&sortField=warehouseName&sortOrder=descend')).json();
    expect(page.totalCount).toBe(3);
    expect(page.items.map((w: { warehouseName: string }) => w.warehouseName)).toEqual(['Charlie Depot', 'Bravo Depot']);
    expect(page.columns.map((c: { key: string }) => c.key)).toContain('warehouseName');
    const second = (await admin.post('/Warehouse/Warehouse/GetWarehouses', { searchQuery: 'DEPOT', pageNumber: 2, pageSize: 2, sort: { field: 'warehouseName', order: 'descend' } })).json();
    expect(second.items.map((w: { warehouseName: string }) => w.warehouseName)).toEqual(['Alpha Depot']);
  });

  it('treats search text literally (no wildcards, no SQL)', async () => {
    const res = await admin.post('/Warehouse/Warehouse/GetWarehouses', { searchQuery: "%' OR 1=1 --" });
    expect(res.statusCode).toBe(200);
    expect(res.json().totalCount).toBe(0);
  });

  it('ignores an unknown sort field instead of failing', async () => {
    const res = await admin.post('/Warehouse/Warehouse/GetWarehouses', { sort: { field: 'name; drop table warehouse', order: 'ascend' } });
    expect(res.statusCode).toBe(200);
  });

  it('downloads the filtered list as xlsx with formula-like text escaped', async () => {
    await admin.post('/Warehouse/Warehouse/AddWarehouse', valid({ warehouseName: '=HYPERLINK("http://evil")' }));
    const res = await admin.post('/Warehouse/Warehouse/DownloadWarehouseExcel', { searchQuery: 'HYPERLINK' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="warehouses-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(2).value).toBe('Warehouse Name');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('\'=HYPERLINK("http://evil")');
  });

  it('gives the filter labels', async () => {
    const labels = (await admin.get('/Warehouse/Warehouse/WarehouseFiltersLabels')).json();
    expect(labels[0]).toMatchObject({ key: 'isActive', type: 'select' });
  });
});
