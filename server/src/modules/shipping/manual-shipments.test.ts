import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { RateTableDefinition } from '@bolx/contracts';
import { ADMIN, as, buildTestApp, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, type TestApp } from '../../../test/helpers.js';
import { packDirectly, pickedOrder, staffPrincipal } from '../../../test/support/picked-orders.js';
import { systemActor } from '../../platform/actor.js';

// Issue 15 item 4 (manual shipping on /RMA) and issue 14's return labels: shipments that are not an order's.
const TABLE: RateTableDefinition = {
  currency: 'USD', dimDivisor: 5000, fuelSurchargeBp: 1000, residentialSurchargeMinor: 0,
  zones: [{ postalPrefix: '1', zone: 2 }, { postalPrefix: '9', zone: 8 }],
  services: [{ code: 'GROUND', name: 'Ground', transitDays: 3, cutoff: '23:59', brackets: [{ maxKg: 10, pricesMinor: { 2: 1000, 8: 2000 } }] }],
};
const R = '/Warehouse/RMA';

let t: TestApp;
type Caller = ReturnType<typeof as>;
let staff: Caller, client: Caller, clientNoShip: Caller;
let wh: number, otherWh: number, cust: number, otherCust: number, bin: number, otherWhBin: number, station: number, cartonTypeId: number;
let rated: number, otherRated: number;
let seq = 0;
const db = () => t.database.db;
const tag = () => `${++seq}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const rows = async (table: 'shipment' | 'shipment_line' | 'shipment_package' | 'inventory_txn' | 'event_outbox' | 'audit_log') =>
  Number((await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
const onHand = async (skuId: number, locationId = bin) =>
  Number((await db().selectFrom('inventory_balance').select('on_hand').where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirst())?.on_hand ?? 0);
const shipTo = { name: 'Grace Hopper', address1: '2 Navy Rd', city: 'Arlington', state: 'VA', zip: '12345', country: 'US' };
const parcel = { weightKg: 2, lengthCm: 30, widthCm: 20, heightCm: 10 };

async function stocked(qty: number, customerId = cust, locationId = bin) {
  const sku = await makeSku(t.database, customerId, `MS-${tag()}`);
  await postStock(t, [{ place: { warehouseId: locationId === otherWhBin ? otherWh : wh, customerId, skuId: sku, locationId, lot: '', pallet: '' }, qty }]);
  return sku;
}
const manualShipment = (by: Caller, body: Record<string, unknown>) =>
  by.post(`${R}/CreateManualShipment`, { warehouseId: wh, customerId: cust, shipTo, packages: [parcel], trackingNumber: 'COURIER-1', ...body });

/** Everything a refused request might have written, to show it wrote nothing. */
const footprint = async () => Promise.all([rows('shipment'), rows('shipment_line'), rows('shipment_package'), rows('inventory_txn'), rows('event_outbox')]);

async function carrierAccount(customerId: number, name: string) {
  const type = await db().selectFrom('integration_type').select('id').where('kind', '=', 'carrier').orderBy('id').limit(1).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  return (await db().insertInto('customer_integration').values({
    customer_id: customerId, integration_type_id: type.id, kind: 'carrier', account_name: name, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
}

/** A shipped order of the client and an RMA for one unit of it. */
async function rmaOfShippedOrder(by: Caller = staff) {
  const sku = await stocked(2);
  const tote = await makeLocation(t.database, wh, `MT-${tag()}`, 'tote');
  const order = await pickedOrder(t, { warehouseId: wh, customerId: cust, toteId: tote, lines: [{ skuId: sku, quantity: 2 }] });
  await packDirectly(t, order, { cartonTypeId, stationId: station, perCarton: 10 });
  await db().updateTable('sales_order').set({ ship_to_name: 'Ada Lovelace', ship_to_address1: '1 Main St', ship_to_city: 'Seattle', ship_to_state: 'WA', ship_to_zip: '98101', ship_to_country: 'US' })
    .where('id', '=', order.orderId).execute();
  expect((await t.app.services.shipConfirm.confirm(staffPrincipal(), { warehouseId: wh, orderIds: [order.orderId] }, systemActor('test'))).data.shipped).toHaveLength(1);
  const line = await db().selectFrom('sales_order_line').select('id').where('order_id', '=', order.orderId).executeTakeFirstOrThrow();
  const res = await by.post(`${R}/CreateRma`, { orderId: order.orderId, resolution: 'replace', lines: [{ orderLineId: line.id, quantity: 1, reason: 'damaged' }] });
  expect(res.statusCode, res.body).toBe(200);
  return { rmaId: res.json().data.rmaId as number, rmaNumber: res.json().data.rmaNumber as string, sku };
}

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  await db().updateTable('warehouse').set({ name: 'Returns Centre', address1: '9 Dock St', city: 'Newark', state: 'NJ', zip: '10001', country: 'US' }).where('id', '=', wh).execute();
  cust = await makeCustomer(t.database, [wh, otherWh], 'Acme Manual');
  otherCust = await makeCustomer(t.database, [wh], 'Other Manual');
  bin = await makeLocation(t.database, wh, `MB-${tag()}`);
  otherWhBin = await makeLocation(t.database, otherWh, `MO-${tag()}`);
  station = await makeLocation(t.database, wh, `MP-${tag()}`, 'staging');
  const now = new Date().toISOString();
  cartonTypeId = (await db().insertInto('carton_type').values({
    warehouse_id: wh, code: `BOX-${tag()}`, name: 'Box', length_cm: 40, width_cm: 30, height_cm: 20, tare_weight_kg: 0.3, max_weight_kg: null, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
  rated = await carrierAccount(cust, 'Acme Parcel (rate table)');
  otherRated = await carrierAccount(otherCust, 'Other Parcel');
  const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  for (const id of [rated, otherRated]) expect((await admin.post('/Warehouse/Shipping/SaveRateTable', { carrierAccountId: id, definition: TABLE })).statusCode).toBe(200);
  const m = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh, otherWh], customerIds: [cust, otherCust], modules: { RMA: 'write', ShippingDashboard: 'write', OrderDashboard: 'write' } });
  staff = as(t.app, await login(t.app, m.username, m.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { RMA: 'write', ShippingDashboard: 'read' } });
  client = as(t.app, await login(t.app, c.username, c.password));
  const c2 = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { RMA: 'read' } });
  clientNoShip = as(t.app, await login(t.app, c2.username, c2.password));
});
afterAll(async () => { await t?.close(); });

describe('manual shipping', () => {
  it('takes the lines from stock through the ledger (document SHIPMENT), ships with a typed tracking number, audited and told to the hub', async () => {
    const a = await stocked(5);
    const b = await stocked(3);
    const { rmaId, rmaNumber } = await rmaOfShippedOrder();
    const auditsBefore = await rows('audit_log');
    const res = await manualShipment(staff, { rmaId, reference: 'Replacement', lines: [{ skuId: a, locationId: bin, quantity: 2 }, { skuId: b, locationId: bin, quantity: 3 }], carrierName: 'City Courier' });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    expect(s).toMatchObject({ kind: 'manual', status: 'Shipped', rmaId, rmaNumber, trackingNumbers: ['COURIER-1'], serviceName: 'City Courier', shipToName: 'Grace Hopper', packages: 1 });
    expect(s.lines.map((l: { quantity: number; skuId: number }) => [l.skuId, l.quantity])).toEqual([[a, 2], [b, 3]]);
    expect([await onHand(a), await onHand(b)]).toEqual([3, 0]);
    const ledger = await db().selectFrom('inventory_txn').select(['document_type', 'document_id', 'document_line', 'txn_type', 'qty_change']).where('document_id', '=', s.shipmentNumber).orderBy('id').execute();
    expect(ledger.map((l) => [l.document_type, l.txn_type, Number(l.qty_change), l.document_line])).toEqual([['SHIPMENT', 'ship', -2, '1'], ['SHIPMENT', 'ship', -3, '2']]);
    expect(await ledgerBalanced(t, wh)).toBe(true);
    const history = await db().selectFrom('document_status_history').select(['from_status', 'to_status']).where('kind', '=', 'SHIPMENT').where('document_id', '=', s.shipmentId).orderBy('id').execute();
    expect(history.map((h) => `${h.from_status}>${h.to_status}`)).toEqual(['Open>Labelled', 'Labelled>Shipped']);
    expect(await rows('audit_log')).toBeGreaterThan(auditsBefore + 3);
    const events = await db().selectFrom('event_outbox').select(['payload_json']).where('name', '=', 'ReceiveShipmentData').where('customer_id', '=', cust).execute();
    const subEvents = events.map((e) => JSON.parse(e.payload_json)).filter((p) => p.payload.shipmentId === s.shipmentId).map((p) => `${p.subEvent}:${p.payload.status}`);
    expect(subEvents).toEqual(['AddShipment:Open', 'ShipmentStatus:Labelled', 'ShipmentStatus:Shipped']);
    const floor = await db().selectFrom('floor_event').select(['kind', 'quantity']).where('doc_type', '=', 'SHIPMENT').where('doc_id', '=', s.shipmentId).execute();
    expect(floor.map((f) => [f.kind, Number(f.quantity)])).toEqual([['manual-ship', 2], ['manual-ship', 3]]);
    // The RMA view lists it; the label prints as ZPL with the typed number.
    const list = await staff.post(`${R}/GetManualShipments`, { filters: { warehouseId: wh, customerId: cust }, pageNumber: 1, pageSize: 10 });
    expect(list.json().items.map((i: { shipmentId: number }) => i.shipmentId)).toContain(s.shipmentId);
    const zpl = await staff.get(`/Warehouse/Shipping/Labels?shipmentIds=${s.shipmentId}&format=zpl`);
    expect(zpl.statusCode, zpl.body).toBe(200);
    expect(zpl.body).toContain('Grace Hopper');
  });

  it('offers to ship only stock that can be taken: not a quarantine or returns location’s', async () => {
    const quarantine = await makeLocation(t.database, wh, `MQ-${tag()}`, 'quarantine');
    const returnsDesk = await makeLocation(t.database, wh, `MR-${tag()}`, 'returns');
    const sku = await stocked(4);
    await postStock(t, [quarantine, returnsDesk].map((locationId) => ({ place: { warehouseId: wh, customerId: cust, skuId: sku, locationId, lot: '', pallet: '' }, qty: 2 })));
    const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
    const places = async (takeableOnly: boolean) => (await admin.post('/Warehouse/Inventory/GetStockOnHand', { filters: { warehouseId: wh, customerId: cust, skuId: sku, takeableOnly }, pageNumber: 1, pageSize: 10 }))
      .json().items.map((r: { locationId: number }) => r.locationId).sort((x: number, y: number) => x - y);
    expect(await places(false)).toEqual([bin, quarantine, returnsDesk].sort((x, y) => x - y));
    expect(await places(true)).toEqual([bin]);
  });

  it('labels through the client’s rate-table carrier: its tracking number and charge, and the day’s manifest takes it', async () => {
    const a = await stocked(1);
    const res = await manualShipment(staff, { trackingNumber: undefined, carrierAccountId: rated, serviceCode: 'GROUND', lines: [{ skuId: a, locationId: bin, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    // Zone 2 (12345), 2 kg: 1000 + 10 % fuel.
    expect(s).toMatchObject({ carrierAccountId: rated, adapter: 'rate-table', serviceCode: 'GROUND', rateMinor: 1100, status: 'Shipped' });
    expect(s.trackingNumbers[0]).toMatch(/^1BX\d{11}$/);
    const label = await db().selectFrom('floor_event').select(['amount_minor']).where('kind', '=', 'label').where('doc_id', '=', s.shipmentId).executeTakeFirstOrThrow();
    expect(Number(label.amount_minor)).toBe(1100);
    const pdf = await staff.get(`/Warehouse/Shipping/Labels?shipmentIds=${s.shipmentId}&format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Tracking goes through the adapter: the rate-table carrier scans nothing; another client's shipment is not found.
    const track = await client.get(`/Warehouse/Shipping/Track?shipmentId=${s.shipmentId}`);
    expect(track.statusCode, track.body).toBe(200);
    expect(track.json()).toEqual({ shipmentId: s.shipmentId, shipmentNumber: s.shipmentNumber, adapter: 'rate-table', parcels: [{ trackingNumber: s.trackingNumbers[0], events: [] }] });
    const c3 = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { ShippingDashboard: 'read' } });
    expect((await as(t.app, await login(t.app, c3.username, c3.password)).get(`/Warehouse/Shipping/Track?shipmentId=${s.shipmentId}`)).statusCode).toBe(404);
    const close = await staff.post('/Warehouse/Shipping/CloseDay', { warehouseId: wh, carrierAccountId: rated });
    expect(close.statusCode, close.body).toBe(200);
    expect((await db().selectFrom('shipment').select('status').where('id', '=', s.shipmentId).executeTakeFirstOrThrow()).status).toBe('Closed');
  });

  it('refuses bad input with a 4xx naming the field, and writes nothing', async () => {
    const a = await stocked(2);
    const other = await stocked(2, otherCust);
    const before = await footprint();
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ lines: [{ skuId: a, locationId: bin, quantity: 1 }, { skuId: a, locationId: bin, quantity: 5 }] }, 422, /lines\.1\.quantity/],
      [{ lines: [{ skuId: other, locationId: bin, quantity: 1 }] }, 404, /SKU/i],
      [{ lines: [{ skuId: a, locationId: otherWhBin, quantity: 1 }] }, 404, /location/i],
      [{ lines: [{ skuId: a, locationId: bin, quantity: 0 }] }, 400, /lines\.0\.quantity/],
      [{ lines: [] }, 400, /lines/],
      [{ trackingNumber: undefined, lines: [{ skuId: a, locationId: bin, quantity: 1 }] }, 400, /trackingNumber/],
      [{ shipTo: { ...shipTo, name: 'Nul\u0000' }, lines: [{ skuId: a, locationId: bin, quantity: 1 }] }, 400, /shipTo\.name/],
      [{ packages: [{ ...parcel, weightKg: -1 }], lines: [{ skuId: a, locationId: bin, quantity: 1 }] }, 400, /packages\.0\.weightKg/],
      [{ trackingNumber: undefined, carrierAccountId: otherRated, lines: [{ skuId: a, locationId: bin, quantity: 1 }] }, 422, /carrierAccountId/],
      [{ trackingNumber: undefined, carrierAccountId: rated, serviceCode: 'NOPE', lines: [{ skuId: a, locationId: bin, quantity: 1 }] }, 422, /serviceCode/],
      [{ trackingNumber: undefined, carrierAccountId: rated, shipTo: { ...shipTo, zip: '55555' }, lines: [{ skuId: a, locationId: bin, quantity: 1 }] }, 422, /No zone/],
    ];
    for (const [body, status, message] of cases) {
      const res = await manualShipment(staff, body);
      expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBe(status);
      expect(res.body).toMatch(message);
    }
    // Another client's RMA; another client's stock for this client; a client account (stock out is the warehouse's work).
    const { rmaId } = await rmaOfShippedOrder();
    const midway = await footprint();
    expect((await manualShipment(staff, { customerId: otherCust, rmaId, lines: [{ skuId: other, locationId: bin, quantity: 1 }] })).statusCode).toBe(422);
    expect((await manualShipment(client, { lines: [{ skuId: a, locationId: bin, quantity: 1 }] })).statusCode).toBe(403);
    expect(await footprint()).toEqual(midway);
    expect(midway[0] - before[0]).toBe(0);
    expect(await onHand(a)).toBe(2);
  });

  it('never ships more than is free, whatever the number of requests at once', async () => {
    const a = await stocked(3);
    const answers = await Promise.all(Array.from({ length: 8 }, () => manualShipment(staff, { lines: [{ skuId: a, locationId: bin, quantity: 1 }] })));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c !== 200).every((c) => c === 422 || c === 409)).toBe(true);
    expect(await onHand(a)).toBe(0);
    const taken = await db().selectFrom('inventory_txn').select(sql<number>`coalesce(sum(qty_change), 0)`.as('q')).where('sku_id', '=', a).where('document_type', '=', 'SHIPMENT').executeTakeFirstOrThrow();
    expect(Number(taken.q)).toBe(-3);
    const shipments = await db().selectFrom('shipment_line').select(sql<number>`count(*)`.as('n')).where('sku_id', '=', a).executeTakeFirstOrThrow();
    expect(Number(shipments.n)).toBe(3);
    expect(await ledgerBalanced(t, wh)).toBe(true);
  });
});

describe('return labels', () => {
  it('a rate-table label from the consumer back to the warehouse puts the RMA In Transit; one standing label per RMA', async () => {
    const { rmaId, rmaNumber } = await rmaOfShippedOrder();
    const res = await staff.post(`${R}/CreateReturnLabel`, { rmaId, carrierAccountId: rated, packages: [parcel] });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    // To the warehouse (10001, zone 2): 1000 + 10 %.
    expect(s).toMatchObject({ kind: 'return', status: 'Labelled', rmaId, rmaNumber, referenceNumber: rmaNumber, rateMinor: 1100, shipToName: 'Ada Lovelace' });
    const rma = await db().selectFrom('rma').select(['status', 'tracking_number', 'carrier']).where('id', '=', rmaId).executeTakeFirstOrThrow();
    expect(rma).toEqual({ status: 'In Transit', tracking_number: s.trackingNumbers[0], carrier: 'Acme Parcel (rate table)' });
    const zpl = (await staff.get(`/Warehouse/Shipping/Labels?shipmentIds=${s.shipmentId}&format=zpl`)).body;
    // FROM the consumer, SHIP TO the warehouse.
    expect(zpl.indexOf('Ada Lovelace')).toBeLessThan(zpl.indexOf('SHIP TO'));
    expect(zpl.indexOf('Returns Centre')).toBeGreaterThan(zpl.indexOf('SHIP TO'));
    const again = await staff.post(`${R}/CreateReturnLabel`, { rmaId, trackingNumber: 'X1', packages: [parcel] });
    expect(again.statusCode).toBe(409);
    // Voided, it can be made again (by hand this time).
    expect((await staff.post('/Warehouse/Shipping/VoidLabels', { shipmentId: s.shipmentId })).statusCode).toBe(200);
    const typed = await staff.post(`${R}/CreateReturnLabel`, { rmaId, trackingNumber: '1ZRETURN', carrierName: 'UPS', packages: [parcel] });
    expect(typed.statusCode, typed.body).toBe(200);
    expect((await db().selectFrom('rma').select(['tracking_number', 'carrier']).where('id', '=', rmaId).executeTakeFirstOrThrow())).toEqual({ tracking_number: '1ZRETURN', carrier: 'UPS' });
  });

  it('the client account labels its own RMAs only; a received or closed RMA takes no label; nothing written on refusal', async () => {
    const { rmaId } = await rmaOfShippedOrder(client);
    const before = await footprint();
    expect((await clientNoShip.post(`${R}/CreateReturnLabel`, { rmaId, trackingNumber: 'T', packages: [parcel] })).statusCode).toBe(403);
    await db().updateTable('rma').set({ status: 'Received' }).where('id', '=', rmaId).execute();
    expect((await client.post(`${R}/CreateReturnLabel`, { rmaId, trackingNumber: 'T', packages: [parcel] })).statusCode).toBe(409);
    await db().updateTable('rma').set({ status: 'Authorised' }).where('id', '=', rmaId).execute();
    const otherClient = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { RMA: 'write' } });
    const oc = as(t.app, await login(t.app, otherClient.username, otherClient.password));
    expect((await oc.post(`${R}/CreateReturnLabel`, { rmaId, trackingNumber: 'T', packages: [parcel] })).statusCode).toBe(404);
    expect(await footprint()).toEqual(before);
    const ok = await client.post(`${R}/CreateReturnLabel`, { rmaId, trackingNumber: 'CLIENT-1', packages: [parcel] });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
