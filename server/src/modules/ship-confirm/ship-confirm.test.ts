import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  as, buildTestApp, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, recordEvents, type TestApp,
} from '../../../test/helpers.js';
import { pickedOrder } from '../../../test/support/picked-orders.js';

let t: TestApp;
let staff: ReturnType<typeof as>;
let wh: number, cust: number, strict: number, bin: number, station: number, cartonTypeId: number;
let ups: number, fedex: number;
let seq = 0;

const SHIP = '/Warehouse/Ship/ConfirmShipment';
const P = '/Warehouse/Pack';
const db = () => t.database.db;
const place = (skuId: number, customerId = cust, locationId = bin) => ({ warehouseId: wh, customerId, skuId, locationId, lot: '', pallet: '' });
const sku = (customerId = cust) => makeSku(t.database, customerId, `SH-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase());
const tote = () => makeLocation(t.database, wh, `ST-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase(), 'tote');
const order = (id: number) => db().selectFrom('sales_order').select(['status', 'ship_date', 'shipped_at', 'backorder_of_id', 'reference_number', 'so_number']).where('id', '=', id).executeTakeFirstOrThrow();
const balance = (skuId: number, locationId: number) => db().selectFrom('inventory_balance').select(['on_hand', 'allocated'])
  .where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirst();
const ledgerRows = async () => Number((await db().selectFrom('inventory_txn').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

async function carrier(customerId: number, name: string, nth: number) {
  const type = await db().selectFrom('integration_type').select('id').where('kind', '=', 'carrier').orderBy('id').offset(nth).limit(1).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  return (await db().insertInto('customer_integration').values({
    customer_id: customerId, integration_type_id: type.id, kind: 'carrier', account_name: name, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
}

/** An order picked into a tote: `lines` with the stock each SKU has in the bin (default: all it needs), and how many to pick. */
async function picked(lines: { quantity: number; stock?: number; pick?: number }[], over: { customerId?: number; carrierAccountId?: number } = {}) {
  const customerId = over.customerId ?? cust;
  const skus: number[] = [];
  for (const l of lines) {
    const s = await sku(customerId);
    if ((l.stock ?? l.quantity) > 0) await postStock(t, [{ place: place(s, customerId), qty: l.stock ?? l.quantity }]);
    skus.push(s);
  }
  const o = await pickedOrder(t, {
    warehouseId: wh, customerId, toteId: await tote(), carrierAccountId: over.carrierAccountId,
    lines: lines.map((l, i) => ({ skuId: skus[i], quantity: l.quantity })), pick: (i, reserved) => Math.min(reserved, lines[i].pick ?? reserved),
  });
  return { ...o, skus };
}

/** Packs everything picked into one carton through the pack station and closes it at the station: the order is Packed. */
async function pack(o: { orderId: number; skus: number[] }) {
  const opened = await staff.post(`${P}/OpenCarton`, { orderId: o.orderId, cartonTypeId });
  expect(opened.statusCode, opened.body).toBe(200);
  const view = opened.json().order;
  const cartonId = view.cartons.at(-1).cartonId as number;
  for (const line of view.lines as { skuCode: string; pickedQuantity: number; packedQuantity: number }[]) {
    const left = line.pickedQuantity - line.packedQuantity;
    if (left > 0) expect((await staff.post(`${P}/PackItem`, { cartonId, code: line.skuCode, quantity: left })).statusCode).toBe(200);
  }
  const closed = await staff.post(`${P}/CloseCarton`, { cartonId, weightKg: 3, locationId: station });
  expect(closed.statusCode, closed.body).toBe(200);
  return cartonId;
}

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  strict = await makeCustomer(t.database, [wh], 'Strict Goods Ltd');
  await db().updateTable('customer').set({ allow_backorders: 0 }).where('id', '=', strict).execute();
  bin = await makeLocation(t.database, wh);
  station = await makeLocation(t.database, wh, `PACK-${++seq}`, 'staging');
  ups = await carrier(cust, 'UPS main', 0);
  fedex = await carrier(cust, 'FedEx main', 1);
  const s = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh], customerIds: [cust, strict], modules: { BatchJob: 'write' } });
  staff = as(t.app, await login(t.app, s.username, s.password));
  const saved = await staff.post(`${P}/SaveCartonType`, { warehouseId: wh, code: 'BOX', name: 'Box', lengthCm: 40, widthCm: 30, heightCm: 20, tareWeightKg: 0.3 });
  expect(saved.statusCode, saved.body).toBe(200);
  cartonTypeId = saved.json().data.cartonTypeId;
});
afterAll(async () => { await t?.close(); });

/** Whether the hub delivered an order event of this kind (after commit; on PostgreSQL a moment later). */
async function heard(events: Awaited<ReturnType<typeof recordEvents>>, subEvent: string) {
  const deadline = Date.now() + 3000;
  const found = () => events.seen.some((e) => e.target === 'ReceiveOrderData' && (e.payload as { subEvent: string }).subEvent === subEvent);
  while (!found() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return found();
}

describe('ConfirmShipment', () => {
  it('takes a packed order out of the building: ship rows per line, balances and reservations gone, shipped quantities, Shipped with its date, tracking, floor events', async () => {
    const o = await picked([{ quantity: 2 }, { quantity: 1 }]);
    const cartonId = await pack(o);
    const events = await recordEvents(t.app);
    const res = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId], tracking: [{ cartonId, trackingNumber: '1Z999' }] });
    expect(res.statusCode, res.body).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.json()).toEqual({
      message: '1 order shipped',
      data: { shipped: [{ orderId: o.orderId, soNumber: o.soNumber, shipDate: today, cartons: 1, units: 3, backorderOrderId: null, backorderSoNumber: null }], refused: [] },
    });
    expect(await order(o.orderId)).toMatchObject({ status: 'Shipped', ship_date: today, shipped_at: expect.any(String) });
    const ledger = await db().selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'location_id', 'document_line', 'sku_id'])
      .where('document_type', '=', 'SHIP').where('document_id', '=', o.soNumber).orderBy('document_line').execute();
    expect(ledger).toEqual([
      { txn_type: 'ship', qty_change: -2, location_id: station, document_line: String(o.lineIds[0]), sku_id: o.skus[0] },
      { txn_type: 'ship', qty_change: -1, location_id: station, document_line: String(o.lineIds[1]), sku_id: o.skus[1] },
    ].sort((a, b) => a.document_line.localeCompare(b.document_line)));
    for (const s of o.skus) expect(await balance(s, station)).toMatchObject({ on_hand: 0, allocated: 0 });
    const open = await db().selectFrom('stock_reservation').select('id').where('document_id', '=', o.soNumber).where('quantity', '>', 0).execute();
    expect(open).toEqual([]);
    expect(await ledgerBalanced(t, wh)).toBe(true);
    const lines = await db().selectFrom('sales_order_line').select(['shipped_qty']).where('order_id', '=', o.orderId).orderBy('line_no').execute();
    expect(lines.map((l) => l.shipped_qty)).toEqual([2, 1]);
    expect((await db().selectFrom('carton').select('tracking_number').where('id', '=', cartonId).executeTakeFirstOrThrow()).tracking_number).toBe('1Z999');
    const floor = await db().selectFrom('floor_event').select(['order_line_id', 'quantity', 'location_id']).where('order_id', '=', o.orderId).where('kind', '=', 'ship').orderBy('order_line_id').execute();
    expect(floor).toEqual([{ order_line_id: o.lineIds[0], quantity: 2, location_id: station }, { order_line_id: o.lineIds[1], quantity: 1, location_id: station }]
      .sort((a, b) => a.order_line_id - b.order_line_id));
    expect(await heard(events, 'ShipOrder')).toBe(true);
  });

  it('refuses an order that is not packed (409, listed) and writes nothing for it, while the others ship', async () => {
    const unpacked = await picked([{ quantity: 1 }]);
    const packed = await picked([{ quantity: 1 }]);
    await pack(packed);
    const before = await ledgerRows();
    const res = await staff.post(SHIP, { warehouseId: wh, orderIds: [unpacked.orderId, packed.orderId, 999999] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.shipped.map((s: { orderId: number }) => s.orderId)).toEqual([packed.orderId]);
    expect(res.json().data.refused).toEqual([
      { orderId: 999999, soNumber: null, message: 'Order not found' },
      { orderId: unpacked.orderId, soNumber: unpacked.soNumber, message: `Order ${unpacked.soNumber} is Picked; only Packed orders are shipped` },
    ]);
    expect(await order(unpacked.orderId)).toMatchObject({ status: 'Picked', ship_date: null });
    expect(await ledgerRows()).toBe(before + 1);
    expect(await balance(unpacked.skus[0], bin)).toMatchObject({ on_hand: 0, allocated: 0 });
    const shippedLines = await db().selectFrom('sales_order_line').select('shipped_qty').where('order_id', '=', unpacked.orderId).execute();
    expect(shippedLines.map((l) => l.shipped_qty)).toEqual([0]);
  });

  it('ships every packed order of a carrier account at once, and only those', async () => {
    const a = await picked([{ quantity: 1 }], { carrierAccountId: ups });
    const b = await picked([{ quantity: 2 }], { carrierAccountId: ups });
    const other = await picked([{ quantity: 1 }], { carrierAccountId: fedex });
    const notPacked = await picked([{ quantity: 1 }], { carrierAccountId: ups });
    for (const o of [a, b, other]) await pack(o);
    const res = await staff.post(SHIP, { warehouseId: wh, carrierAccountId: ups });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.shipped.map((s: { orderId: number }) => s.orderId)).toEqual([a.orderId, b.orderId]);
    expect(res.json().data.refused).toEqual([]);
    expect((await order(other.orderId)).status).toBe('Packed');
    expect((await order(notPacked.orderId)).status).toBe('Picked');
    expect(await ledgerBalanced(t, wh)).toBe(true);
  });

  it('ships part of an order when the customer takes backorders: what did not ship (short stock, short pick) becomes order <ref>-BO1, allocated', async () => {
    // Line 1: 3 allocated, 2 picked (a short pick leaves 1 reserved in the bin); line 2: 1 of 2 in stock.
    const o = await picked([{ quantity: 3, pick: 2 }, { quantity: 2, stock: 1 }]);
    expect(o.status).toBe('Backordered');
    await pack(o);
    expect((await order(o.orderId)).status).toBe('Packed');
    const res = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId] });
    expect(res.statusCode, res.body).toBe(200);
    const shipped = res.json().data.shipped[0];
    expect(shipped).toMatchObject({ orderId: o.orderId, units: 3, backorderOrderId: expect.any(Number), backorderSoNumber: expect.stringMatching(/^SO-/) });
    const bo = await order(shipped.backorderOrderId);
    expect(bo).toMatchObject({ reference_number: `${o.referenceNumber}-BO1`, backorder_of_id: o.orderId, status: 'Backordered' });
    const boLines = await db().selectFrom('sales_order_line').select(['sku_id', 'quantity', 'allocated_qty']).where('order_id', '=', shipped.backorderOrderId).orderBy('line_no').execute();
    // The short-picked unit left in the bin went back to free stock and was allocated to the backorder at once.
    expect(boLines).toEqual([{ sku_id: o.skus[0], quantity: 1, allocated_qty: 1 }, { sku_id: o.skus[1], quantity: 1, allocated_qty: 0 }]);
    expect(await balance(o.skus[0], bin)).toMatchObject({ on_hand: 1, allocated: 1 });
    const shippedQty = await db().selectFrom('sales_order_line').select('shipped_qty').where('order_id', '=', o.orderId).orderBy('line_no').execute();
    expect(shippedQty.map((l) => l.shipped_qty)).toEqual([2, 1]);
    expect(await ledgerBalanced(t, wh)).toBe(true);
  });

  it('refuses a partial shipment when the customer does not take them, writing nothing', async () => {
    const o = await picked([{ quantity: 2, stock: 1 }], { customerId: strict });
    expect(o.status).toBe('Partially Allocated');
    await pack(o);
    const before = await ledgerRows();
    const res = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.refused).toEqual([
      { orderId: o.orderId, soNumber: o.soNumber, message: `Order ${o.soNumber}: 1 unit is missing and Strict Goods Ltd does not take partial shipments` },
    ]);
    expect((await order(o.orderId)).status).toBe('Packed');
    expect(await ledgerRows()).toBe(before);
    expect(await balance(o.skus[0], station)).toMatchObject({ on_hand: 1, allocated: 1 });
    const backorders = await db().selectFrom('sales_order').select('id').where('backorder_of_id', '=', o.orderId).execute();
    expect(backorders).toEqual([]);
  });

  it('refuses a warehouse outside the caller’s scope (403) and a request naming neither orders nor a carrier (400)', async () => {
    const elsewhere = await makeWarehouse(t.database);
    expect((await staff.post(SHIP, { warehouseId: elsewhere, carrierAccountId: ups })).statusCode).toBe(403);
    expect((await staff.post(SHIP, { warehouseId: wh })).statusCode).toBe(400);
  });
});

describe('ConfirmShipment under an Idempotency-Key', () => {
  // Each order ships in a unit of its own; a refused one is rolled back and listed, and the answer is still 200.
  // That answer was not kept with the key when no order shipped (nothing left in the request's transaction to
  // write the key into): a replay shipped what the first request had refused, or answered differently.
  const key = { 'idempotency-key': `ship-replay-${Math.random().toString(36).slice(2, 10)}` };
  it('answers a replay with the first answer', async () => {
    const o = await picked([{ quantity: 2 }]);
    await pack(o);
    const first = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId] }, { 'idempotency-key': `ship-once-${o.orderId}` });
    expect(first.json().data.shipped).toHaveLength(1);
    const again = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId] }, { 'idempotency-key': `ship-once-${o.orderId}` });
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('keeps a refusal as the answer: the replay, once the order is packed, ships nothing', async () => {
    const o = await picked([{ quantity: 2 }]);
    const refused = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId] }, key);
    expect(refused.statusCode).toBe(200);
    expect(refused.json().data.refused).toHaveLength(1);
    await pack(o);
    const rows = await ledgerRows();
    const again = await staff.post(SHIP, { warehouseId: wh, orderIds: [o.orderId] }, key);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toBe(refused.body);
    expect((await order(o.orderId)).status).toBe('Packed');
    expect(await ledgerRows()).toBe(rows);
  });
});
