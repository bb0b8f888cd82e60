import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { isValidSscc } from '../../platform/gs1.js';
import { as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, multipartBody, postStock, type TestApp } from '../../../test/helpers.js';

// Issue 18: the pallet register — licence plates one by one or from a sheet (all or nothing), SSCCs, the ids stock uses.
let t: TestApp;
type Caller = ReturnType<typeof as>;
let staff: Caller, outsider: Caller, client: Caller;
let wh: number, otherWh: number, cust: number, gs1Cust: number, bin: number, bin2: number, bin2Code: string, binCode: string;
let seq = 0;

const P = '/Warehouse/Pallet';
const db = () => t.database.db;
const pallets = async () => Number((await db().selectFrom('pallet').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
const tag = () => `${++seq}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const HEADER = 'Pallet ID,Pallet Type,Length (cm),Width (cm),Height (cm),Weight Capacity (kg),Current Location';
const upload = (by: Caller, csv: string | Buffer, fields: Record<string, string | number> = { warehouseId: wh }, name = 'pallets.csv') => {
  const body = multipartBody(fields, { name, bytes: Buffer.isBuffer(csv) ? csv : Buffer.from(csv) });
  return by.post(`${P}/UploadPallets`, body.payload, body.headers);
};
const one = (extra: Record<string, unknown> = {}) => ({
  warehouseId: wh, palletType: 'euro', lengthCm: 120, widthCm: 80, heightCm: 144, weightCapacityKg: 1500, locationId: bin, ...extra,
});

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  gs1Cust = await makeCustomer(t.database, [wh]);
  await db().updateTable('customer').set({ gs1_company_prefix: '0614141' }).where('id', '=', gs1Cust).execute();
  binCode = `PB-${tag()}`;
  bin = await makeLocation(t.database, wh, binCode);
  bin2Code = `PB-${tag()}`;
  bin2 = await makeLocation(t.database, wh, bin2Code);
  const s = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, gs1Cust], modules: { MovePallet: 'write' } });
  staff = as(t.app, await login(t.app, s.username, s.password));
  const o = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [otherWh], customerIds: [cust], modules: { MovePallet: 'write' } });
  outsider = as(t.app, await login(t.app, o.username, o.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { MovePallet: 'write' } });
  client = as(t.app, await login(t.app, c.username, c.password));
});
afterAll(async () => { await t?.close(); });

describe('one pallet', () => {
  it('registers the id stock already uses, and lists what is on it', async () => {
    const id = `LP-${tag()}`;
    const sku = await makeSku(t.database, cust);
    await postStock(t, [{ place: { warehouseId: wh, customerId: cust, skuId: sku, locationId: bin, lot: '', pallet: id }, qty: 7 }]);
    const res = await staff.post(`${P}/CreatePallet`, one({ palletId: id, customerId: cust }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: `Pallet ${id} created`, data: { palletId: id } });
    const list = await staff.post(`${P}/GetPallets`, { searchQuery: id });
    expect(list.json().items).toEqual([expect.objectContaining({ palletId: id, palletType: 'euro', lengthCm: 120, weightCapacityKg: 1500, locationCode: binCode, onHand: 7, sscc: null })]);
    const again = await staff.post(`${P}/CreatePallet`, one({ palletId: id }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain(id);
  });

  it('gives a GS1 client\'s pallet its SSCC as its id, and another a PLT- number', async () => {
    const withSscc = await staff.post(`${P}/CreatePallet`, one({ customerId: gs1Cust }));
    expect(withSscc.statusCode, withSscc.body).toBe(200);
    const sscc = withSscc.json().data.palletId as string;
    expect(isValidSscc(sscc)).toBe(true);
    expect(sscc.slice(1, 8)).toBe('0614141');
    const row = await db().selectFrom('pallet').select(['sscc']).where('pallet_code', '=', sscc).executeTakeFirstOrThrow();
    expect(row.sscc).toBe(sscc);
    // The Add Data form names the location by its code.
    const plain = await staff.post(`${P}/CreatePallet`, one({ customerId: cust, locationId: undefined, locationCode: bin2Code.toLowerCase() }));
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().data.palletId).toMatch(/^PLT-\d{6}$/);
    expect((await db().selectFrom('pallet').select('location_id').where('pallet_code', '=', plain.json().data.palletId).executeTakeFirstOrThrow()).location_id).toBe(bin2);
  });

  it('refuses bad input, another warehouse\'s location, and callers outside the warehouse or not staff', async () => {
    const before = await pallets();
    expect((await staff.post(`${P}/CreatePallet`, one({ palletType: 'giant' }))).statusCode).toBe(400);
    expect((await staff.post(`${P}/CreatePallet`, one({ lengthCm: 0 }))).statusCode).toBe(400);
    expect((await staff.post(`${P}/CreatePallet`, one({ palletId: 'a b\u0000' }))).statusCode).toBe(400);
    const elsewhere = await makeLocation(t.database, otherWh, `OX-${tag()}`);
    expect((await staff.post(`${P}/CreatePallet`, one({ locationId: elsewhere }))).statusCode).toBe(422);
    expect((await staff.post(`${P}/CreatePallet`, one({ locationId: undefined, locationCode: 'NOWHERE' }))).statusCode).toBe(422);
    expect((await staff.post(`${P}/CreatePallet`, one({ locationId: undefined }))).statusCode).toBe(400);
    expect((await outsider.post(`${P}/CreatePallet`, one())).statusCode).toBe(403);
    expect((await client.post(`${P}/CreatePallet`, one())).statusCode).toBe(403);
    expect(await pallets()).toBe(before);
  });
});

describe('a pallet file', () => {
  it('uploads every row of a CSV, and an XLSX made from the template', async () => {
    const [a, b] = [`UP-${tag()}`, `UP-${tag()}`];
    const res = await upload(staff, `${HEADER}\n${a},standard,120,100,150,1000,${binCode}\n${b},Euro,120,80,144.5,1500,${bin2Code.toLowerCase()}\n,custom,100,100,100,500,${binCode}\n`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: '3 pallets uploaded successfully', data: { count: 3, fileName: 'pallets.csv' } });
    const rows = await db().selectFrom('pallet').select(['pallet_code', 'pallet_type', 'height_cm', 'location_id']).where('pallet_code', 'in', [a, b]).orderBy('pallet_code').execute();
    expect(rows.map((r) => [r.pallet_code, r.pallet_type, Number(r.height_cm), r.location_id])).toEqual([[a, 'standard', 150, bin], [b, 'euro', 144.5, bin2]].sort());

    const template = await staff.get(`${P}/DownloadPalletTemplate`);
    expect(template.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as never);
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER.split(','));
    // The sample rows filled in with this warehouse's data, as a user would.
    const x = `XL-${tag()}`;
    sheet.getRow(2).values = [x, 'standard', 120, 100, 150, 900, binCode];
    sheet.getRow(3).values = ['', 'euro', 120, 80, 144, 1500, bin2Code];
    const xlsx = await upload(staff, Buffer.from(await book.xlsx.writeBuffer()), { warehouseId: wh, customerId: cust }, 'pallets.xlsx');
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect((await db().selectFrom('pallet').select('customer_id').where('pallet_code', '=', x).executeTakeFirstOrThrow()).customer_id).toBe(cust);
  });

  it('writes nothing when any row is bad, naming each row: a duplicate id in the file or already registered, bad values, unknown location', async () => {
    const taken = `TK-${tag()}`;
    expect((await staff.post(`${P}/CreatePallet`, one({ palletId: taken }))).statusCode).toBe(200);
    const before = await pallets();
    const dup = `DU-${tag()}`;
    const csv = [
      HEADER,
      `${dup},standard,120,100,150,1000,${binCode}`,
      `${dup},standard,120,100,150,1000,${binCode}`,
      `${taken},euro,120,80,144,1500,${binCode}`,
      `OK-${tag()},flat,0,80,x,-5,NOPE-1`,
    ].join('\n');
    const res = await upload(staff, csv);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe('3 rows have errors; nothing was uploaded');
    expect(body.details['3.Pallet ID']).toBe('Row 3, Pallet ID: Duplicate of row 2');
    expect(body.details['4.Pallet ID']).toBe(`Row 4, Pallet ID: Pallet ${taken} already exists in this warehouse`);
    expect(Object.keys(body.details).filter((k) => k.startsWith('5.')).sort()).toEqual(['5.Current Location', '5.Height (cm)', '5.Length (cm)', '5.Pallet Type', '5.Weight Capacity (kg)']);
    expect(await pallets()).toBe(before);
  });

  it('refuses a file that is not a sheet, a header without the required columns, and a warehouse outside the caller\'s', async () => {
    const before = await pallets();
    expect((await upload(staff, Buffer.from('%PDF-1.4 x'), { warehouseId: wh }, 'pallets.pdf')).statusCode).toBe(400);
    const noType = await upload(staff, `Pallet ID,Current Location\nA-1,${binCode}`);
    expect(noType.statusCode).toBe(422);
    expect(noType.json().message).toContain('Pallet Type');
    expect((await upload(outsider, `${HEADER}\nZ-${tag()},standard,1,1,1,1,${binCode}`)).statusCode).toBe(403);
    expect(await pallets()).toBe(before);
  });
});
