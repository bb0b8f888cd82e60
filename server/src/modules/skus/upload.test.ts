import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeSku, makeUser, makeWarehouse, multipartBody, recordEvents, type TestApp } from '../../../test/helpers.js';

const B = '/warehouse/Sku';
type Session = ReturnType<typeof as>;

let t: TestApp;
let admin: Session;
/** A WarehouseManager who serves customer A only. */
let staff: Session;
/** A Client account of customer A (granted SKU write, which its role still refuses). */
let client: Session;
let custA: number, custB: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const wh = await makeWarehouse(t.database);
  custA = await makeCustomer(t.database, [wh], 'Upload Tools');
  custB = await makeCustomer(t.database, [wh], 'Upload Foods');
  const signIn = async (u: { username: string; password: string }) => as(t.app, await login(t.app, u.username, u.password));
  staff = await signIn(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [custA], modules: { SKU: 'write' } }));
  client = await signIn(await makeUser(t.database, { role: 'Client', customerId: custA, modules: { SKU: 'write' } }));
});
afterAll(async () => { await t?.close(); });

const HEADER = 'SKU,Description,UOM,UPC,Weight (kg),Length (cm),Width (cm),Height (cm),Min Qty,Max Qty';
function upload(session: Session, fileName: string, content: string | Buffer, fields: Record<string, string | number> = {}) {
  const body = multipartBody({ customerId: custA, skuCategory: 'Tools', ...fields }, { name: fileName, bytes: Buffer.from(content) });
  return session.post(`${B}/UploadSkus`, body.payload, body.headers);
}
const skusOf = (customerId: number) => t.database.db.selectFrom('sku').selectAll().where('customer_id', '=', customerId).orderBy('sku_code').execute();

describe('UploadSkus', () => {
  it('creates every SKU of a good CSV with the form’s category, audited, one SkuAdd each', async () => {
    const events = await recordEvents(t.app);
    const csv = [HEADER, 'UP-DRILL,Cordless drill,EA,,1.5,30,20,10,5,50', 'up-saw,"Saw, hand",,,,,,,,'].join('\n');
    const res = await upload(admin, 'skus.csv', csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: '2 SKUs uploaded successfully', data: { count: 2, fileName: 'skus.csv' } });
    const rows = (await skusOf(custA)).filter((r) => r.sku_code.toUpperCase().startsWith('UP-'));
    expect(rows.map((r) => [r.sku_code, r.description, r.category, r.uom, r.min_qty, r.max_qty, Number(r.weight_kg ?? 0)])).toEqual([
      ['UP-DRILL', 'Cordless drill', 'Tools', 'EA', 5, 50, 1.5], ['up-saw', 'Saw, hand', 'Tools', 'EA', null, null, 0],
    ]);
    const audits = await t.database.db.selectFrom('audit_log').select('entity_id').where('entity', '=', 'sku').where('action', '=', 'create').execute();
    expect(audits.map((a) => Number(a.entity_id))).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    const seen = (await events.until(2)).filter((e) => e.target === 'ReceiveSkuData');
    expect(seen.map((e) => [(e.payload as { subEvent: string }).subEvent, e.customerId])).toEqual([['SkuAdd', custA], ['SkuAdd', custA]]);
  });

  it('reads an XLSX sheet too', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('SKUs');
    sheet.addRow(HEADER.split(','));
    sheet.addRow(['UPX-1', 'From Excel', 'EA', null, 2, null, null, null, null, null]);
    const res = await upload(staff, 'skus.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    expect(res.statusCode, res.body).toBe(200);
    expect((await skusOf(custA)).some((r) => r.sku_code === 'UPX-1')).toBe(true);
  });

  it('answers 422 with every row’s errors and writes nothing when any row is bad', async () => {
    await makeSku(t.database, custA, 'UP-EXISTING');
    const before = (await skusOf(custA)).length;
    const csv = [
      HEADER,
      'UP-GOOD,Fine item,EA,,,,,,,',
      'UP-EXISTING,Taken code,EA,,,,,,,',
      'UP-GOOD,Duplicate in file,EA,,,,,,,',
      ',No code,EA,,,,,,,',
      'UP-BADUOM,Bad uom,CRATE,,,,,,,',
      'UP-WEIGHT,Bad weight,EA,,heavy,,,,9,3',
    ].join('\n');
    const res = await upload(admin, 'bad.csv', csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('5 rows have errors; nothing was uploaded');
    expect(res.json().details).toEqual({
      '3.SKU': 'Row 3, SKU: SKU code UP-EXISTING already exists for this client',
      '4.SKU': 'Row 4, SKU: Duplicate of row 2',
      '5.SKU': 'Row 5, SKU: Please enter SKU code!',
      '6.UOM': "Row 6, UOM: Unknown unit of measure 'CRATE'",
      '7.Weight (kg)': 'Row 7, Weight (kg): Weight must be a number',
    });
    expect((await skusOf(custA)).length).toBe(before);
  });

  it('refuses a missing category, a missing column, another file type', async () => {
    const before = (await skusOf(custA)).length;
    const noCategory = await upload(admin, 'a.csv', `${HEADER}\nUP-Q,Item,EA,,,,,,,`, { skuCategory: '' });
    expect(noCategory.json()).toMatchObject({ status: 400, details: { skuCategory: 'Please enter SKU category!' } });
    expect((await upload(admin, 'a.csv', 'SKU\nUP-Q')).json()).toMatchObject({ status: 422, details: { '1.Description': 'Row 1, Description: column is missing' } });
    expect((await upload(admin, 'a.pdf', '%PDF-1.4 nope')).statusCode).toBe(400);
    expect((await skusOf(custA)).length).toBe(before);
  });

  it('refuses another customer’s catalogue and a client account, writing nothing', async () => {
    const csv = `${HEADER}\nUP-SCOPE,Item,EA,,,,,,,`;
    expect((await upload(staff, 'a.csv', csv, { customerId: custB })).statusCode).toBe(403);
    expect((await upload(client, 'a.csv', csv)).statusCode).toBe(403);
    expect((await skusOf(custB)).length).toBe(0);
    expect((await skusOf(custA)).some((r) => r.sku_code === 'UP-SCOPE')).toBe(false);
  });

  it('gives the template with the upload columns', async () => {
    const res = await admin.get(`${B}/DownloadSkuTemplate`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((book.worksheets[0].getRow(1).values as string[]).slice(1)).toEqual(HEADER.split(','));
  });
});
