import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDay } from '../../platform/business-day.js';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, multipartBody, recordEvents, type TestApp,
} from '../../../test/helpers.js';

const R = '/Warehouse/Receiving';
let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, otherCust: number;
let lotSku: number, plainSku: number, thirdSku: number, otherSku: number;
let dock: number, staging: number, quarantine: number, rackA: number, shelfB: number, smallRack: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  otherCust = await makeCustomer(t.database, [wh]);
  lotSku = await makeSku(t.database, cust, 'RCV-LOT');
  plainSku = await makeSku(t.database, cust, 'RCV-PLAIN');
  thirdSku = await makeSku(t.database, cust, 'RCV-THIRD');
  otherSku = await makeSku(t.database, otherCust, 'RCV-OTHER');
  const db = t.database.db;
  await db.updateTable('sku').set({ is_lot_tracked: 1, is_expiry_tracked: 1, upc: '012345678905' }).where('id', '=', lotSku).execute();
  const now = new Date().toISOString();
  await db.insertInto('sku_barcode').values({ customer_id: cust, sku_id: plainSku, barcode: 'BC-PLAIN-1', barcode_type: 'CODE128', created_at: now, updated_at: now }).execute();
  await db.insertInto('sku_package').values({
    customer_id: cust, sku_id: thirdSku, parent_id: null, package_type: 'case', package_name: 'Case of 12', quantity: 12, length_cm: null,
    width_cm: null, height_cm: null, weight_kg: null, gtin: '10012345678902', created_at: now, updated_at: now,
  }).execute();
  dock = await makeLocation(t.database, wh, 'DOCK-01', 'dock');
  staging = await makeLocation(t.database, wh, 'STG-01', 'staging');
  quarantine = await makeLocation(t.database, wh, 'QUAR-01', 'quarantine');
  rackA = await makeLocation(t.database, wh, 'A-01-01', 'rack');
  shelfB = await makeLocation(t.database, wh, 'B-01-01', 'shelf');
  smallRack = await makeLocation(t.database, wh, 'C-01-01', 'rack');
  await db.updateTable('location').set({ capacity: 1000 }).where('id', 'in', [rackA, shelfB]).execute();
  await db.updateTable('location').set({ capacity: 5 }).where('id', '=', smallRack).execute();
});
afterAll(async () => { await t?.close(); });

const order = (lines: { skuId: number; expectedQuantity: number }[], over: Record<string, unknown> = {}) => ({
  warehouseId: wh, customerId: cust, supplier: 'Nordic Components AB', expectedDeliveryDate: '2026-12-01', referenceNumber: 'PO-77', lines, ...over,
});
async function createOrder(lines: { skuId: number; expectedQuantity: number }[], over: Record<string, unknown> = {}) {
  const res = await admin.post(`${R}/CreateReceivingOrder`, order(lines, over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { receivingOrderId: number; roNumber: string; status: string };
}
const receive = (s: ReturnType<typeof as>, body: Record<string, unknown>, headers?: Record<string, string>) => s.post(`${R}/ReceiveItem`, { locationId: dock, ...body }, headers);
const detail = async (id: number) => (await admin.get(`${R}/GetReceivingOrderById?receivingOrderId=${id}`)).json();
const lineOf = async (id: number, skuId: number) => (await detail(id)).lines.find((l: { skuId: number }) => l.skuId === skuId);
const ledger = (documentId: string) => t.database.db.selectFrom('inventory_txn').selectAll().where('document_id', '=', documentId).orderBy('id').execute();
const count = async (table: 'inventory_txn' | 'receiving_order' | 'receiving_receipt' | 'event_outbox' | 'receiving_order_line') =>
  Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const onHand = async (locationId: number, skuId: number, lot = '', pallet = '') => (await t.database.db.selectFrom('inventory_balance')
  .select(['on_hand', 'expiry_date']).where('location_id', '=', locationId).where('sku_id', '=', skuId).where('lot', '=', lot).where('pallet', '=', pallet)
  .executeTakeFirst()) ?? { on_hand: 0, expiry_date: null };
const balanced = async () => (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json().balanced;
const statusHistory = async (id: number) => (await t.database.db.selectFrom('document_status_history').select(['from_status', 'to_status', 'reason'])
  .where('kind', '=', 'RECEIVING_ORDER').where('document_id', '=', id).orderBy('id').execute()).map((h) => [h.from_status, h.to_status, h.reason]);

describe('creating and changing a receiving order', () => {
  it('creates an Open RO with a number, its lines, an audit row and an event after commit', async () => {
    const events = await recordEvents(t.app);
    const res = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: lotSku, expectedQuantity: 10 }, { skuId: plainSku, expectedQuantity: 5 }]));
    expect(res.statusCode).toBe(200);
    const ro = res.json().data;
    expect(res.json().message).toBe(`Receiving order ${ro.roNumber} created successfully`);
    expect(ro).toMatchObject({ status: 'Open', lineCount: 2, expectedQuantity: 15, receivedQuantity: 0, shortQuantity: 15, supplier: 'Nordic Components AB' });
    expect(ro.roNumber).toMatch(/^RO-\d{6}$/);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'receiving_order').where('entity_id', '=', String(ro.receivingOrderId)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    const seen = await events.until(1);
    expect(seen[0]).toMatchObject({ target: 'ReceiveReceivingData', warehouseId: wh, customerId: cust, payload: { subEvent: 'AddReceivingOrder' } });
  });

  it('refuses bad input with clear messages and writes nothing', async () => {
    const before = await count('receiving_order');
    const noSupplier = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: lotSku, expectedQuantity: 1 }], { supplier: '' }));
    expect(noSupplier.statusCode).toBe(400);
    expect(noSupplier.json().details.supplier).toBe('Please enter supplier!');
    const badDate = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: lotSku, expectedQuantity: 1 }], { expectedDeliveryDate: '2026-02-30' }));
    expect(badDate.statusCode).toBe(400);
    const noLines = await admin.post(`${R}/CreateReceivingOrder`, order([]));
    expect(noLines.json().details.lines).toBe('Add at least one SKU line');
    const zero = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: lotSku, expectedQuantity: 0 }]));
    expect(zero.statusCode).toBe(400);
    const twice = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: lotSku, expectedQuantity: 1 }, { skuId: lotSku, expectedQuantity: 2 }]));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().details['lines.1.skuId']).toBe('SKU RCV-LOT is already on line 1');
    const foreign = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: otherSku, expectedQuantity: 1 }]));
    expect(foreign.json().details['lines.0.skuId']).toBe('Not a SKU of this client');
    const unserved = await makeWarehouse(t.database);
    expect((await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: lotSku, expectedQuantity: 1 }], { warehouseId: unserved }))).statusCode).toBe(422);
    expect(await count('receiving_order')).toBe(before);
  });

  it('updates header and lines by SKU; a line with receipts cannot be removed', async () => {
    const ro = await createOrder([{ skuId: lotSku, expectedQuantity: 4 }, { skuId: plainSku, expectedQuantity: 4 }]);
    const upd = await admin.put(`${R}/UpdateReceivingOrder`, {
      receivingOrderId: ro.receivingOrderId, supplier: 'Baltic Freight', expectedDeliveryDate: '2026-12-05',
      lines: [{ skuId: plainSku, expectedQuantity: 9 }, { skuId: thirdSku, expectedQuantity: 3 }],
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const d = await detail(ro.receivingOrderId);
    expect(d.supplier).toBe('Baltic Freight');
    expect(d.lines.map((l: { skuCode: string; expectedQuantity: number; lineNo: number }) => [l.lineNo, l.skuCode, l.expectedQuantity])).toEqual([[1, 'RCV-PLAIN', 9], [2, 'RCV-THIRD', 3]]);

    expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(200);
    const blocked = await admin.put(`${R}/UpdateReceivingOrder`, {
      receivingOrderId: ro.receivingOrderId, supplier: 'Baltic Freight', expectedDeliveryDate: '2026-12-05', lines: [{ skuId: thirdSku, expectedQuantity: 3 }],
    });
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().message).toBe('SKU RCV-PLAIN has receipts and cannot be removed from the order');
    expect((await detail(ro.receivingOrderId)).lines).toHaveLength(2);
  });

  it('cancels only an Open order', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 2 }]);
    const res = await admin.post(`${R}/CancelReceivingOrder`, { receivingOrderId: ro.receivingOrderId, reason: 'Supplier cancelled' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('Cancelled');
    // Illegal transitions (Cancelled → Receiving, Cancelled → Cancelled) are conflicts naming both statuses.
    expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(409);
    const again = await admin.post(`${R}/CancelReceivingOrder`, { receivingOrderId: ro.receivingOrderId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'This receiving order is Cancelled; it cannot be cancelled', details: { status: 'Cancelled', requestedStatus: 'Cancelled' } });
    expect(await statusHistory(ro.receivingOrderId)).toEqual([['Open', 'Cancelled', 'Supplier cancelled']]);
  });
});

describe('receiving, putaway and finalizing', () => {
  let ro: { receivingOrderId: number; roNumber: string };

  beforeAll(async () => {
    ro = await createOrder([{ skuId: lotSku, expectedQuantity: 10 }, { skuId: plainSku, expectedQuantity: 8 }, { skuId: thirdSku, expectedQuantity: 6 }]);
  });

  it('receives a scanned SKU code into the dock with lot, expiry and pallet: ledger, balance and line move together', async () => {
    const events = await recordEvents(t.app);
    const res = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'rcv-lot', lot: 'L-2026-01', expiryDate: '2027-03-31', pallet: 'PLT-0001', quantity: 7 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Received 7 good of RCV-LOT into DOCK-01');
    expect(body.data.matchedBy).toBe('sku');
    expect(body.data.order.status).toBe('Receiving');
    expect(body.data.line).toMatchObject({ receivedQuantity: 7, shortQuantity: 3, overQuantity: 0, awaitingPutaway: 7 });
    const rows = await ledger(ro.roNumber);
    expect(rows.map((r) => [r.txn_type, r.qty_change, r.location_id, r.lot, r.pallet, r.document_type])).toEqual([['receive', 7, dock, 'L-2026-01', 'PLT-0001', 'RECEIPT']]);
    expect(await onHand(dock, lotSku, 'L-2026-01', 'PLT-0001')).toEqual({ on_hand: 7, expiry_date: '2027-03-31' });
    expect(await balanced()).toBe(true);
    const named = (e: { target: string; payload: unknown }) => `${e.target}:${(e.payload as { subEvent: string }).subEvent}`;
    const both = ['ReceiveInventoryData:Receive', 'ReceiveReceivingData:ReceiveItem'];
    const seen = (await events.until((es) => both.every((b) => es.some((e) => named(e) === b)))).map(named);
    expect(seen).toEqual(expect.arrayContaining(['ReceiveInventoryData:Receive', 'ReceiveReceivingData:ReceiveItem']));
  });

  it('resolves a UPC, a barcode and a package GTIN to their SKU', async () => {
    const byUpc = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: '012345678905', lot: 'L-2026-01', expiryDate: '2027-03-31', pallet: 'PLT-0001', quantity: 3 });
    expect(byUpc.json().data.matchedBy).toBe('upc');
    expect(await onHand(dock, lotSku, 'L-2026-01', 'PLT-0001')).toMatchObject({ on_hand: 10 });
    const byBarcode = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'BC-PLAIN-1', quantity: 6, locationId: staging });
    expect(byBarcode.json().data).toMatchObject({ matchedBy: 'barcode', line: { skuCode: 'RCV-PLAIN', receivedQuantity: 6 } });
    const byGtin = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: '10012345678902', quantity: 7 });
    expect(byGtin.json().data).toMatchObject({ matchedBy: 'gtin', line: { skuCode: 'RCV-THIRD', receivedQuantity: 7, overQuantity: 1 } });
  });

  it('records damaged units: kept out of stock, or stocked in quarantine when a location is given', async () => {
    const refused = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', damagedQuantity: 1 });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().data.movement).toBeNull();
    const kept = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', damagedQuantity: 2, damagedLocationId: quarantine });
    expect(kept.json().message).toBe('Received 2 damaged of RCV-PLAIN into DOCK-01');
    expect(await onHand(quarantine, plainSku)).toMatchObject({ on_hand: 2 });
    const line = await lineOf(ro.receivingOrderId, plainSku);
    // 6 good + 3 damaged against 8 expected: 1 over; damaged units are never put away.
    expect(line).toMatchObject({ receivedQuantity: 6, damagedQuantity: 3, overQuantity: 1, shortQuantity: 0, awaitingPutaway: 6 });
    expect(await balanced()).toBe(true);
  });

  it('refuses a bad receipt with a clear message, and writes and announces nothing', async () => {
    const before = { txn: await count('inventory_txn'), receipts: await count('receiving_receipt'), events: await count('event_outbox') };
    const events = await recordEvents(t.app);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ scanCode: 'NOPE-123', quantity: 1 }, 422, 'No SKU of'],
      [{ scanCode: 'RCV-OTHER', quantity: 1 }, 422, 'No SKU of'],
      [{ scanCode: 'RCV-LOT', quantity: 1 }, 400, 'SKU RCV-LOT is lot-tracked: enter its lot'],
      [{ scanCode: 'RCV-LOT', lot: 'L1', quantity: 1 }, 400, 'SKU RCV-LOT tracks expiry: enter its expiry date'],
      [{ scanCode: 'RCV-LOT', lot: 'L-2026-01', expiryDate: '2028-01-01', quantity: 1 }, 422, 'Lot L-2026-01 of RCV-LOT already has expiry date 2027-03-31'],
      [{ scanCode: 'RCV-PLAIN', lot: 'L1', quantity: 1 }, 400, 'SKU RCV-PLAIN does not track lots: leave the lot empty'],
      [{ scanCode: 'RCV-PLAIN', expiryDate: '2030-01-01', quantity: 1 }, 400, 'SKU RCV-PLAIN does not track expiry: leave the expiry date empty'],
      [{ scanCode: 'RCV-LOT', lot: 'L-OLD', expiryDate: '2020-01-31', quantity: 1 }, 409, 'Lot L-OLD of RCV-LOT expired on 2020-01-31'],
      [{ scanCode: 'RCV-PLAIN', quantity: 1, locationId: rackA }, 422, 'Receive into a dock or staging location; A-01-01 is a rack location'],
      [{ scanCode: 'RCV-PLAIN', damagedQuantity: 1, damagedLocationId: rackA }, 422, 'Damaged goods go to a quarantine'],
      [{ scanCode: 'RCV-PLAIN', quantity: 0 }, 400, 'Enter a good or damaged quantity above 0'],
      [{ scanCode: 'RCV-PLAIN', quantity: -2 }, 400, 'Quantity cannot be negative'],
    ];
    for (const [body, status, message] of cases) {
      const res = await receive(admin, { receivingOrderId: ro.receivingOrderId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toContain(message);
    }
    const notOnOrder = await createOrder([{ skuId: thirdSku, expectedQuantity: 1 }]);
    const res = await receive(admin, { receivingOrderId: notOnOrder.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 });
    expect(res.json().message).toBe(`SKU RCV-PLAIN is not on receiving order ${notOnOrder.roNumber}`);
    expect((await detail(notOnOrder.receivingOrderId)).status).toBe('Open');
    expect({ txn: await count('inventory_txn'), receipts: await count('receiving_receipt'), events: await count('event_outbox') }).toEqual({ ...before, events: before.events + 1 });
    // Only the new order was announced: no receipt event escaped a rolled-back transaction.
    const seen = (await events.until(50, 500)).map((e) => (e.payload as { subEvent: string }).subEvent);
    expect(seen.filter((e) => e === 'ReceiveItem' || e === 'Receive')).toEqual([]);
    expect(seen).toContain('AddReceivingOrder');
  });

  it('suggests where the SKU already is first, then empty locations of a fitting type with room', async () => {
    const lineId = (await lineOf(ro.receivingOrderId, plainSku)).lineId;
    const first = (await admin.get(`${R}/SuggestPutaway?receivingOrderId=${ro.receivingOrderId}&lineId=${lineId}&quantity=6`)).json();
    expect(first.suggestions.length).toBeGreaterThan(0);
    expect(first.suggestions.every((s: { reason: string }) => s.reason === 'Empty location')).toBe(true);
    // Loose units: shelving first; the 5-unit rack is too small for 6.
    expect(first.suggestions[0]).toMatchObject({ locationId: shelfB, reason: 'Empty location' });
    expect(first.suggestions.map((s: { locationId: number }) => s.locationId)).not.toContain(smallRack);
    expect(first.suggestions.map((s: { locationId: number }) => s.locationId)).not.toContain(dock);

    const put = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId, fromLocationId: staging, toLocationId: rackA, quantity: 2 });
    expect(put.statusCode, put.body).toBe(200);
    const again = (await admin.get(`${R}/SuggestPutaway?receivingOrderId=${ro.receivingOrderId}&lineId=${lineId}`)).json();
    expect(again.quantity).toBe(4);
    expect(again.suggestions[0]).toMatchObject({ locationId: rackA, reason: 'SKU already here', onHand: 2, freeCapacity: 998 });
    expect(again.suggestions.map((s: { locationId: number }) => s.locationId)).not.toContain(quarantine);
  });

  it('puts away through the ledger (dock out, storage in) and refuses more than awaits or than fits', async () => {
    const line = await lineOf(ro.receivingOrderId, lotSku);
    const res = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: rackA, lot: 'L-2026-01', pallet: 'PLT-0001', quantity: 4 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.movement.entries.map((e: { txnType: string; qtyChange: number }) => [e.txnType, e.qtyChange]).sort()).toEqual([['putaway_in', 4], ['putaway_out', -4]]);
    expect(await onHand(dock, lotSku, 'L-2026-01', 'PLT-0001')).toMatchObject({ on_hand: 6 });
    // The lot keeps its expiry where it lands.
    expect(await onHand(rackA, lotSku, 'L-2026-01', 'PLT-0001')).toEqual({ on_hand: 4, expiry_date: '2027-03-31' });
    expect(res.json().data.line).toMatchObject({ putawayQuantity: 4, awaitingPutaway: 6 });

    const before = await count('inventory_txn');
    const outbox = await count('event_outbox');
    const tooMany = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: rackA, lot: 'L-2026-01', pallet: 'PLT-0001', quantity: 7 });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe('Only 6 units of RCV-LOT are waiting for putaway on this order');
    const noRoom = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: smallRack, lot: 'L-2026-01', pallet: 'PLT-0001', quantity: 6 });
    expect(noRoom.json().message).toBe('Location C-01-01 has room for 5 more units');
    const notStorage = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: quarantine, lot: 'L-2026-01', pallet: 'PLT-0001', quantity: 1 });
    expect(notStorage.statusCode).toBe(422);
    const wrongLot = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: rackA, lot: 'OTHER', pallet: 'PLT-0001', quantity: 1 });
    expect(wrongLot.json().message).toBe('Not enough free stock at this place: 0 units available, 1 asked');
    expect(await count('inventory_txn')).toBe(before);
    expect(await count('event_outbox')).toBe(outbox);
    expect((await lineOf(ro.receivingOrderId, lotSku)).putawayQuantity).toBe(4);
    expect(await balanced()).toBe(true);
  });

  it('finalizes with over/short/damaged recorded, then closes when the last units are put away', async () => {
    const res = await admin.post(`${R}/FinalizeReceivingOrder`, { receivingOrderId: ro.receivingOrderId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Received', overQuantity: 2, shortQuantity: 0, damagedQuantity: 3 });
    expect(res.json().message).toBe(`Receiving order ${ro.roNumber} finalized (2 over, 3 damaged)`);
    const audit = await t.database.db.selectFrom('audit_log').select('after_json').where('entity', '=', 'receiving_order').where('action', '=', 'finalize')
      .where('entity_id', '=', String(ro.receivingOrderId)).executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after_json!).discrepancies).toEqual(expect.arrayContaining([{ skuCode: 'RCV-PLAIN', expected: 8, received: 6, damaged: 3, over: 1, short: 0 }]));
    expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).json().message).toBe('This receiving order is Received; nothing more can be received on it');
    expect((await admin.post(`${R}/FinalizeReceivingOrder`, { receivingOrderId: ro.receivingOrderId })).statusCode).toBe(409);

    const d = await detail(ro.receivingOrderId);
    const from = (skuCode: string) => d.receipts.find((r: { skuCode: string; quantity: number }) => r.skuCode === skuCode && r.quantity > 0);
    for (const l of d.lines.filter((x: { awaitingPutaway: number }) => x.awaitingPutaway > 0)) {
      const r = from(l.skuCode);
      const put = await admin.post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: l.lineId, fromLocationId: r.locationId, toLocationId: shelfB, lot: r.lot, pallet: r.pallet, quantity: l.awaitingPutaway });
      expect(put.statusCode, put.body).toBe(200);
    }
    const closed = await detail(ro.receivingOrderId);
    expect(closed.status).toBe('Closed');
    expect(closed.closedAt).not.toBeNull();
    // One history row per transition: the first scan, finalizing, and the last putaway closing it.
    expect(await statusHistory(ro.receivingOrderId)).toEqual([['Open', 'Receiving', null], ['Receiving', 'Received', null], ['Received', 'Closed', null]]);
    expect(closed.putaways.length).toBeGreaterThanOrEqual(3);
    expect(await onHand(dock, lotSku, 'L-2026-01', 'PLT-0001')).toMatchObject({ on_hand: 0 });
    expect(await balanced()).toBe(true);
  });

  it('cannot finalize an order nothing was received on', async () => {
    const fresh = await createOrder([{ skuId: plainSku, expectedQuantity: 1 }]);
    const res = await admin.post(`${R}/FinalizeReceivingOrder`, { receivingOrderId: fresh.receivingOrderId });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Nothing has been received on this order yet; cancel it instead');
  });
});

describe('idempotency and concurrency', () => {
  it('a replayed ReceiveItem answers the first result and posts once', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 50 }]);
    const headers = { 'idempotency-key': `receive-${ro.receivingOrderId}-0001` };
    const body = { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 5 };
    const first = await receive(admin, body, headers);
    const replay = await receive(admin, body, headers);
    expect(first.statusCode).toBe(200);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect((await ledger(ro.roNumber)).map((r) => r.qty_change)).toEqual([5]);
    expect((await lineOf(ro.receivingOrderId, plainSku)).receivedQuantity).toBe(5);
    expect((await receive(admin, { ...body, quantity: 6 }, headers)).statusCode).toBe(422);
  });

  it('parallel receipts on one line neither lose nor double a unit; parallel putaways never exceed what arrived', async () => {
    const ro = await createOrder([{ skuId: thirdSku, expectedQuantity: 100 }]);
    const sessions = await Promise.all(Array.from({ length: 4 }, () => login(t.app, ADMIN.username, ADMIN.password)));
    const receipts = await Promise.all(Array.from({ length: 24 }, (_, i) =>
      receive(as(t.app, sessions[i % 4]), { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-THIRD', quantity: 1, pallet: 'HOT' })));
    expect(receipts.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    const line = await lineOf(ro.receivingOrderId, thirdSku);
    expect(line.receivedQuantity).toBe(24);
    expect((await ledger(ro.roNumber)).reduce((sum, r) => sum + r.qty_change, 0)).toBe(24);
    expect((await detail(ro.receivingOrderId)).receipts).toHaveLength(24);

    const puts = await Promise.all(Array.from({ length: 30 }, (_, i) => as(t.app, sessions[i % 4]).post(`${R}/Putaway`, {
      receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: shelfB, pallet: 'HOT', quantity: 1,
    })));
    expect(puts.filter((r) => r.statusCode !== 200 && r.statusCode !== 422).map((r) => r.body)).toEqual([]);
    expect(puts.filter((r) => r.statusCode === 200)).toHaveLength(24);
    expect(await onHand(dock, thirdSku, '', 'HOT')).toMatchObject({ on_hand: 0 });
    expect(await onHand(shelfB, thirdSku, '', 'HOT')).toMatchObject({ on_hand: 24 });
    expect((await lineOf(ro.receivingOrderId, thirdSku)).putawayQuantity).toBe(24);
    expect(await balanced()).toBe(true);

    // Receipts and putaways on the same line and dock at once: every transaction takes the RO row first, so none deadlock.
    const mixed = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0
      ? receive(as(t.app, sessions[i % 4]), { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-THIRD', quantity: 2, pallet: 'HOT' })
      : as(t.app, sessions[i % 4]).post(`${R}/Putaway`, { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, toLocationId: shelfB, pallet: 'HOT', quantity: 1 }))));
    expect(mixed.filter((r, i) => (i % 2 === 0 ? r.statusCode !== 200 : r.statusCode !== 200 && r.statusCode !== 422)).map((r) => r.body)).toEqual([]);
    const putOk = mixed.filter((r, i) => i % 2 === 1 && r.statusCode === 200).length;
    const after = await lineOf(ro.receivingOrderId, thirdSku);
    expect(after).toMatchObject({ receivedQuantity: 44, putawayQuantity: 24 + putOk });
    expect(await onHand(dock, thirdSku, '', 'HOT')).toMatchObject({ on_hand: 20 - putOk });
    expect(await balanced()).toBe(true);
  });
});

describe('lots and expiry at the door (issue 10, item 11)', () => {
  it('refuses a lot or an expiry for a SKU that tracks neither, naming the field, and writes nothing', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 5 }]);
    const before = { txn: await count('inventory_txn'), receipts: await count('receiving_receipt') };
    const lot = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', lot: 'L-X', quantity: 1 });
    expect(lot.statusCode).toBe(400);
    expect(lot.json().details).toEqual({ lot: 'This SKU does not track lots' });
    const expiry = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', expiryDate: '2030-01-01', quantity: 1 });
    expect(expiry.statusCode).toBe(400);
    expect(expiry.json().details).toEqual({ expiryDate: 'This SKU does not track expiry dates' });
    expect({ txn: await count('inventory_txn'), receipts: await count('receiving_receipt') }).toEqual(before);
    expect((await detail(ro.receivingOrderId)).status).toBe('Open');
  });

  it('judges a lot expired by the warehouse’s own day, not the UTC day', async () => {
    const utcToday = new Date().toISOString().slice(0, 10);
    // A zone whose day differs from UTC's right now: +14 h is a day ahead from 10:00 UTC, -11 h a day behind before 11:00.
    const zone = businessDay('Pacific/Kiritimati') !== utcToday ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const localToday = businessDay(zone);
    expect(localToday).not.toBe(utcToday);
    await t.database.db.updateTable('warehouse').set({ timezone: zone }).where('id', '=', wh).execute();
    t.app.services.timeZones.forget(wh);
    try {
      const ro = await createOrder([{ skuId: lotSku, expectedQuantity: 2 }]);
      // Ahead: a lot that expires on the UTC day has expired there. Behind: one that expires on its own day is good there.
      const expiryDate = localToday > utcToday ? utcToday : localToday;
      const res = await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-LOT', lot: 'L-TZ', expiryDate, quantity: 1 });
      expect(res.statusCode, res.body).toBe(localToday > utcToday ? 409 : 200);
    } finally {
      await t.database.db.updateTable('warehouse').set({ timezone: 'UTC' }).where('id', '=', wh).execute();
      t.app.services.timeZones.forget(wh);
    }
  });

  it('an expired lot asks for confirmation; confirmed, it is offered and put away to quarantine only, never to storage', async () => {
    const ro = await createOrder([{ skuId: lotSku, expectedQuantity: 6 }]);
    const body = { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-LOT', lot: 'L-EXPIRED', expiryDate: '2021-06-30', quantity: 6 };
    const before = await count('inventory_txn');
    const asked = await receive(admin, body);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({ message: 'Lot L-EXPIRED of RCV-LOT expired on 2021-06-30', details: 'Confirm to receive an expired lot: it can only be put away to quarantine' });
    expect(await count('inventory_txn')).toBe(before);

    const confirmed = await receive(admin, { ...body, confirmExpired: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await onHand(dock, lotSku, 'L-EXPIRED')).toEqual({ on_hand: 6, expiry_date: '2021-06-30' });
    const line = await lineOf(ro.receivingOrderId, lotSku);

    const suggested = (await admin.get(`${R}/SuggestPutaway?receivingOrderId=${ro.receivingOrderId}&lineId=${line.lineId}&lot=L-EXPIRED`)).json();
    expect(suggested.suggestions.map((s: { locationId: number; reason: string }) => [s.locationId, s.reason])).toEqual([[quarantine, 'Quarantine (expired lot)']]);
    const put = { receivingOrderId: ro.receivingOrderId, lineId: line.lineId, fromLocationId: dock, lot: 'L-EXPIRED', quantity: 6 };
    const toRack = await admin.post(`${R}/Putaway`, { ...put, toLocationId: rackA });
    expect(toRack.statusCode).toBe(422);
    expect(toRack.json()).toMatchObject({ message: 'This lot has expired: put it away to a quarantine location; A-01-01 is a rack location', details: { toLocationId: 'Choose a quarantine location' } });
    expect(await onHand(rackA, lotSku, 'L-EXPIRED')).toMatchObject({ on_hand: 0 });
    const toQuarantine = await admin.post(`${R}/Putaway`, { ...put, toLocationId: quarantine });
    expect(toQuarantine.statusCode, toQuarantine.body).toBe(200);
    expect(await onHand(quarantine, lotSku, 'L-EXPIRED')).toEqual({ on_hand: 6, expiry_date: '2021-06-30' });
    expect(await balanced()).toBe(true);
  });
});

describe('receive as expected (issue 10, item 19)', () => {
  const asExpected = (body: Record<string, unknown>) => admin.post(`${R}/ReceiveAsExpected`, { locationId: dock, ...body });

  it('receives every line as expected into the dock: lots and expiries from the order, one transaction, one ledger document', async () => {
    const ro = await createOrder([{ skuId: lotSku, expectedQuantity: 9, lot: 'L-AE-1', expiryDate: '2030-05-31' }, { skuId: plainSku, expectedQuantity: 4 }] as never);
    const events = await recordEvents(t.app);
    const res = await asExpected({ receivingOrderId: ro.receivingOrderId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Received 13 units on 2 lines of ${ro.roNumber} as expected into DOCK-01`);
    expect(res.json().data).toMatchObject({ lineCount: 2, quantity: 13, putaways: [], order: { status: 'Receiving', receivedQuantity: 13, shortQuantity: 0 } });
    const rows = await ledger(ro.roNumber);
    expect(rows.map((r) => [r.txn_type, r.sku_id, r.qty_change, r.location_id, r.lot, r.document_type])).toEqual([
      ['receive', lotSku, 9, dock, 'L-AE-1', 'RECEIPT'], ['receive', plainSku, 4, dock, '', 'RECEIPT'],
    ]);
    expect(await onHand(dock, lotSku, 'L-AE-1')).toEqual({ on_hand: 9, expiry_date: '2030-05-31' });
    const d = await detail(ro.receivingOrderId);
    expect(d.receipts.map((r: { lot: string; expiryDate: string | null; quantity: number }) => [r.lot, r.expiryDate, r.quantity])).toEqual([['L-AE-1', '2030-05-31', 9], ['', null, 4]]);
    expect(d.lines.map((l: { lot: string; awaitingPutaway: number }) => [l.lot, l.awaitingPutaway])).toEqual([['L-AE-1', 9], ['', 4]]);
    // One inventory event and one RO event (on PostgreSQL the order's AddReceivingOrder may arrive meanwhile).
    const subEvents = (es: { payload: unknown }[]) => es.map((e) => (e.payload as { subEvent: string }).subEvent).filter((e) => e !== 'AddReceivingOrder');
    const seen = subEvents(await events.until((es) => subEvents(es).length >= 2));
    expect(seen.sort()).toEqual(['Receive', 'ReceiveItem']);
    // Nothing is left: a second time is refused.
    expect((await asExpected({ receivingOrderId: ro.receivingOrderId })).statusCode).toBe(422);
    expect(await balanced()).toBe(true);
  });

  it('the lines chosen, straight to their putaway suggestion and finalized: the order closes, the dock is left as it was', async () => {
    const holder = await makeLocation(t.database, wh, 'AE-HOLD-1', 'shelf');
    const plainSku = await makeSku(t.database, cust, 'RCV-AE-HELD');
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 5 }, { skuId: thirdSku, expectedQuantity: 7 }]);
    // The SKU already sits at AE-HOLD-1 (put there by an earlier order), so it is suggested first.
    const seed = await createOrder([{ skuId: plainSku, expectedQuantity: 1 }]);
    await receive(admin, { receivingOrderId: seed.receivingOrderId, scanCode: 'RCV-AE-HELD', quantity: 1 });
    const seedLine = await lineOf(seed.receivingOrderId, plainSku);
    expect((await admin.post(`${R}/Putaway`, { receivingOrderId: seed.receivingOrderId, lineId: seedLine.lineId, fromLocationId: dock, toLocationId: holder, quantity: 1 })).statusCode).toBe(200);
    const dockBefore = await onHand(dock, plainSku);
    const lines = (await detail(ro.receivingOrderId)).lines as { lineId: number; skuId: number }[];
    const plainLine = lines.find((l) => l.skuId === plainSku)!.lineId;
    const first = await asExpected({ receivingOrderId: ro.receivingOrderId, lineIds: [plainLine], putaway: true });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.putaways).toEqual([{ lineId: plainLine, skuCode: 'RCV-AE-HELD', locationId: holder, locationCode: 'AE-HOLD-1', quantity: 5 }]);
    expect(await onHand(holder, plainSku)).toMatchObject({ on_hand: 6 });
    expect(await onHand(dock, plainSku)).toEqual(dockBefore);
    const rest = await asExpected({ receivingOrderId: ro.receivingOrderId, putaway: true, finalize: true });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().message).toMatch(new RegExp(`^Received 7 units on 1 line of ${ro.roNumber} as expected and put away; the order is closed$`));
    const order = (await detail(ro.receivingOrderId));
    expect(order).toMatchObject({ status: 'Closed', receivedQuantity: 12, putawayQuantity: 12 });
    const rows = await ledger(ro.roNumber);
    // Received where they were put: one ledger row a line, at the storage location.
    expect(rows.map((r) => [r.txn_type, r.location_id === holder ? 'AE-HOLD-1' : r.location_id === dock ? 'dock' : 'empty location'])).toEqual([
      ['receive', 'AE-HOLD-1'], ['receive', 'empty location'],
    ]);
    expect(await balanced()).toBe(true);
  });

  it('refuses what it cannot receive as expected with the field named, and writes nothing', async () => {
    const ro = await createOrder([{ skuId: lotSku, expectedQuantity: 3 }]);
    const other = await createOrder([{ skuId: plainSku, expectedQuantity: 3 }]);
    const otherLine = (await lineOf(other.receivingOrderId, plainSku)).lineId;
    const before = { txn: await count('inventory_txn'), receipts: await count('receiving_receipt') };
    const noLot = await asExpected({ receivingOrderId: ro.receivingOrderId });
    expect(noLot.statusCode).toBe(400);
    expect(noLot.json().details).toEqual({ 'lines.1.lot': 'SKU RCV-LOT is lot-tracked and line 1 names no lot: scan it in' });
    const notOurs = await asExpected({ receivingOrderId: ro.receivingOrderId, lineIds: [otherLine] });
    expect(notOurs.statusCode).toBe(400);
    expect(notOurs.json().details).toEqual({ 'lineIds.0': 'Not a line of this receiving order' });
    const intoRack = await asExpected({ receivingOrderId: other.receivingOrderId, locationId: rackA });
    expect(intoRack.statusCode).toBe(422);
    expect(intoRack.json().details).toEqual({ locationId: 'Choose a dock or staging location' });
    const untracked = await admin.post(`${R}/CreateReceivingOrder`, order([{ skuId: plainSku, expectedQuantity: 1, lot: 'L-1' } as never]));
    expect(untracked.statusCode).toBe(400);
    expect(untracked.json().details).toMatchObject({ 'lines.0.lot': 'SKU RCV-PLAIN does not track lots' });
    expect({ txn: await count('inventory_txn'), receipts: await count('receiving_receipt') }).toEqual(before);
    expect((await detail(ro.receivingOrderId)).status).toBe('Open');
  });

  it('an expired lot asks for confirmation; confirmed and put away, it goes to quarantine', async () => {
    const ro = await createOrder([{ skuId: lotSku, expectedQuantity: 2, lot: 'L-AE-OLD', expiryDate: '2022-01-31' }] as never);
    const asked = await asExpected({ receivingOrderId: ro.receivingOrderId, putaway: true });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({ message: 'Lot L-AE-OLD of RCV-LOT expired on 2022-01-31', details: 'Confirm to receive an expired lot: it can only be put away to quarantine' });
    const done = await asExpected({ receivingOrderId: ro.receivingOrderId, putaway: true, confirmExpired: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.putaways).toEqual([expect.objectContaining({ locationId: quarantine, quantity: 2 })]);
    expect(await onHand(quarantine, lotSku, 'L-AE-OLD')).toEqual({ on_hand: 2, expiry_date: '2022-01-31' });
  });

  it('an uploaded sheet names lots and expiries per line', async () => {
    const csv = 'SKU,Expected Quantity,Lot,Expiry Date\nRCV-LOT,4,L-UP-9,2031-02-28\nRCV-PLAIN,2,,\n';
    const { payload, headers } = multipartBody({ warehouseId: wh, customerId: cust, supplier: 'Sheet Supplier', expectedDeliveryDate: '2031-03-01' }, { name: 'lots.csv', bytes: Buffer.from(csv) });
    const up = await admin.post(`${R}/UploadReceivingOrder`, payload, headers);
    expect(up.statusCode, up.body).toBe(200);
    const id = up.json().data.orders[0].receivingOrderId;
    expect((await detail(id)).lines.map((l: { skuCode: string; lot: string; expiryDate: string | null }) => [l.skuCode, l.lot, l.expiryDate]))
      .toEqual([['RCV-LOT', 'L-UP-9', '2031-02-28'], ['RCV-PLAIN', '', null]]);
    const bad = multipartBody({ warehouseId: wh, customerId: cust, supplier: 'Sheet Supplier', expectedDeliveryDate: '2031-03-01' }, { name: 'bad.csv', bytes: Buffer.from('SKU,Expected Quantity,Lot\nRCV-PLAIN,2,L-NO\n') });
    const refused = await admin.post(`${R}/UploadReceivingOrder`, bad.payload, bad.headers);
    expect(refused.statusCode).toBe(422);
    expect(JSON.stringify(refused.json().details)).toContain('SKU RCV-PLAIN does not track lots');
  });
});

describe('location capacity under load', () => {
  it('parallel putaways from many orders never fill a location past its capacity; ledger = balances', async () => {
    const roomy = await makeLocation(t.database, wh, 'CAP-01-01', 'rack');
    await t.database.db.updateTable('location').set({ capacity: 21 }).where('id', '=', roomy).execute();
    // Different orders (each putaway locks only its own RO) and different pallets (different balance rows):
    // only the location itself is shared.
    const lines = [];
    for (let i = 0; i < 16; i++) {
      const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 4 }]);
      expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 4, pallet: `CAP-${i}` })).statusCode).toBe(200);
      lines.push({ ro, lineId: (await lineOf(ro.receivingOrderId, plainSku)).lineId, pallet: `CAP-${i}` });
    }
    const sessions = await Promise.all(Array.from({ length: 8 }, () => login(t.app, ADMIN.username, ADMIN.password)));
    const puts = await Promise.all(lines.map((l, i) => as(t.app, sessions[i % 8]).post(`${R}/Putaway`, {
      receivingOrderId: l.ro.receivingOrderId, lineId: l.lineId, fromLocationId: dock, toLocationId: roomy, pallet: l.pallet, quantity: 4,
    })));
    expect(puts.filter((r) => r.statusCode !== 200 && r.statusCode !== 422).map((r) => r.body)).toEqual([]);
    // Room for 21: five putaways of 4 fit, the rest are refused with the room left.
    expect(puts.filter((r) => r.statusCode === 200)).toHaveLength(5);
    for (const r of puts.filter((x) => x.statusCode === 422)) expect(r.json().message).toBe('Location CAP-01-01 has room for 1 more unit');
    const stored = await t.database.db.selectFrom('inventory_balance').select((eb) => eb.fn.sum<number>('on_hand').as('n')).where('location_id', '=', roomy).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(20);
    expect(await balanced()).toBe(true);
  });
});

describe('upload', () => {
  const upload = (fileName: string, content: Buffer | string, fields: Record<string, string | number> = {}) => {
    const body = multipartBody({ warehouseId: wh, customerId: cust, ...fields }, { name: fileName, bytes: Buffer.from(content) });
    return admin.post(`${R}/UploadReceivingOrder`, body.payload, body.headers);
  };

  it('creates one RO per supplier, date and reference from a CSV and keeps the file as its document', async () => {
    const csv = [
      'Supplier,Expected Delivery Date,Reference Number,SKU,Expected Quantity,Notes',
      'Acme Supplies,2026-12-10,PO-1,RCV-PLAIN,40,',
      'Acme Supplies,2026-12-10,PO-1,BC-PLAIN-X,1,',
    ].join('\n');
    const bad = await upload('ro.csv', csv);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details['3.SKU']).toBe("Row 3, SKU: No SKU of this client matches 'BC-PLAIN-X'");

    const good = [
      'supplier,expected delivery date,reference number,sku,expected quantity',
      'Acme Supplies,2026-12-10,PO-1,RCV-PLAIN,40',
      'Acme Supplies,2026-12-10,PO-1,012345678905,12',
      'Acme Supplies,12/11/2026,PO-2,RCV-THIRD,5',
      ',,,RCV-PLAIN,3',
    ].join('\n');
    const res = await upload('ro.csv', good, { supplier: 'Default Vendor', expectedDeliveryDate: '2026-12-20' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('3 receiving orders uploaded successfully');
    const orders = res.json().data.orders;
    expect(orders.map((o: { lineCount: number }) => o.lineCount)).toEqual([2, 1, 1]);
    const first = await detail(orders[0].receivingOrderId);
    expect(first).toMatchObject({ supplier: 'Acme Supplies', expectedDeliveryDate: '2026-12-10', referenceNumber: 'PO-1', status: 'Open' });
    expect(first.lines.map((l: { skuCode: string }) => l.skuCode)).toEqual(['RCV-PLAIN', 'RCV-LOT']);
    expect(first.documents).toMatchObject([{ fileName: 'ro.csv' }]);
    expect((await detail(orders[1].receivingOrderId)).expectedDeliveryDate).toBe('2026-12-11');
    expect(await detail(orders[2].receivingOrderId)).toMatchObject({ supplier: 'Default Vendor', expectedDeliveryDate: '2026-12-20' });
  });

  it('any bad row writes nothing and every row error is named', async () => {
    const before = { orders: await count('receiving_order'), lines: await count('receiving_order_line') };
    const csv = [
      'Supplier,Expected Delivery Date,SKU,Expected Quantity',
      'Acme,2026-12-10,RCV-PLAIN,10',
      ',2026-12-10,RCV-PLAIN,10',
      'Acme,2026-13-45,RCV-THIRD,10',
      'Acme,2026-12-10,RCV-OTHER,10',
      'Acme,2026-12-10,RCV-THIRD,-1',
      'Acme,2026-12-10,RCV-PLAIN,2',
    ].join('\n');
    const res = await upload('ro.csv', csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('5 rows have errors; nothing was uploaded');
    expect(res.json().details).toMatchObject({
      '3.Supplier': 'Row 3, Supplier: Please enter supplier!',
      '4.Expected Delivery Date': "Row 4, Expected Delivery Date: '2026-13-45' is not a date (use YYYY-MM-DD)",
      '5.SKU': "Row 5, SKU: No SKU of this client matches 'RCV-OTHER'",
      '6.Expected Quantity': 'Row 6, Expected Quantity: Expected quantity must be a whole number above 0',
      '7.SKU': 'Row 7, SKU: SKU RCV-PLAIN is already on row 2 of the same order',
    });
    expect({ orders: await count('receiving_order'), lines: await count('receiving_order_line') }).toEqual(before);
    expect((await upload('ro.csv', 'Supplier,Expected Quantity\nAcme,1')).json().message).toBe('The header row lacks SKU');
    expect((await upload('ro.txt', 'Supplier,SKU,Expected Quantity\nAcme,RCV-PLAIN,1')).statusCode).toBe(400);
  });

  it('a replayed upload (same Idempotency-Key) creates its orders once', async () => {
    const before = await count('receiving_order');
    const csv = 'Supplier,Expected Delivery Date,SKU,Expected Quantity\nReplay Co,2026-12-12,RCV-PLAIN,5\n';
    const send = () => {
      const body = multipartBody({ warehouseId: wh, customerId: cust }, { name: 'replay.csv', bytes: Buffer.from(csv) });
      return admin.post(`${R}/UploadReceivingOrder`, body.payload, { ...body.headers, 'idempotency-key': 'ro-upload-replay-01' });
    };
    const first = await send();
    const replay = await send();
    expect(first.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(await count('receiving_order')).toBe(before + 1);
  });

  it('the file is part of an upload’s Idempotency-Key fingerprint: another file under the same key is refused, the same one replays', async () => {
    const key = 'ro-upload-replay-02';
    const send = (csv: string, fields: Record<string, string | number> = {}, name = 'replay.csv') => {
      // A fresh multipart boundary on every send, as a browser's retry has.
      const body = multipartBody({ warehouseId: wh, customerId: cust, ...fields }, { name, bytes: Buffer.from(csv) });
      return admin.post(`${R}/UploadReceivingOrder`, body.payload, { ...body.headers, 'idempotency-key': key });
    };
    const csv = 'Supplier,Expected Delivery Date,SKU,Expected Quantity\nKeyed Co,2026-12-13,RCV-PLAIN,5\n';
    const before = { orders: await count('receiving_order'), files: Number((await t.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n) };
    const first = await send(csv);
    expect(first.statusCode, first.body).toBe(200);
    const after = { orders: before.orders + 1, files: before.files + 1 };
    const files = async () => Number((await t.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    for (const other of [
      await send(csv.replace('5\n', '6\n')), // another file's content
      await send(csv, {}, 'other-name.csv'), // another file name
      await send(csv, { supplier: 'Someone Else' }), // another field
    ]) {
      expect(other.statusCode).toBe(422);
      expect(other.json().message).toBe('This Idempotency-Key was used for a different request');
    }
    expect({ orders: await count('receiving_order'), files: await files() }).toEqual(after);

    const replay = await send(csv);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect({ orders: await count('receiving_order'), files: await files() }).toEqual(after);

    // A keyed upload's parts are read before its handler, which still holds it to the route's own size limit.
    const big = multipartBody({ warehouseId: wh, customerId: cust }, { name: 'big.csv', bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
    const tooBig = await admin.post(`${R}/UploadReceivingOrder`, big.payload, { ...big.headers, 'idempotency-key': 'ro-upload-big-01' });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe('The file is larger than 10 MB');

    // An upload takes one file: a second one is refused before anything is kept (keyed or not).
    const one = multipartBody({ warehouseId: wh, customerId: cust }, { name: 'a.csv', bytes: Buffer.from(csv) });
    const boundary = one.headers['content-type'].split('boundary=')[1];
    const second = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`);
    const two = Buffer.concat([one.payload.subarray(0, one.payload.length - `--${boundary}--\r\n`.length), second]);
    for (const headers of [{ ...one.headers, 'idempotency-key': 'ro-upload-two-01' }, one.headers]) {
      const res = await admin.post(`${R}/UploadReceivingOrder`, two, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Upload one file at a time');
    }
    expect({ orders: await count('receiving_order'), files: await files() }).toEqual(after);
  });

  it('reads an XLSX sheet, dates as date cells included', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('RO');
    sheet.addRow(['Supplier', 'Expected Delivery Date', 'SKU', 'Expected Quantity']);
    sheet.addRow(['Xlsx Supplier', new Date(Date.UTC(2026, 11, 24)), 'RCV-THIRD', 9]);
    const res = await upload('ro.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    expect(res.statusCode, res.body).toBe(200);
    expect(await detail(res.json().data.orders[0].receivingOrderId)).toMatchObject({ supplier: 'Xlsx Supplier', expectedDeliveryDate: '2026-12-24', expectedQuantity: 9 });
  });

  it('keeps at most 3 documents with an RO and serves them back', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 1 }]);
    const add = (name: string) => {
      const body = multipartBody({ receivingOrderId: ro.receivingOrderId }, { name, bytes: Buffer.from(`SKU,Qty\nRCV-PLAIN,${name.length}\n`) });
      return admin.post(`${R}/AddReceivingOrderDocument`, body.payload, body.headers);
    };
    for (const name of ['a.csv', 'b.csv', 'c.csv']) expect((await add(name)).statusCode).toBe(200);
    expect((await add('d.csv')).json().message).toBe('A receiving order may hold at most 3 documents');
    const docs = (await detail(ro.receivingOrderId)).documents;
    expect(docs).toHaveLength(3);
    const file = await admin.get(`${R}/DownloadReceivingOrderDocument?documentId=${docs[1].documentId}`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('SKU,Qty\nRCV-PLAIN,5\n');
  });
});

describe('access', () => {
  it('a client account reads its own ROs, changes nothing, and never sees another customer’s', async () => {
    const mine = await createOrder([{ skuId: plainSku, expectedQuantity: 3 }]);
    const theirs = await createOrder([{ skuId: otherSku, expectedQuantity: 3 }], { customerId: otherCust });
    const client = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { InBound: 'write', ROReport: 'read', ROInward: 'read' } });
    const c = as(t.app, await login(t.app, client.username, client.password));
    const list = (await c.post(`${R}/GetReceivingOrders`, { pageSize: 500 })).json();
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.every((r: { customerId: number }) => r.customerId === cust)).toBe(true);
    expect((await c.get(`${R}/GetReceivingOrderById?receivingOrderId=${mine.receivingOrderId}`)).statusCode).toBe(200);
    expect((await c.get(`${R}/GetReceivingOrderById?receivingOrderId=${theirs.receivingOrderId}`)).statusCode).toBe(404);
    expect((await c.post(`${R}/GetReceivingOrders`, { filters: { customerId: otherCust } })).statusCode).toBe(403);
    const custName = (await t.database.db.selectFrom('customer').select('name').where('id', '=', cust).executeTakeFirstOrThrow()).name;
    const inward = (await c.post(`${R}/GetROInward`, { pageSize: 500 })).json();
    expect(inward.totalCount).toBeGreaterThan(0);
    expect(inward.items.every((r: { customerName: string }) => r.customerName === custName)).toBe(true);
    expect((await c.post(`${R}/GetROReportDetails`, {})).statusCode).toBe(403); // no ROReportDetails module
    const before = await count('inventory_txn');
    expect((await receive(c, { receivingOrderId: mine.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(403);
    expect((await c.post(`${R}/CreateReceivingOrder`, order([{ skuId: plainSku, expectedQuantity: 1 }]))).statusCode).toBe(403);
    expect((await c.post(`${R}/CancelReceivingOrder`, { receivingOrderId: mine.receivingOrderId })).statusCode).toBe(403);
    expect(await count('inventory_txn')).toBe(before);
    expect((await detail(mine.receivingOrderId)).status).toBe('Open');
  });

  it('staff scoped to other customers or warehouses cannot touch an RO', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 3 }]);
    const otherWh = await makeWarehouse(t.database);
    const elsewhere = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [otherWh], customerIds: [cust], modules: { InBound: 'write' } });
    const s = as(t.app, await login(t.app, elsewhere.username, elsewhere.password));
    expect((await receive(s, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(404);
    expect((await s.post(`${R}/CreateReceivingOrder`, order([{ skuId: plainSku, expectedQuantity: 1 }]))).statusCode).toBe(403);
    const otherClientStaff = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [otherCust], modules: { InBound: 'write' } });
    const o = as(t.app, await login(t.app, otherClientStaff.username, otherClientStaff.password));
    expect((await o.post(`${R}/FinalizeReceivingOrder`, { receivingOrderId: ro.receivingOrderId })).statusCode).toBe(404);
    const readOnly = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { InBound: 'read' } });
    const r = as(t.app, await login(t.app, readOnly.username, readOnly.password));
    expect((await receive(r, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(403);
    expect((await lineOf(ro.receivingOrderId, plainSku)).receivedQuantity).toBe(0);
  });
});

describe('reports', () => {
  it('summary, details and inward log: filtered lists and escaped Excel downloads', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 4 }], { supplier: '=HYPERLINK("http://x")', expectedDeliveryDate: '2031-01-15' });
    await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 3, pallet: '+PLT' });
    const filters = { warehouseId: wh, fromDate: '2031-01-01', toDate: '2031-01-31' };

    const summary = (await admin.post(`${R}/GetROReport`, { filters })).json();
    expect(summary.totalCount).toBe(1);
    expect(summary.items[0]).toMatchObject({ roNumber: ro.roNumber, expectedQuantity: 4, receivedQuantity: 3, shortQuantity: 1, status: 'Receiving' });
    const details = (await admin.post(`${R}/GetROReportDetails`, { filters, searchQuery: 'RCV-PLAIN' })).json();
    expect(details.items).toEqual([expect.objectContaining({ roNumber: ro.roNumber, skuCode: 'RCV-PLAIN', shortQuantity: 1 })]);
    const today = new Date().toISOString().slice(0, 10);
    const inward = (await admin.post(`${R}/GetROInward`, { filters: { warehouseId: wh, fromDate: today, toDate: today }, searchQuery: ro.roNumber })).json();
    expect(inward.items).toEqual([expect.objectContaining({ roNumber: ro.roNumber, quantity: 3, pallet: '+PLT', locationCode: 'DOCK-01', receivedBy: 'admin' })]);
    expect((await admin.post(`${R}/GetROInward`, { filters: { warehouseId: wh, fromDate: '2020-01-01', toDate: '2020-01-02' } })).json().totalCount).toBe(0);

    for (const [path, sheetCell] of [['DownloadROReport', '=HYPERLINK'], ['DownloadROReportDetails', '=HYPERLINK'], ['DownloadROInward', '+PLT']] as const) {
      const res = await admin.post(`${R}/${path}`, { filters: path === 'DownloadROInward' ? { warehouseId: wh } : filters, searchQuery: ro.roNumber });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const values = book.worksheets[0].getRow(2).values as unknown[];
      const cell = values.find((v) => typeof v === 'string' && v.includes(sheetCell.slice(1)));
      expect(cell).toBe(`'${sheetCell}${sheetCell === '+PLT' ? '' : '("http://x")'}`);
    }
  });

  it("the inward log's today is the warehouse's business day in its own zone, not the browser's nor UTC's", async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 1 }]);
    expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(200);
    const receipt = (await t.database.db.selectFrom('receiving_receipt').select('id').where('order_id', '=', ro.receivingOrderId).executeTakeFirstOrThrow()).id;
    const todays = async () => (await admin.post(`${R}/GetROInward`, { filters: { warehouseId: wh, today: true }, searchQuery: ro.roNumber })).json().totalCount;
    const zone = (await t.database.db.selectFrom('warehouse').select('timezone').where('id', '=', wh).executeTakeFirstOrThrow()).timezone;
    const now = Date.now();
    try {
      // UTC+14 and UTC−11: at most hours of the day, one of them has already left the receipt's day behind.
      for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        await t.database.db.updateTable('warehouse').set({ timezone }).where('id', '=', wh).execute();
        for (const hoursAgo of [0, 6, 12, 18, 23, 30]) {
          const at = new Date(now - hoursAgo * 3600_000);
          await t.database.db.updateTable('receiving_receipt').set({ at: at.toISOString() }).where('id', '=', receipt).execute();
          expect(await todays(), `${timezone}, ${hoursAgo} h ago`).toBe(businessDay(timezone, at) === businessDay(timezone, new Date()) ? 1 : 0);
        }
      }
    } finally {
      await t.database.db.updateTable('warehouse').set({ timezone: zone }).where('id', '=', wh).execute();
    }
  });

  it('the inbound carton a scan named shows on the order’s receipts, the inward log (searchable) and its export', async () => {
    const ro = await createOrder([{ skuId: plainSku, expectedQuantity: 5 }]);
    expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 2, carton: 'CTN-IN-0042' })).statusCode).toBe(200);
    expect((await receive(admin, { receivingOrderId: ro.receivingOrderId, scanCode: 'RCV-PLAIN', quantity: 1 })).statusCode).toBe(200);
    expect((await detail(ro.receivingOrderId)).receipts.map((r: { quantity: number; carton: string }) => [r.quantity, r.carton])).toEqual([[2, 'CTN-IN-0042'], [1, '']]);

    const inward = (await admin.post(`${R}/GetROInward`, { filters: { warehouseId: wh }, searchQuery: 'CTN-IN-0042' })).json();
    expect(inward.items).toEqual([expect.objectContaining({ roNumber: ro.roNumber, quantity: 2, carton: 'CTN-IN-0042' })]);

    const res = await admin.post(`${R}/DownloadROInward`, { filters: { warehouseId: wh }, searchQuery: ro.roNumber, sort: { field: 'receivedAt', order: 'ascend' } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const column = (sheet.getRow(1).values as unknown[]).indexOf('Carton');
    expect(column).toBeGreaterThan(0);
    const cartons = [2, 3].map((r) => [sheet.getRow(r).getCell(column).value, sheet.getRow(r).getCell((sheet.getRow(1).values as unknown[]).indexOf('Good')).value]);
    expect(cartons).toEqual(expect.arrayContaining([['CTN-IN-0042', 2], ['', 1]]));
  });

  it('lists with filters, search, sort and paging', async () => {
    const res = (await admin.post(`${R}/GetReceivingOrders`, { filters: { warehouseId: wh, status: 'Open' }, sort: { field: 'roNumber', order: 'ascend' }, pageSize: 2, pageNumber: 1 })).json();
    expect(res.items).toHaveLength(2);
    expect(res.totalCount).toBeGreaterThan(2);
    expect(res.items.every((r: { status: string }) => r.status === 'Open')).toBe(true);
    expect(res.items[0].roNumber < res.items[1].roNumber).toBe(true);
    expect((await admin.get(`${R}/ReceivingOrderFiltersLabels`)).json()[0].options.map((o: { value: string }) => o.value)).toEqual(['Open', 'Receiving', 'Received', 'Closed', 'Cancelled']);
  });
});

describe('the receive panel’s locations', () => {
  it('lists docks, staging and damaged-goods places under InBound read, without the Location module', async () => {
    const inactiveDock = await makeLocation(t.database, wh, 'DOCK-09', 'dock');
    await t.database.db.updateTable('location').set({ is_active: 0 }).where('id', '=', inactiveDock).execute();
    const receiver = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { InBound: 'read' } });
    const s = as(t.app, await login(t.app, receiver.username, receiver.password));
    expect((await s.post('/Warehouse/Location/GetOtherLocations', { filters: { warehouseId: wh, type: 'dock' } })).statusCode).toBe(403);
    const res = await s.get(`${R}/GetDockLocations?warehouseId=${wh}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { locationId: dock, locationCode: 'DOCK-01', locationType: 'dock' },
      { locationId: staging, locationCode: 'STG-01', locationType: 'staging' },
      { locationId: quarantine, locationCode: 'QUAR-01', locationType: 'quarantine' },
    ]);
  });

  it('answers only in the caller’s warehouses, needs InBound, and refuses a bad warehouse id', async () => {
    const otherWh = await makeWarehouse(t.database);
    await makeLocation(t.database, otherWh, 'DOCK-X', 'dock');
    const receiver = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { InBound: 'read' } });
    const s = as(t.app, await login(t.app, receiver.username, receiver.password));
    expect((await s.get(`${R}/GetDockLocations?warehouseId=${otherWh}`)).statusCode).toBe(403);
    expect((await s.get(`${R}/GetDockLocations?warehouseId=abc`)).statusCode).toBe(400);
    expect((await s.get(`${R}/GetDockLocations`)).statusCode).toBe(400);
    const noInbound = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { Location: 'read' } });
    const n = as(t.app, await login(t.app, noInbound.username, noInbound.password));
    expect((await n.get(`${R}/GetDockLocations?warehouseId=${wh}`)).statusCode).toBe(403);
    expect((await admin.get(`${R}/GetDockLocations?warehouseId=${otherWh}`)).json()).toEqual([expect.objectContaining({ locationCode: 'DOCK-X' })]);
  });
});

describe('API document', () => {
  it('documents every receiving route, with its body', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const paths = ['CreateReceivingOrder', 'GetReceivingOrders', 'GetReceivingOrderById', 'UpdateReceivingOrder', 'UploadReceivingOrder', 'ReceiveItem',
      'GetDockLocations', 'SuggestPutaway', 'Putaway', 'FinalizeReceivingOrder', 'CancelReceivingOrder', 'GetROReport', 'DownloadROReport', 'GetROReportDetails',
      'DownloadROReportDetails', 'GetROInward', 'DownloadROInward', 'AddReceivingOrderDocument', 'DownloadReceivingOrderDocument'].map((p) => `${R}/${p}`);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(paths));
    expect(doc.paths[`${R}/ReceiveItem`].post.requestBody.content['application/json'].schema.properties).toHaveProperty('scanCode');
    expect(doc.paths[`${R}/UploadReceivingOrder`].post.tags).toEqual(['Receiving']);
  });
});
