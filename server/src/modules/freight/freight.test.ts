import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isValidSscc, gs1CheckDigit } from '../../platform/gs1.js';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, multipartBody, postStock, recordEvents, type TestApp,
} from '../../../test/helpers.js';
import { packDirectly, pickedOrder } from '../../../test/support/picked-orders.js';
import { pdfBarcodes, pdfPageCount, pdfText, withTools } from '../../../test/support/pdf-readers.js';

let t: TestApp;
let staff: ReturnType<typeof as>;
let admin: ReturnType<typeof as>;
let client: ReturnType<typeof as>;
let wh: number, cust: number, other: number, bin: number, station: number, cartonTypeId: number;
let seq = 0;

const F = '/Freight/FreightShipment';
const PREFIX = '0614141';
const db = () => t.database.db;
const countOf = async (table: 'freight_shipment' | 'freight_handling_unit' | 'stored_file' | 'freight_shipment_order') =>
  Number((await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
const written = async () => Promise.all([countOf('freight_shipment'), countOf('freight_handling_unit'), countOf('freight_shipment_order'), countOf('stored_file')]);

/** A packed order of a customer: `cartons` closed cartons of 5 kg, 30×20×10 cm (packDirectly's). */
async function packedOrder(customerId = cust, cartons = 2) {
  const skus: number[] = [];
  for (let i = 0; i < cartons; i++) {
    const s = await makeSku(t.database, customerId, `FR-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase());
    await postStock(t, [{ place: { warehouseId: wh, customerId, skuId: s, locationId: bin, lot: '', pallet: '' }, qty: 2 }]);
    skus.push(s);
  }
  const tote = await makeLocation(t.database, wh, `FT-${++seq}`, 'tote');
  const o = await pickedOrder(t, { warehouseId: wh, customerId, toteId: tote, lines: skus.map((skuId) => ({ skuId, quantity: 2 })) });
  await packDirectly(t, o, { cartonTypeId, stationId: station, perCarton: 1 });
  return o;
}

const consignee = { name: 'Acme Retail DC 7', address1: '100 Market St', city: 'Columbus', state: 'OH', zip: '43004', country: 'US', locationNumber: 'DC7' };
const unit = (over: Record<string, unknown> = {}) => ({
  handlingType: 'Pallet', handlingQty: 1, packageType: 'Carton', pieces: 4, weightKg: 200, lengthCm: 121.9, widthCm: 101.6, heightCm: 120,
  freightClass: '100', nmfcItem: '156600-3', description: 'Plastic housewares', hazmat: false, ...over,
});
const shipment = (orderIds: number[], over: Record<string, unknown> = {}) => ({
  warehouseId: wh, customerId: cust, orderIds, consignee, carrierName: 'Old Dominion Freight Line', scac: 'ODFL', chargeTerms: 'Prepaid',
  pickupDate: '2030-04-02', pickupWindowFrom: '09:00', pickupWindowTo: '12:00', dockDoor: 'D4', handlingUnits: [unit({ orderId: orderIds[0] })], ...over,
});
async function created(orderIds: number[], over: Record<string, unknown> = {}) {
  const res = await staff.post(`${F}/CreateFreightShipment`, shipment(orderIds, over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { shipmentId: number; shipNumber: string; bolNumber: string; status: string; handlingUnits: { handlingUnitId: number; sscc: string | null }[] };
}
const status = (shipmentId: number, to: string) => staff.post(`${F}/SetFreightShipmentStatus`, { shipmentId, status: to });
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('signed receipt image bytes')]);
const pod = (shipmentId: number, signedAt = new Date().toISOString(), file = { name: 'pod.png', bytes: PNG, type: 'image/png' }) => {
  const body = multipartBody({ shipmentId, signedBy: 'J. Receiver', signedAt }, file);
  return t.app.inject({ method: 'POST', url: `${F}/UploadProofOfDelivery`, headers: { ...body.headers, authorization: `Bearer ${staffToken}` }, payload: body.payload });
};
let staffToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  other = await makeCustomer(t.database, [wh]);
  await db().updateTable('customer').set({ gs1_company_prefix: PREFIX, allow_backorders: 1 }).where('id', '=', cust).execute();
  bin = await makeLocation(t.database, wh);
  station = await makeLocation(t.database, wh, `PACK-FR-${++seq}`, 'staging');
  const at = new Date().toISOString();
  cartonTypeId = (await db().insertInto('carton_type').values({
    warehouse_id: wh, code: 'BOX', name: 'Box', length_cm: 30, width_cm: 20, height_cm: 10, tare_weight_kg: 0.3, max_weight_kg: null, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const s = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust, other], modules: { FreightShipment: 'write' } });
  const session = await login(t.app, s.username, s.password);
  staffToken = session.accesstoken;
  staff = as(t.app, session);
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { FreightShipment: 'write' } });
  client = as(t.app, await login(t.app, c.username, c.password));
});
afterAll(async () => { await t?.close(); });

describe('freight shipments', () => {
  it('builds pallets from the orders’ closed cartons: pieces, weight with the pallet, height from the cartons’ volume, the class the 2025 scale gives', async () => {
    const a = await packedOrder(cust, 3);
    const res = await staff.post(`${F}/SuggestHandlingUnits`, { warehouseId: wh, customerId: cust, orderIds: [a.orderId] });
    expect(res.statusCode, res.body).toBe(200);
    // 3 cartons × 5 kg + 20 kg tare; 3 × 6,000 cm³ over a 121.9 × 101.6 cm (12,385 cm²) footprint = 1.45 cm → 2 cm on a 14 cm deck.
    const [p] = res.json();
    expect(p).toMatchObject({ orderId: a.orderId, handlingType: 'Pallet', pieces: 3, weightKg: 35, lengthCm: 121.9, widthCm: 101.6, heightCm: 16 });
    // 35 kg = 77.16 lb over 198,160 cm³ = 7.00 ft³ → 11.03 lb/ft³: class 92.5 (10 – < 12).
    expect(p.densityLbFt3).toBeCloseTo(11.03, 1);
    expect(p.suggestedClass).toBe('92.5');
    expect(p.freightClass).toBe('92.5');
  });

  it('plans a master shipment of two orders: FRT number, VICS 17-digit BOL number, an SSCC per pallet, orders, audit and hub event; listed', async () => {
    const a = await packedOrder();
    const b = await packedOrder();
    const events = await recordEvents(t.app);
    const res = await staff.post(`${F}/CreateFreightShipment`, shipment([a.orderId, b.orderId], {
      proNumber: '123456789', trailerNumber: 'TR-88', sealNumber: 'S-1001', codAmountMinor: 12_550, declaredValueMinor: 500_000, declaredValuePer: 'shipment',
      handlingUnits: [unit({ orderId: a.orderId }), unit({ orderId: b.orderId, weightKg: 150 }), unit({ handlingType: 'Loose', orderId: null, pieces: 2, weightKg: 30 })],
    }));
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    expect(s.shipNumber).toMatch(/^FRT-\d{6}$/);
    expect(s.status).toBe('Planned');
    expect(s.bolNumber).toMatch(new RegExp(`^${PREFIX}\\d{10}$`));
    expect(gs1CheckDigit(s.bolNumber.slice(0, 16))).toBe(Number(s.bolNumber[16]));
    expect(s.orders.map((o: { soNumber: string }) => o.soNumber)).toEqual([a.soNumber, b.soNumber]);
    expect(s.orders[0]).toMatchObject({ cartons: 2, weightKg: 10 });
    const ssccs = s.handlingUnits.map((u: { sscc: string | null }) => u.sscc);
    expect(ssccs[0] && isValidSscc(ssccs[0])).toBe(true);
    expect(ssccs[1] && isValidSscc(ssccs[1])).toBe(true);
    expect(ssccs[0]).not.toBe(ssccs[1]);
    expect(ssccs[2]).toBeNull(); // loose freight has no pallet label
    expect(s).toMatchObject({ totalHandlingUnits: 3, totalPieces: 10, totalWeightKg: 380, codAmountMinor: 12_550, scac: 'ODFL', proNumber: '123456789' });
    const audit = await db().selectFrom('audit_log').select('action').where('entity', '=', 'freight_shipment').where('entity_id', '=', String(s.shipmentId)).execute();
    expect(audit.map((r) => r.action)).toEqual(['create']);
    await expect.poll(() => events.seen.some((e) => e.target === 'ReceiveFreightData')).toBe(true);
    const list = await staff.post(`${F}/GetFreightShipments`, { filters: { warehouseId: wh }, searchQuery: s.shipNumber });
    expect(list.json().items.map((i: { shipmentId: number }) => i.shipmentId)).toEqual([s.shipmentId]);
  });

  it('an update keeps each pallet’s SSCC by its id; a new pallet gets the next one', async () => {
    const a = await packedOrder();
    const s = await created([a.orderId]);
    const kept = s.handlingUnits[0];
    const res = await staff.post(`${F}/UpdateFreightShipment`, {
      ...shipment([a.orderId]), warehouseId: undefined, customerId: undefined, shipmentId: s.shipmentId, trailerNumber: 'TR-9',
      handlingUnits: [unit({ handlingUnitId: kept.handlingUnitId, orderId: a.orderId }), unit({ orderId: a.orderId })],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().data;
    expect(after.trailerNumber).toBe('TR-9');
    expect(after.handlingUnits[0].sscc).toBe(kept.sscc);
    expect(isValidSscc(after.handlingUnits[1].sscc)).toBe(true);
    expect(after.handlingUnits[1].sscc).not.toBe(kept.sscc);
  });
});

describe('bad input: a clear 4xx naming the field, nothing written', () => {
  it('a freight class that is not an NMFC class', async () => {
    const a = await packedOrder();
    const before = await written();
    const res = await staff.post(`${F}/CreateFreightShipment`, shipment([a.orderId], { handlingUnits: [unit({ freightClass: '99' })] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details['handlingUnits.0.freightClass']).toMatch(/Not an NMFC freight class/);
    expect(await written()).toEqual(before);
  });

  it('a PRO number used twice for one carrier (another carrier may use the same digits)', async () => {
    const a = await packedOrder();
    const b = await packedOrder();
    const c = await packedOrder();
    await created([a.orderId], { proNumber: 'PRO-777' });
    const before = await written();
    const twice = await staff.post(`${F}/CreateFreightShipment`, shipment([b.orderId], { proNumber: 'PRO-777' }));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().details.proNumber).toMatch(/PRO number PRO-777 of ODFL is already used/);
    expect(await written()).toEqual(before);
    const otherCarrier = await staff.post(`${F}/CreateFreightShipment`, shipment([c.orderId], { proNumber: 'PRO-777', scac: 'SAIA', carrierName: 'Saia' }));
    expect(otherCarrier.statusCode, otherCarrier.body).toBe(200);
    // An update to a PRO another shipment of the carrier holds is refused too.
    const update = await staff.post(`${F}/UpdateFreightShipment`, {
      ...shipment([b.orderId]), warehouseId: undefined, customerId: undefined, shipmentId: otherCarrier.json().data.shipmentId, scac: 'ODFL', proNumber: 'PRO-777',
    });
    expect(update.statusCode).toBe(409);
  });

  it('two requests racing for one PRO number of a carrier: one shipment gets it, the other a 409 naming the field', async () => {
    const orders = [await packedOrder(), await packedOrder(), await packedOrder(), await packedOrder()];
    const pro = `RACE-${++seq}`;
    const before = await written();
    const answers = await Promise.all(orders.map((o) => staff.post(`${F}/CreateFreightShipment`, shipment([o.orderId], { proNumber: pro }))));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    for (const refused of answers.filter((r) => r.statusCode === 409)) expect(refused.json().details.proNumber, refused.body).toMatch(new RegExp(`PRO number ${pro} of ODFL is already used`));
    expect((await written())[0]).toBe(before[0] + 1);
  });

  it('another customer’s order, an order not packed, an order already on a shipment', async () => {
    const theirs = await packedOrder(other);
    const before = await written();
    const res = await staff.post(`${F}/CreateFreightShipment`, shipment([theirs.orderId]));
    expect(res.statusCode).toBe(422);
    expect(res.json().details.orderIds).toMatch(/is not an order of/);
    const tote = await makeLocation(t.database, wh, `FT-${++seq}`, 'tote');
    const s = await makeSku(t.database, cust, `FR-NP-${++seq}`);
    await postStock(t, [{ place: { warehouseId: wh, customerId: cust, skuId: s, locationId: bin, lot: '', pallet: '' }, qty: 1 }]);
    const unpacked = await pickedOrder(t, { warehouseId: wh, customerId: cust, toteId: tote, lines: [{ skuId: s, quantity: 1 }] });
    const notPacked = await staff.post(`${F}/CreateFreightShipment`, shipment([unpacked.orderId]));
    expect(notPacked.statusCode).toBe(422);
    expect(notPacked.json().details.orderIds).toMatch(/is Picked; only packed orders/);
    const mine = await packedOrder();
    await created([mine.orderId]);
    const again = await staff.post(`${F}/CreateFreightShipment`, shipment([mine.orderId]));
    expect(again.statusCode).toBe(409);
    expect(again.json().details.orderIds).toMatch(/already on freight shipment FRT-/);
    expect((await written())[0]).toBe(before[0] + 1);
  });

  it('hazmat without a UN number, third-party terms without a bill-to, a SCAC that is not one', async () => {
    const a = await packedOrder();
    const before = await written();
    const hazmat = await staff.post(`${F}/CreateFreightShipment`, shipment([a.orderId], { handlingUnits: [unit({ hazmat: true })] }));
    expect(hazmat.statusCode).toBe(400);
    expect(hazmat.json().details['handlingUnits.0.unNumber']).toMatch(/UN or NA number/);
    const third = await staff.post(`${F}/CreateFreightShipment`, shipment([a.orderId], { chargeTerms: 'Third Party' }));
    expect(third.statusCode).toBe(400);
    expect(third.json().details['billTo.name']).toMatch(/bill-to/);
    const scac = await staff.post(`${F}/CreateFreightShipment`, shipment([a.orderId], { scac: 'odfl1' }));
    expect(scac.statusCode).toBe(400);
    expect(Object.keys(scac.json().details)).toContain('scac');
    expect(await written()).toEqual(before);
  });
});

describe('client accounts see only their own', () => {
  it('lists, reads and prints its own customer’s shipments only, and cannot plan freight', async () => {
    const mine = await created([(await packedOrder()).orderId]);
    const theirs = await staff.post(`${F}/CreateFreightShipment`, shipment([(await packedOrder(other)).orderId], { customerId: other, handlingUnits: [unit()] }));
    expect(theirs.statusCode, theirs.body).toBe(200);
    const theirId = theirs.json().data.shipmentId;
    const list = await client.post(`${F}/GetFreightShipments`, { pageSize: 500 });
    expect(list.statusCode).toBe(200);
    const ids = list.json().items.map((i: { shipmentId: number; customerId: number }) => i.customerId);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([cust]));
    expect((await client.get(`${F}/GetFreightShipment?shipmentId=${mine.shipmentId}`)).statusCode).toBe(200);
    expect((await client.get(`${F}/GetFreightShipment?shipmentId=${theirId}`)).statusCode).toBe(404);
    expect((await client.get(`${F}/PrintBillOfLading?shipmentId=${theirId}`)).statusCode).toBe(404);
    expect((await client.get(`${F}/GetProofOfDelivery?shipmentId=${theirId}`)).statusCode).toBe(404);
    const before = await written();
    expect((await client.post(`${F}/CreateFreightShipment`, shipment([]))).statusCode).toBe(403);
    expect(await written()).toEqual(before);
  });
});

describe('status and proof of delivery', () => {
  it('books only with a PRO number; pick-up stamps the time, ships the orders through ship confirm and records freight-ship; no edits after pickup; history', async () => {
    const order = await packedOrder();
    const s = await created([order.orderId]);
    expect((await status(s.shipmentId, 'Tendered')).statusCode).toBe(200);
    const noPro = await status(s.shipmentId, 'Booked');
    expect(noPro.statusCode).toBe(422);
    expect(noPro.json().details.proNumber).toBeTruthy();
    const skip = await status(s.shipmentId, 'In Transit');
    expect(skip.statusCode).toBe(409);
    await db().updateTable('freight_shipment').set({ pro_number: `P${s.shipmentId}` }).where('id', '=', s.shipmentId).execute();
    expect((await status(s.shipmentId, 'Booked')).statusCode).toBe(200);
    const up = await status(s.shipmentId, 'Picked Up');
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data.pickedUpAt).toBeTruthy();
    // Its order left with it: Shipped, its packed units out of stock through the ledger (document SHIP).
    expect((await db().selectFrom('sales_order').select('status').where('id', '=', order.orderId).executeTakeFirstOrThrow()).status).toBe('Shipped');
    const out = await db().selectFrom('inventory_txn').select(sql<number>`sum(qty_change)`.as('q')).where('document_type', '=', 'SHIP').where('txn_type', '=', 'ship')
      .where('document_id', 'like', `%${order.soNumber}%`).executeTakeFirstOrThrow();
    expect(Number(out.q)).toBe(-4);
    const ev = await db().selectFrom('floor_event').select(['kind', 'doc_type', 'doc_id', 'quantity', 'customer_id']).where('doc_type', '=', 'FREIGHT').where('doc_id', '=', s.shipmentId).execute();
    expect(ev).toEqual([{ kind: 'freight-ship', doc_type: 'FREIGHT', doc_id: s.shipmentId, quantity: 1, customer_id: cust }]);
    const edit = await staff.post(`${F}/UpdateFreightShipment`, { ...shipment([]), warehouseId: undefined, customerId: undefined, shipmentId: s.shipmentId, handlingUnits: [unit()] });
    expect(edit.statusCode).toBe(409);
    expect((await status(s.shipmentId, 'Cancelled')).statusCode).toBe(409);
    const detail = (await staff.get(`${F}/GetFreightShipment?shipmentId=${s.shipmentId}`)).json();
    expect(detail.history.map((h: { toStatus: string }) => h.toStatus)).toEqual(['Tendered', 'Booked', 'Picked Up']);
  });

  it('a pickup with an order that cannot ship (put back on hold) is refused, and nothing moves', async () => {
    const order = await packedOrder();
    const s = await created([order.orderId], { proNumber: `HOLD-${++seq}` });
    for (const to of ['Tendered', 'Booked']) expect((await status(s.shipmentId, to)).statusCode).toBe(200);
    await db().updateTable('sales_order').set({ status: 'On Hold' }).where('id', '=', order.orderId).execute();
    const up = await status(s.shipmentId, 'Picked Up');
    expect(up.statusCode).toBe(409);
    expect(up.json().message).toMatch(new RegExp(`Order ${order.soNumber} is On Hold`));
    expect((await db().selectFrom('freight_shipment').select('status').where('id', '=', s.shipmentId).executeTakeFirstOrThrow()).status).toBe('Booked');
    expect(await db().selectFrom('inventory_txn').select('id').where('document_type', '=', 'SHIP').where('document_id', 'like', `%${order.soNumber}%`).execute()).toEqual([]);
  });

  it('a POD for a shipment not picked up is refused (409 naming shipmentId, no file kept); once picked up it delivers, and is downloadable', async () => {
    const s = await created([(await packedOrder()).orderId], { proNumber: `POD-${++seq}` });
    await status(s.shipmentId, 'Tendered');
    await status(s.shipmentId, 'Booked');
    const before = await written();
    const early = await pod(s.shipmentId);
    expect(early.statusCode).toBe(409);
    expect(early.json().details.shipmentId).toMatch(/is Booked; a proof of delivery is taken once the carrier has picked it up/);
    expect(await written()).toEqual(before);
    await status(s.shipmentId, 'Picked Up');
    const wrongKind = await pod(s.shipmentId, new Date().toISOString(), { name: 'pod.png', bytes: Buffer.from('MZ not an image'), type: 'image/png' });
    expect(wrongKind.statusCode).toBe(400);
    const signedAt = new Date(Date.now() + 1000).toISOString();
    const done = await pod(s.shipmentId, signedAt);
    expect(done.statusCode, done.body).toBe(200);
    const data = done.json().data;
    expect(data.status).toBe('Delivered');
    expect(data.deliveredAt).toBe(signedAt);
    expect(data.proofOfDelivery).toMatchObject({ fileName: 'pod.png', mimeType: 'image/png', signedBy: 'J. Receiver', signedAt });
    const file = await client.get(`${F}/GetProofOfDelivery?shipmentId=${s.shipmentId}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    // A replacement POD for a delivered shipment keeps one file.
    const files = await countOf('stored_file');
    expect((await pod(s.shipmentId, signedAt)).statusCode).toBe(200);
    expect(await countOf('stored_file')).toBe(files);
  });

  it('a POD signed before the pickup, or with no file, is refused', async () => {
    const s = await created([(await packedOrder()).orderId], { proNumber: `POD-${++seq}` });
    for (const to of ['Tendered', 'Booked', 'Picked Up']) await status(s.shipmentId, to);
    const res = await pod(s.shipmentId, '2020-01-01T00:00:00Z');
    expect(res.statusCode).toBe(400);
    expect(res.json().details.signedAt).toBeTruthy();
  });
});

withTools('bill of lading PDF', () => {
  it('carries the VICS fields, the BOL and PRO numbers as Code 128, and a GS1-128 SSCC label per pallet', async () => {
    const a = await packedOrder();
    const s = await created([a.orderId], {
      proNumber: '987654321', trailerNumber: 'TRL-55', sealNumber: 'SEAL-9', chargeTerms: 'Third Party', codAmountMinor: 25_000, declaredValueMinor: 1_000_000,
      declaredValuePer: 'shipment', specialInstructions: 'Call 1 hour before delivery',
      billTo: { name: 'Freight Pay Co', address1: '9 Audit Way', city: 'Dallas', state: 'TX', zip: '75001' },
      handlingUnits: [unit({ orderId: a.orderId }), unit({ orderId: a.orderId, hazmat: true, unNumber: 'UN1263', description: 'Paint', freightClass: '55' })],
    });
    const res = await admin.get(`${F}/PrintBillOfLading?shipmentId=${s.shipmentId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = res.rawPayload;
    const text = pdfText(pdf);
    for (const needle of [
      'BILL OF LADING', `Bill of Lading Number: ${s.bolNumber}`, 'SHIP FROM', 'SHIP TO', 'Acme Retail DC 7', 'Location #: DC7', 'THIRD PARTY FREIGHT CHARGES BILL TO',
      'Freight Pay Co', 'Old Dominion Freight Line', 'SCAC: ODFL', 'Pro number: 987654321', 'Trailer number: TRL-55', 'Seal number(s): SEAL-9',
      '[X] Third Party', 'Call 1 hour before delivery', 'Pickup appointment: 2030-04-02, 09:00–12:00, dock door D4', 'CUSTOMER ORDER INFORMATION', a.soNumber,
      'CARRIER INFORMATION', 'UN1263 Paint', '156600-3', 'COD Amount: $250.00', 'Declared value: $10,000.00 per shipment', 'SHIPPER SIGNATURE', 'CARRIER SIGNATURE',
    ]) expect(text).toContain(needle);
    // 200 kg = 441 lb per pallet: the order's two pallets, 882 lb, 8 pieces.
    expect(text).toMatch(new RegExp(`${a.soNumber}\\s+8\\s+882\\s+Y`));
    expect(text).toMatch(/1\s+Pallet\s+4\s+Carton\s+441\s+X\s+UN1263 Paint\s+156600-3\s+55/);
    expect(pdfPageCount(pdf)).toBe(3);
    const codes = pdfBarcodes(pdf, 3);
    expect(codes).toContain(s.bolNumber);
    expect(codes).toContain('ODFL987654321');
    for (const u of s.handlingUnits) {
      expect(codes).toContain(`00${u.sscc}`);
    }
    expect(codes.filter((c) => c === '42043004')).toHaveLength(2);
    expect(text).toContain(`(00)${s.handlingUnits[0].sscc}`);
  });
});
