import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, type TestApp,
} from '../../../test/helpers.js';

const L = '/warehouse/Location';
let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, otherWh: number, cust: number, otherCust: number, sku: number, otherSku: number;
let manager: ReturnType<typeof as>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database, 'Newark Fulfillment Center');
  otherWh = await makeWarehouse(t.database, 'Dallas Hub');
  cust = await makeCustomer(t.database, [wh]);
  otherCust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust);
  otherSku = await makeSku(t.database, otherCust);
  const m = await makeUser(t.database, {
    role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust, otherCust],
    modules: { LocationGroup: 'write' },
  });
  manager = as(t.app, await login(t.app, m.username, m.password));
});
afterAll(async () => { await t?.close(); });

const suffix = () => randomBytes(3).toString('hex').toUpperCase();
const location = (over: Record<string, unknown> = {}) => ({
  warehouseId: wh, locationCode: `T-${suffix()}`, locationType: 'rack', capacity: 100, description: 'Test location', ...over,
});
const pattern = (over: Record<string, unknown> = {}) => ({
  warehouseId: wh, type: 'rack', zone: 'P', aisles: { from: 1, to: 2 }, racks: { from: 1, to: 3 }, levels: { from: 1, to: 2 }, capacity: 50, ...over,
});
const countIn = async (warehouseId: number) => Number((await t.database.db.selectFrom('location').select((eb) => eb.fn.countAll<number>().as('n'))
  .where('warehouse_id', '=', warehouseId).executeTakeFirstOrThrow()).n);
const auditRows = (action: string) => t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'location').where('action', '=', action).execute();
const idOf = async (warehouseId: number, code: string) =>
  (await t.database.db.selectFrom('location').select('id').where('warehouse_id', '=', warehouseId).where('code', '=', code).executeTakeFirstOrThrow()).id;

type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; type?: string };
/** A multipart/form-data body, as a browser's upload form sends it. */
function multipart(parts: Part[]) {
  const boundary = `----bolx${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head = 'filename' in p
      ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}`
      : `Content-Disposition: form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), 'filename' in p ? p.content : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (s: ReturnType<typeof as>, warehouseId: number | null, fileName: string, content: Buffer | string) => {
  const parts: Part[] = warehouseId == null ? [] : [{ name: 'warehouseId', value: String(warehouseId) }];
  parts.push({ name: 'file', filename: fileName, content: Buffer.from(content) });
  const body = multipart(parts);
  return s.post(`${L}/UploadLocations`, body.payload, body.headers);
};

describe('GetLocationTypes', () => {
  it('lists the storage kinds of spec section 9 and the other kinds', async () => {
    const res = await admin.get(`${L}/GetLocationTypes`);
    expect(res.statusCode).toBe(200);
    const types = res.json() as { code: string; category: string }[];
    expect(types.filter((x) => x.category === 'storage').map((x) => x.code)).toEqual(['rack', 'shelf', 'zone', 'aisle']);
    expect(types.filter((x) => x.category === 'other').map((x) => x.code)).toEqual(['staging', 'dock', 'returns', 'quarantine', 'tote']);
  });
});

describe('CreateLocation', () => {
  it('creates one location with a success message and an audit row', async () => {
    const res = await admin.post(`${L}/CreateLocation`, location({ locationCode: 'a-01-01-1', locationType: 'Shelf', zone: 'a' }));
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Location created successfully');
    expect(data).toMatchObject({ locationCode: 'A-01-01-1', locationType: 'shelf', zone: 'A', capacity: 100, onHand: 0, occupancy: 0, isActive: true, category: 'storage', warehouseName: 'Newark Fulfillment Center' });
    const audit = (await auditRows('create')).filter((a) => a.entity_id === String(data.locationId));
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].after_json!).locationCode).toBe('A-01-01-1');
  });

  it('refuses a code already used in the warehouse (409), but not in another warehouse', async () => {
    await admin.post(`${L}/CreateLocation`, location({ locationCode: 'DUP-1' }));
    const again = await admin.post(`${L}/CreateLocation`, location({ locationCode: 'dup-1' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Location code DUP-1 already exists in this warehouse');
    expect((await admin.post(`${L}/CreateLocation`, location({ locationCode: 'DUP-1', warehouseId: otherWh }))).statusCode).toBe(200);
  });

  it('refuses bad input with field messages and writes nothing', async () => {
    const before = await countIn(wh);
    const res = await admin.post(`${L}/CreateLocation`, location({ locationCode: '', capacity: -1 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({ locationCode: 'Please enter location code!', capacity: 'Capacity must be a whole number of 0 or more (0 = unlimited)' });
    expect((await admin.post(`${L}/CreateLocation`, location({ locationCode: 'BAD CODE!' }))).statusCode).toBe(400);
    expect((await admin.post(`${L}/CreateLocation`, location({ locationType: 'cupboard' }))).json()).toMatchObject({ status: 400, details: { locationType: 'Please select location type!' } });
    expect((await admin.post(`${L}/CreateLocation`, location({ capacity: 1.5 }))).statusCode).toBe(400);
    expect(await countIn(wh)).toBe(before);
  });

  it('answers 404 for an unknown warehouse and 403 outside the caller’s warehouses', async () => {
    expect((await admin.post(`${L}/CreateLocation`, location({ warehouseId: 999999 }))).statusCode).toBe(404);
    expect((await manager.post(`${L}/CreateLocation`, location({ warehouseId: otherWh }))).statusCode).toBe(403);
    expect((await manager.post(`${L}/CreateLocation`, location())).statusCode).toBe(200);
  });

  it('needs the CreateLocation module with write', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], modules: { CreateLocation: 'read', Location: 'write' } });
    const s = as(t.app, await login(t.app, u.username, u.password));
    expect((await s.post(`${L}/CreateLocation`, location())).statusCode).toBe(403);
  });
});

describe('pattern creation', () => {
  it('previews the count and first codes and writes nothing', async () => {
    const before = await countIn(wh);
    const res = await admin.post(`${L}/PreviewLocationPattern`, pattern({ zone: 'PV' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      count: 12, limit: 10000, withinLimit: true, lastCode: 'PV-02-03-02', conflicts: [], conflictCount: 0,
      sample: ['PV-01-01-01', 'PV-01-01-02', 'PV-01-02-01', 'PV-01-02-02', 'PV-01-03-01', 'PV-01-03-02', 'PV-02-01-01', 'PV-02-01-02',
        'PV-02-02-01', 'PV-02-02-02', 'PV-02-03-01', 'PV-02-03-02'],
    });
    expect(await countIn(wh)).toBe(before);
  });

  it('creates every zone-aisle-rack-level-bin combination with its segments', async () => {
    const res = await admin.post(`${L}/CreateLocationsByPattern`, pattern({
      zone: 'B', aisles: { from: 9, to: 10 }, racks: { from: 1, to: 1 }, levels: { from: 'A', to: 'C' }, bins: { from: 1, to: 2 }, padding: 3, separator: '.',
    }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: '12 locations created successfully', data: { count: 12, firstCode: 'B.009.001.A.001', lastCode: 'B.010.001.C.002' } });
    const rows = await t.database.db.selectFrom('location').selectAll().where('warehouse_id', '=', wh).where('zone', '=', 'B').orderBy('code').execute();
    expect(rows.map((r) => r.code)).toEqual([
      'B.009.001.A.001', 'B.009.001.A.002', 'B.009.001.B.001', 'B.009.001.B.002', 'B.009.001.C.001', 'B.009.001.C.002',
      'B.010.001.A.001', 'B.010.001.A.002', 'B.010.001.B.001', 'B.010.001.B.002', 'B.010.001.C.001', 'B.010.001.C.002',
    ]);
    expect(rows[0]).toMatchObject({ zone: 'B', aisle: '009', rack: '001', level: 'A', bin: '001', capacity: 50, type: 'rack', is_active: 1 });
    const audit = (await auditRows('createByPattern')).at(-1)!;
    expect(JSON.parse(audit.after_json!)).toMatchObject({ count: 12, codes: expect.arrayContaining(['B.009.001.A.001']) });
  });

  it('is all or nothing: one existing code refuses the batch and names it', async () => {
    await admin.post(`${L}/CreateLocation`, location({ locationCode: 'C-02-02-01' }));
    const before = await countIn(wh);
    const preview = (await admin.post(`${L}/PreviewLocationPattern`, pattern({ zone: 'C' }))).json();
    expect(preview).toMatchObject({ count: 12, conflicts: ['C-02-02-01'], conflictCount: 1 });
    const res = await admin.post(`${L}/CreateLocationsByPattern`, pattern({ zone: 'C' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Location code C-02-02-01 already exists in this warehouse');
    expect(await countIn(wh)).toBe(before);
  });

  it('caps one call at 10,000 locations', async () => {
    const big = pattern({ zone: 'X', aisles: { from: 1, to: 30 }, racks: { from: 1, to: 30 }, levels: { from: 1, to: 12 } });
    const preview = (await admin.post(`${L}/PreviewLocationPattern`, big)).json();
    expect(preview).toMatchObject({ count: 10800, withinLimit: false, sample: [] });
    const res = await admin.post(`${L}/CreateLocationsByPattern`, big);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/at most 10,000 locations/);
  });

  it('refuses reversed or mixed ranges and other warehouses', async () => {
    expect((await admin.post(`${L}/CreateLocationsByPattern`, pattern({ aisles: { from: 3, to: 1 } }))).statusCode).toBe(400);
    expect((await admin.post(`${L}/CreateLocationsByPattern`, pattern({ levels: { from: 1, to: 'C' } }))).statusCode).toBe(400);
    expect((await manager.post(`${L}/CreateLocationsByPattern`, pattern({ warehouseId: otherWh }))).statusCode).toBe(403);
    expect((await manager.post(`${L}/PreviewLocationPattern`, pattern({ warehouseId: otherWh }))).statusCode).toBe(403);
  });
});

describe('UploadLocations', () => {
  const HEADER = 'Location Code,Location Type,Zone,Aisle,Rack,Level,Bin,Capacity,Description';

  it('imports a good CSV (any header case or order, types by code or name)', async () => {
    const csv = [
      'location type,LOCATION CODE,Capacity,Description,Zone',
      'rack,u-01,10,"Top, left",U',
      'Shelf,U-02,0,,U',
      '',
      'Dock,U-DOCK,5,Inbound door,',
    ].join('\r\n');
    const res = await upload(admin, wh, 'locations.csv', `\ufeff${csv}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: '3 locations uploaded successfully', data: { count: 3, fileName: 'locations.csv' } });
    const rows = await t.database.db.selectFrom('location').selectAll().where('warehouse_id', '=', wh).where('code', 'like', 'U-%').orderBy('code').execute();
    expect(rows.map((r) => [r.code, r.type, r.capacity, r.description, r.zone])).toEqual([
      ['U-01', 'rack', 10, 'Top, left', 'U'], ['U-02', 'shelf', 0, null, 'U'], ['U-DOCK', 'dock', 5, 'Inbound door', null],
    ]);
    expect((await auditRows('upload')).at(-1)!.after_json).toContain('U-DOCK');
  });

  it('imports a good XLSX', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Locations');
    sheet.addRow(HEADER.split(','));
    sheet.addRow(['X-01-01', 'rack', 'X', 1, 1, null, null, 25, 'From Excel']);
    sheet.addRow(['X-01-02', 'aisle', 'X', 1, 2, null, null, 0, null]);
    const res = await upload(admin, wh, 'locations.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.count).toBe(2);
    const row = await t.database.db.selectFrom('location').selectAll().where('warehouse_id', '=', wh).where('code', '=', 'X-01-01').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'rack', zone: 'X', aisle: '1', rack: '1', capacity: 25, description: 'From Excel' });
  });

  it('answers 422 with every row’s errors and writes nothing when any row is bad', async () => {
    await admin.post(`${L}/CreateLocation`, location({ locationCode: 'EXISTING-1' }));
    const before = await countIn(wh);
    const csv = [
      HEADER,
      'V-01,rack,,,,,,10,fine',
      'V-02,cupboard,,,,,,10,',
      'V-01,rack,,,,,,10,duplicate in file',
      'EXISTING-1,rack,,,,,,10,',
      ',rack,,,,,,-3,',
      'V-03,rack,TOO-LONG-ZONE!,,,,,x,',
    ].join('\n');
    const res = await upload(admin, wh, 'bad.csv', csv);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe('The file has 7 errors; nothing was imported');
    expect(body.details).toEqual({
      '3.Location Type': "Row 3, Location Type: Unknown location type 'cupboard'",
      '4.Location Code': 'Row 4, Location Code: Duplicate of row 2',
      '5.Location Code': 'Row 5, Location Code: Location code already exists in this warehouse',
      '6.Location Code': 'Row 6, Location Code: Please enter location code!',
      '6.Capacity': 'Row 6, Capacity: Capacity must be a whole number of 0 or more (0 = unlimited)',
      '7.Zone': 'Row 7, Zone: Use 1–16 letters or digits',
      '7.Capacity': 'Row 7, Capacity: Capacity must be a whole number of 0 or more (0 = unlimited)',
    });
    expect(await countIn(wh)).toBe(before);
  });

  it('refuses a missing header column, an empty file, another file type, a missing warehouse and a JSON body', async () => {
    const before = await countIn(wh);
    const noCapacity = await upload(admin, wh, 'a.csv', 'Location Code,Location Type\nQ-1,rack');
    expect(noCapacity.statusCode).toBe(422);
    expect(noCapacity.json().details).toEqual({ '1.Capacity': 'Row 1, Capacity: column is missing' });
    expect((await upload(admin, wh, 'a.csv', HEADER)).statusCode).toBe(422);
    expect((await upload(admin, wh, 'a.txt', `${HEADER}\nQ-1,rack,,,,,,1,`)).statusCode).toBe(400);
    expect((await upload(admin, wh, 'a.xlsx', 'not a workbook')).statusCode).toBe(400);
    expect((await upload(admin, null, 'a.csv', `${HEADER}\nQ-1,rack,,,,,,1,`)).json()).toMatchObject({ status: 400, details: { warehouseId: 'Please select a warehouse' } });
    expect((await admin.post(`${L}/UploadLocations`, { warehouseId: wh })).statusCode).toBe(400);
    expect(await countIn(wh)).toBe(before);
  });

  it('holds uploads to the caller’s warehouses', async () => {
    expect((await upload(manager, otherWh, 'a.csv', `${HEADER}\nQ-1,rack,,,,,,1,`)).statusCode).toBe(403);
  });

  it('gives the template with the upload columns', async () => {
    const res = await admin.get(`${L}/DownloadLocationTemplate`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((book.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(HEADER.split(','));
  });
});

describe('lists, occupancy and updates', () => {
  let listWh: number;
  let session: ReturnType<typeof as>;
  const list = (body: Record<string, unknown> = {}, s = session) => s.post(`${L}/GetLocations`, body);
  const codes = (res: { json(): { items: { locationCode: string }[] } }) => res.json().items.map((i) => i.locationCode);

  beforeAll(async () => {
    listWh = await makeWarehouse(t.database, 'List Warehouse');
    await t.database.db.insertInto('customer_warehouse').values([{ customer_id: cust, warehouse_id: listWh }, { customer_id: otherCust, warehouse_id: listWh }]).execute();
    const u = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [listWh], customerIds: [cust, otherCust], modules: { LocationGroup: 'write' } });
    session = as(t.app, await login(t.app, u.username, u.password));
    expect((await session.post(`${L}/CreateLocationsByPattern`, pattern({ warehouseId: listWh, zone: 'A', aisles: { from: 1, to: 1 }, racks: { from: 1, to: 2 }, levels: { from: 1, to: 2 }, capacity: 200 }))).statusCode).toBe(200);
    expect((await session.post(`${L}/CreateLocationsByPattern`, pattern({ warehouseId: listWh, zone: 'B', type: 'shelf', aisles: { from: 1, to: 1 }, racks: { from: 1, to: 1 }, levels: { from: 1, to: 2 }, capacity: 0 }))).statusCode).toBe(200);
    expect((await session.post(`${L}/CreateLocation`, location({ warehouseId: listWh, locationCode: 'DOCK-01', locationType: 'dock', capacity: 0 }))).statusCode).toBe(200);
    expect((await session.post(`${L}/CreateLocation`, location({ warehouseId: listWh, locationCode: 'Z-OFF', isActive: false }))).statusCode).toBe(200);
    const place = async (code: string, qty: number, customerId: number, skuId: number) => {
      const res = await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: listWh, customerId, skuId, locationId: await idOf(listWh, code), quantityChange: qty, reasonCode: 'FOUND' });
      expect(res.statusCode).toBe(200);
    };
    await place('A-01-01-01', 150, cust, sku);
    await place('A-01-01-01', 30, otherCust, otherSku);
    await place('A-01-02-02', 20, otherCust, otherSku);
    await place('B-01-01-01', 7, cust, sku);
  });

  it('pages storage locations with capacity, on hand and occupancy', async () => {
    const res = await list({ pageSize: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json().totalCount).toBe(7);
    expect(codes(res)).toEqual(['A-01-01-01', 'A-01-01-02', 'A-01-02-01']);
    expect(res.json().items[0]).toMatchObject({ capacity: 200, onHand: 180, occupancy: 90, category: 'storage', warehouseId: listWh });
    expect(res.json().items[1]).toMatchObject({ onHand: 0, occupancy: 0 });
    const page3 = await list({ pageSize: 3, pageNumber: 3 });
    expect(codes(page3)).toEqual(['Z-OFF']);
    const unlimited = (await list({ searchQuery: 'b-01-01-01' })).json().items[0];
    expect(unlimited).toMatchObject({ capacity: 0, onHand: 7, occupancy: null });
  });

  it('filters by type, zone, occupancy and status, searches and sorts', async () => {
    expect(codes(await list({ filters: { type: 'shelf' } }))).toEqual(['B-01-01-01', 'B-01-01-02']);
    expect(codes(await list({ filters: { zone: 'a' } }))).toEqual(['A-01-01-01', 'A-01-01-02', 'A-01-02-01', 'A-01-02-02']);
    expect(codes(await list({ filters: { occupied: 'occupied' } }))).toEqual(['A-01-01-01', 'A-01-02-02', 'B-01-01-01']);
    expect(codes(await list({ filters: { occupied: 'empty', zone: 'A' } }))).toEqual(['A-01-01-02', 'A-01-02-01']);
    expect(codes(await list({ filters: { isActive: 'inactive' } }))).toEqual(['Z-OFF']);
    expect(codes(await list({ searchQuery: 'a-01-02' }))).toEqual(['A-01-02-01', 'A-01-02-02']);
    expect(codes(await list({ sort: { field: 'locationCode', order: 'descend' }, pageSize: 2 }))).toEqual(['Z-OFF', 'B-01-01-02']);
    expect(codes(await list({ sort: { field: 'capacity', order: 'ascend' }, pageSize: 2 }))).toEqual(['B-01-01-01', 'B-01-01-02']);
    expect((await list({ searchQuery: "%' OR 1=1 --" })).json().totalCount).toBe(0);
    expect((await list({ sort: { field: 'code; drop table location', order: 'ascend' } })).statusCode).toBe(200);
  });

  it('lists the other kinds (dock, staging, returns, quarantine) separately, in the same shape', async () => {
    const other = await session.post(`${L}/GetOtherLocations`, {});
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ totalCount: 1, items: [{ locationCode: 'DOCK-01', locationType: 'dock', category: 'other', occupancy: null }] });
    expect(codes(await list())).not.toContain('DOCK-01');
    const xlsx = await session.post(`${L}/DownloadOtherLocationExcel`, {});
    expect(xlsx.statusCode).toBe(200);
  });

  it('holds a user to their warehouses', async () => {
    expect((await list({ filters: { warehouseId: wh } })).statusCode).toBe(403);
    const all = (await list({ pageSize: 100 })).json().items as { warehouseId: number }[];
    expect(new Set(all.map((i) => i.warehouseId))).toEqual(new Set([listWh]));
    const elsewhere = await idOf(wh, 'A-01-01-1');
    expect((await session.get(`${L}/GetLocationById?locationId=${elsewhere}`)).statusCode).toBe(403);
    expect((await session.put(`${L}/UpdateLocation`, { ...location(), locationId: elsewhere })).statusCode).toBe(403);
  });

  it('downloads the filtered list as xlsx', async () => {
    const res = await session.post(`${L}/DownloadLocationExcel`, { filters: { zone: 'A' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="locations-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(5);
    expect(sheet.getRow(2).getCell(2).value).toBe('A-01-01-01');
    expect(sheet.getRow(2).getCell(11).value).toBe(90);
  });

  it('gives filter labels with the zones in scope', async () => {
    const labels = (await session.get(`${L}/LocationFiltersLabels`)).json() as { key: string; options: { value: string }[] }[];
    expect(labels.map((l) => l.key)).toEqual(['type', 'zone', 'occupied', 'isActive']);
    expect(labels[1].options.map((o) => o.value)).toEqual(['A', 'B']);
  });

  it('reads one location, and 404 for an unknown id', async () => {
    const id = await idOf(listWh, 'A-01-02-02');
    const res = await session.get(`${L}/GetLocationById?locationId=${id}`);
    expect(res.json()).toMatchObject({ locationId: id, onHand: 20, occupancy: 10 });
    expect((await session.get(`${L}/GetLocationById?locationId=999999`)).statusCode).toBe(404);
  });

  it('reports used and total storage positions per warehouse', async () => {
    const res = await session.get(`${L}/GetLocationOccupancy`);
    expect(res.json()).toEqual([{ warehouseId: listWh, warehouseName: 'List Warehouse', totalPositions: 6, usedPositions: 3, occupancy: 50 }]);
  });

  it('updates a location with before and after in the audit', async () => {
    const id = await idOf(listWh, 'A-01-02-01');
    const res = await session.put(`${L}/UpdateLocation`, {
      locationId: id, locationCode: 'A-01-02-01', locationType: 'shelf', capacity: 300, description: 'Wider bay', zone: 'A', isPickable: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Location updated successfully', data: { locationType: 'shelf', capacity: 300, isPickable: false, description: 'Wider bay' } });
    const audit = (await auditRows('update')).find((a) => a.entity_id === String(id))!;
    expect(JSON.parse(audit.before_json!).capacity).toBe(200);
    expect(JSON.parse(audit.after_json!).capacity).toBe(300);
  });

  it('refuses a clashing code (409), an unknown id (404) and deactivating a location holding stock (422)', async () => {
    const id = await idOf(listWh, 'A-01-02-01');
    const base = { locationCode: 'A-01-02-01', locationType: 'rack', capacity: 10 };
    expect((await session.put(`${L}/UpdateLocation`, { ...base, locationId: id, locationCode: 'A-01-01-02' })).statusCode).toBe(409);
    expect((await session.put(`${L}/UpdateLocation`, { ...base, locationId: 999999 })).statusCode).toBe(404);
    const full = await idOf(listWh, 'A-01-01-01');
    const res = await session.put(`${L}/UpdateLocation`, { ...base, locationCode: 'A-01-01-01', locationId: full, isActive: false });
    expect(res.statusCode).toBe(422);
    expect((await session.get(`${L}/GetLocationById?locationId=${full}`)).json()).toMatchObject({ isActive: true, capacity: 200 });
  });

  it('shows a client only the locations holding its own stock, with its own units, and lets it write nothing', async () => {
    const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { LocationGroup: 'write' } });
    const client = as(t.app, await login(t.app, c.username, c.password));
    const res = await list({ filters: { warehouseId: listWh } }, client);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { locationCode: string; onHand: number }) => [i.locationCode, i.onHand])).toEqual([['A-01-01-01', 150], ['B-01-01-01', 7]]);
    expect((await client.get(`${L}/GetLocationById?locationId=${await idOf(listWh, 'A-01-02-02')}`)).statusCode).toBe(404);
    expect((await client.get(`${L}/GetLocationById?locationId=${await idOf(listWh, 'A-01-01-01')}`)).json().onHand).toBe(150);
    expect((await client.post(`${L}/CreateLocation`, location({ warehouseId: listWh }))).statusCode).toBe(403);
    expect((await client.post(`${L}/CreateLocationsByPattern`, pattern({ warehouseId: listWh }))).statusCode).toBe(403);
    expect((await client.put(`${L}/UpdateLocation`, { locationId: await idOf(listWh, 'A-01-01-01'), locationCode: 'A-01-01-01', locationType: 'rack', capacity: 1 })).statusCode).toBe(403);
    expect((await upload(client, listWh, 'a.csv', 'Location Code,Location Type,Capacity\nQ-1,rack,1')).statusCode).toBe(403);
    expect((await client.post(`${L}/PrintLocationLabels`, { warehouseId: listWh })).statusCode).toBe(403);
  });

  it('downloads with formula-like text escaped', async () => {
    const made = await session.post(`${L}/CreateLocation`, location({ warehouseId: listWh, locationCode: 'XL-EVIL', zone: 'X', description: '=HYPERLINK("http://evil")' }));
    expect(made.statusCode).toBe(200);
    const res = await session.post(`${L}/DownloadLocationExcel`, { searchQuery: 'XL-EVIL' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(1).getCell(12).value).toBe('Description');
    expect(sheet.getRow(2).getCell(12).value).toBe('\'=HYPERLINK("http://evil")');
  });
});

/** zbarimg and pdftoppm decode what a scanner would; without them outside CI the decode tests are skipped. */
const decoders = existsSync('/usr/bin/zbarimg') && existsSync('/usr/bin/pdftoppm');
if (!decoders && process.env.CI) throw new Error('CI needs zbarimg (zbar-tools) and pdftoppm (poppler-utils) to decode label barcodes');
const withDecoder = decoders ? describe : describe.skip;
if (!decoders) console.warn('Skipping barcode decode tests: /usr/bin/zbarimg or /usr/bin/pdftoppm is missing (apt-get install zbar-tools poppler-utils)');

/** Every value of one symbology zbarimg finds in the images, sorted. */
function decode(files: string[], symbology: 'code128' | 'qrcode'): string[] {
  let out = '';
  try {
    out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', `-S${symbology}.enable`, ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? ''); // exit 4: nothing found in some image
  }
  return out.split('\n').filter(Boolean).sort();
}

function pdfPages(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bolx-labels-'));
  writeFileSync(join(dir, 'labels.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', '200', '-png', join(dir, 'labels.pdf'), join(dir, 'page')]);
  return readdirSync(dir).filter((f) => f.endsWith('.png')).map((f) => join(dir, f));
}

describe('PrintLocationLabels', () => {
  let labelWh: number;
  let ids: number[];
  const codes = ['L-01-01-01', 'L-01-01-02', 'L-01-02-01', 'L-01-02-02', 'L-02-01-01'];
  const dirs: string[] = [];
  const print = (body: Record<string, unknown>) => admin.post(`${L}/PrintLocationLabels`, { warehouseId: labelWh, ...body });
  const pages = (pdf: Buffer) => {
    const files = pdfPages(pdf);
    dirs.push(join(files[0], '..'));
    return files;
  };

  beforeAll(async () => {
    labelWh = await makeWarehouse(t.database, 'Label Warehouse');
    for (const code of codes) await admin.post(`${L}/CreateLocation`, location({ warehouseId: labelWh, locationCode: code }));
    await admin.post(`${L}/CreateLocation`, location({ warehouseId: labelWh, locationCode: 'LONGZONE1-0001-0002-0003-0004' }));
    ids = await Promise.all(codes.map((c) => idOf(labelWh, c)));
  });
  afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('answers a PDF', async () => {
    const res = await print({ locationIds: ids.slice(0, 2), labelSize: '4x6', symbology: 'code128' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  withDecoder('decoded with zbarimg', () => {
    it.each([
      ['4x6', 'code128'], ['4x2', 'both'], ['2x1', 'code128'], ['2x1', 'qr'], ['A4-sheet', 'both'],
    ] as const)('%s labels in %s decode to the location codes', async (labelSize, symbology) => {
      const res = await print({ locationIds: ids, labelSize, symbology });
      expect(res.statusCode).toBe(200);
      const files = pages(res.rawPayload);
      expect(files).toHaveLength(labelSize === 'A4-sheet' ? 1 : codes.length);
      expect(decode(files, 'code128')).toEqual(symbology === 'qr' ? [] : codes);
      expect(decode(files, 'qrcode')).toEqual(symbology === 'code128' ? [] : codes);
    });

    it('selects by code range and type', async () => {
      const res = await print({ fromCode: 'l-01-02', toCode: 'L-01-99', type: 'rack', labelSize: '4x2', symbology: 'qr' });
      expect(decode(pages(res.rawPayload), 'qrcode')).toEqual(['L-01-02-01', 'L-01-02-02']);
    });
  });

  it('refuses no match (404), an id of another warehouse (404), another warehouse (403) and a code too long for its label (400)', async () => {
    expect((await print({ fromCode: 'ZZZ' })).statusCode).toBe(404);
    expect((await print({ locationIds: [ids[0], await idOf(wh, 'A-01-01-1')] })).statusCode).toBe(404);
    expect((await manager.post(`${L}/PrintLocationLabels`, { warehouseId: labelWh })).statusCode).toBe(403);
    const long = await print({ fromCode: 'LONGZONE', toCode: 'LONGZONF', labelSize: '2x1', symbology: 'both' });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/too long for a readable Code 128/);
    expect((await print({ labelSize: '3x3' })).statusCode).toBe(400);
  });
});

describe('GetQRCode', () => {
  const text = 'https://bolx.example.com/loc/A-01-01-1';

  it('answers an SVG', async () => {
    const res = await admin.get(`${L}/GetQRCode?format=svg&text=${encodeURIComponent(text)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body.startsWith('<svg')).toBe(true);
  });

  withDecoder('decoded with zbarimg', () => {
    it('answers a PNG that decodes to the text', async () => {
      const res = await admin.get(`${L}/GetQRCode?text=${encodeURIComponent(text)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const dir = mkdtempSync(join(tmpdir(), 'bolx-qr-'));
      writeFileSync(join(dir, 'qr.png'), res.rawPayload);
      expect(decode([join(dir, 'qr.png')], 'qrcode')).toEqual([text]);
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers a Code 128 PNG that decodes to the text with symbology=code128', async () => {
      const res = await admin.get(`${L}/GetQRCode?symbology=code128&text=${encodeURIComponent('PALLET-000123')}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const dir = mkdtempSync(join(tmpdir(), 'bolx-c128-'));
      writeFileSync(join(dir, 'c128.png'), res.rawPayload);
      expect(decode([join(dir, 'c128.png')], 'code128')).toEqual(['PALLET-000123']);
      expect(decode([join(dir, 'c128.png')], 'qrcode')).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    });
  });

  it('answers a Code 128 SVG, and 400 for text Code 128 cannot hold or an unknown symbology', async () => {
    const svg = await admin.get(`${L}/GetQRCode?symbology=code128&format=svg&text=A-01`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    const bad = await admin.get(`${L}/GetQRCode?symbology=code128&text=${encodeURIComponent('Zürich ✓')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Code 128/);
    expect((await admin.get(`${L}/GetQRCode?symbology=ean13&text=1`)).statusCode).toBe(400);
  });

  it('refuses empty or over-long text', async () => {
    expect((await admin.get(`${L}/GetQRCode?text=`)).statusCode).toBe(400);
    expect((await admin.get(`${L}/GetQRCode?text=${'a'.repeat(501)}`)).statusCode).toBe(400);
    expect((await admin.get(`${L}/GetQRCode`)).statusCode).toBe(400);
  });

  it('needs the QRCode module', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], modules: { Location: 'read' } });
    const s = as(t.app, await login(t.app, u.username, u.password));
    expect((await s.get(`${L}/GetQRCode?text=x`)).statusCode).toBe(403);
  });
});
