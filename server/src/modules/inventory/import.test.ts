import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, multipartBody, recordEvents, type TestApp,
} from '../../../test/helpers.js';
import { inTransaction } from '../../platform/unit-of-work.js';

const U = '/Warehouse/Inventory/UploadInventory';
type Session = ReturnType<typeof as>;
let t: TestApp;
let admin: Session, client: Session, otherManager: Session;
let wh: number, cust: number, otherCust: number, loc: number, loc2: number, drill: number, saw: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  otherCust = await makeCustomer(t.database, [wh]);
  drill = await makeSku(t.database, cust, 'IMP-DRILL');
  saw = await makeSku(t.database, cust, 'IMP-SAW');
  await t.database.db.updateTable('sku').set({ is_lot_tracked: 1, is_expiry_tracked: 1 }).where('id', '=', saw).execute();
  await makeSku(t.database, otherCust, 'IMP-OTHER');
  loc = await makeLocation(t.database, wh);
  loc2 = await makeLocation(t.database, wh);
  const signIn = async (u: { username: string; password: string }) => as(t.app, await login(t.app, u.username, u.password));
  client = await signIn(await makeUser(t.database, { role: 'Client', customerId: cust, modules: { Adjustment: 'write' } }));
  otherManager = await signIn(await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [otherCust], modules: { Adjustment: 'write' } }));
});
afterAll(async () => { await t?.close(); });

function upload(session: Session, content: string | Buffer, fields: Record<string, string | number> = {}, fileName = 'count.csv') {
  const body = multipartBody({ warehouseId: wh, customerId: cust, inventoryType: 'Opening Stock', locationId: loc, countDate: '2026-11-20', ...fields }, { name: fileName, bytes: Buffer.from(content) });
  return session.post(U, body.payload, body.headers);
}
const onHand = async (skuId: number, locationId = loc, lot = '') =>
  (await t.database.db.selectFrom('inventory_balance').select('on_hand').where('location_id', '=', locationId).where('sku_id', '=', skuId).where('lot', '=', lot).executeTakeFirst())?.on_hand ?? 0;
const ledgerCount = async () => Number((await t.database.db.selectFrom('inventory_txn').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const balanced = async () => (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json().balanced as boolean;

describe('UploadInventory', () => {
  it('Opening Stock adds every row through the ledger in one document, audited, with one hub event', async () => {
    const events = await recordEvents(t.app);
    const res = await upload(admin, 'SKU,Quantity,Lot,Expiry Date,Pallet\nimp-drill,40,,,\nIMP-SAW,5,L1,2027-03-31,P-9\n');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Opening stock imported: 45 units on 2 rows', data: { rows: 2, posted: 2, units: 45, fileName: 'count.csv' } });
    expect(await onHand(drill)).toBe(40);
    expect(await onHand(saw, loc, 'L1')).toBe(5);
    const document = res.json().data.document;
    const ledger = await t.database.db.selectFrom('inventory_txn').selectAll().where('document_id', '=', document).orderBy('id').execute();
    expect(ledger.map((l) => [l.sku_id, l.qty_change, l.txn_type, l.document_type])).toEqual(expect.arrayContaining([[drill, 40, 'opening', 'IMPORT'], [saw, 5, 'opening', 'IMPORT']]));
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'inventory').where('entity_id', '=', document).execute();
    expect(audit).toHaveLength(1);
    const seen = (await events.until(1)).filter((e) => e.target === 'ReceiveInventoryData');
    expect(seen[0]).toMatchObject({ warehouseId: wh, customerId: cust, payload: { subEvent: 'Import', payload: { document, locationIds: [loc] } } });
    expect(await balanced()).toBe(true);
  });

  it('Stock Count sets the place to the count, posting only the difference (XLSX too)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Count');
    sheet.addRow(['SKU', 'Quantity', 'Lot', 'Expiry Date', 'Pallet']);
    sheet.addRow(['IMP-DRILL', 32]);
    sheet.addRow(['IMP-SAW', 5, 'L1', '2027-03-31', 'P-9']);
    const res = await upload(admin, Buffer.from(await book.xlsx.writeBuffer()), { inventoryType: 'Stock Count' }, 'count.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Stock count imported: 1 of 2 rows differed (-8 units)', data: { posted: 1, units: -8 } });
    expect(await onHand(drill)).toBe(32);
    expect(await onHand(saw, loc, 'L1')).toBe(5);
    expect(await balanced()).toBe(true);
  });

  it('answers 422 with every row’s errors and writes nothing when any row is bad (a negative quantity too)', async () => {
    const before = await ledgerCount();
    const csv = ['SKU,Quantity,Expiry Date', 'IMP-DRILL,10,', 'IMP-OTHER,5,', 'IMP-SAW,-3,', ',4,', 'IMP-DRILL,2,', 'IMP-SAW,1,31/31/2027'].join('\n');
    const res = await upload(admin, csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('5 rows have errors; nothing was imported');
    expect(res.json().details).toEqual({
      '3.SKU': "Row 3, SKU: No SKU of this client matches 'IMP-OTHER'",
      '4.Quantity': 'Row 4, Quantity: Quantity must be a whole number above 0',
      '4.Lot': 'Row 4, Lot: SKU IMP-SAW is lot-tracked: enter its lot',
      '5.SKU': 'Row 5, SKU: Please enter SKU!',
      '6.SKU': 'Row 6, SKU: Same SKU, lot and pallet as row 2',
      '7.Lot': 'Row 7, Lot: SKU IMP-SAW is lot-tracked: enter its lot',
      '7.Expiry Date': "Row 7, Expiry Date: '31/31/2027' is not a date (use YYYY-MM-DD)",
      '7.SKU': 'Row 7, SKU: Same SKU, lot and pallet as row 4',
    });
    expect(await ledgerCount()).toBe(before);
    expect(await onHand(drill)).toBe(32);
  });

  it('refuses a lot or an expiry date for a SKU that tracks neither, naming the row, and writes nothing', async () => {
    const before = await ledgerCount();
    const res = await upload(admin, 'SKU,Quantity,Lot,Expiry Date\nIMP-DRILL,3,L9,\nIMP-DRILL,4,,2027-01-31\n');
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual({
      '2.Lot': 'Row 2, Lot: SKU IMP-DRILL does not track lots: leave the lot empty',
      '3.Expiry Date': 'Row 3, Expiry Date: SKU IMP-DRILL does not track expiry: leave the expiry date empty',
    });
    expect(await ledgerCount()).toBe(before);
  });

  it('refuses a count below what is allocated, rolling back every row', async () => {
    await inTransaction(t.database.db, (uow) => t.app.services.stock.allocate(uow, { owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, warehouseId: wh, customerId: cust, skuId: drill, quantity: 30 }));
    const before = await ledgerCount();
    const res = await upload(admin, 'SKU,Quantity,Lot,Expiry Date,Pallet\nIMP-SAW,50,L1,2027-03-31,P-9\nIMP-DRILL,10,,,\n', { inventoryType: 'Stock Count' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('1 row has errors; nothing was imported');
    expect(res.json().details).toEqual({ '3.Quantity': 'Row 3, Quantity: 30 units of IMP-DRILL are allocated here; the count cannot be less' });
    expect(await ledgerCount()).toBe(before);
    expect(await onHand(saw, loc, 'L1')).toBe(5);
    expect(await onHand(drill)).toBe(32);
    expect(await balanced()).toBe(true);
  });

  it('refuses bad form fields, a location of another warehouse, a client account and another client', async () => {
    const before = await ledgerCount();
    const csv = 'SKU,Quantity\nIMP-DRILL,1\n';
    expect((await upload(admin, csv, { inventoryType: 'Whatever' })).json()).toMatchObject({ status: 400, details: { inventoryType: 'Please select inventory type!' } });
    expect((await upload(admin, csv, { countDate: '' })).json()).toMatchObject({ status: 400, details: { countDate: 'Please select count date!' } });
    expect((await upload(admin, csv, { locationId: '' })).statusCode).toBe(400);
    const otherWh = await makeWarehouse(t.database);
    const farLoc = await makeLocation(t.database, otherWh);
    expect((await upload(admin, csv, { locationId: farLoc })).statusCode).toBe(404);
    expect((await upload(client, csv)).statusCode).toBe(403);
    expect((await upload(otherManager, csv)).statusCode).toBe(403);
    expect(await ledgerCount()).toBe(before);
    expect(await onHand(drill, loc2)).toBe(0);
  });

  it('honours Idempotency-Key: a replay posts nothing more', async () => {
    const body = multipartBody({ warehouseId: wh, customerId: cust, inventoryType: 'Opening Stock', locationId: loc2, countDate: '2026-11-20' }, { name: 'a.csv', bytes: Buffer.from('SKU,Quantity\nIMP-DRILL,7\n') });
    const headers = { ...body.headers, 'idempotency-key': `imp-${Date.now()}` };
    const first = await admin.post(U, body.payload, headers);
    const second = await admin.post(U, body.payload, headers);
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await onHand(drill, loc2)).toBe(7);
  });

  it('gives the template', async () => {
    const res = await admin.get('/Warehouse/Inventory/DownloadInventoryTemplate');
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((book.worksheets[0].getRow(1).values as string[]).slice(1)).toEqual(['SKU', 'Quantity', 'Lot', 'Expiry Date', 'Pallet']);
  });
});
