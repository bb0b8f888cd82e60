import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  as, buildTestApp, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, postStock, recordEvents, type TestApp,
} from '../../../test/helpers.js';
import { allocatedOrder, pickedOrder, staffPrincipal } from '../../../test/support/picked-orders.js';
import { systemActor } from '../../platform/actor.js';

let t: TestApp;
let staff: ReturnType<typeof as>;
let manager: ReturnType<typeof as>;
let wh: number, otherWh: number, cust: number, otherCust: number, bin: number, station: number, dock: number;
let small: number, capped: number;
let seq = 0;

const P = '/Warehouse/Pack';
const db = () => t.database.db;
const place = (skuId: number, locationId: number, lot = '', customerId = cust) => ({ warehouseId: wh, customerId, skuId, locationId, lot, pallet: '' });
const sku = (customerId = cust, tracks: { lot?: boolean } = {}) => makeSku(t.database, customerId, `PK-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase(), tracks);
const tote = () => makeLocation(t.database, wh, `TOTE-${++seq}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase(), 'tote');
const skuCode = async (id: number) => (await db().selectFrom('sku').select('sku_code').where('id', '=', id).executeTakeFirstOrThrow()).sku_code;
const statusOf = async (id: number) => (await db().selectFrom('sales_order').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const balance = (skuId: number, locationId: number) => db().selectFrom('inventory_balance').select(['on_hand', 'allocated'])
  .where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirst();

/** What a refusal must leave as it was: carton lines, packed quantities, cartons, floor events, ledger rows. */
const footprint = async () => {
  const n = async (table: 'carton_line' | 'carton' | 'floor_event' | 'inventory_txn') =>
    Number((await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const packed = Number((await db().selectFrom('sales_order_line').select(sql<number>`coalesce(sum(packed_qty), 0)`.as('n')).executeTakeFirstOrThrow()).n);
  const closed = Number((await db().selectFrom('carton').select(sql<number>`count(*)`.as('n')).where('status', '=', 'Closed').executeTakeFirstOrThrow()).n);
  return { cartonLines: await n('carton_line'), cartons: await n('carton'), closed, events: await n('floor_event'), ledger: await n('inventory_txn'), packed };
};

/** A SKU with stock in the bin, an order for it picked into a fresh tote. */
async function picked(lines: { quantity: number; stock?: number; lot?: string }[] = [{ quantity: 3 }], opts: { lotTracked?: boolean } = {}) {
  const skus: number[] = [];
  for (const l of lines) {
    const s = await sku(cust, { lot: opts.lotTracked });
    await postStock(t, [{ place: place(s, bin, l.lot ?? ''), qty: l.stock ?? l.quantity }]);
    skus.push(s);
  }
  const toteId = await tote();
  const order = await pickedOrder(t, { warehouseId: wh, customerId: cust, toteId, lines: lines.map((l, i) => ({ skuId: skus[i], quantity: l.quantity })) });
  return { ...order, skus, toteId };
}

const openCarton = async (orderId: number, cartonTypeId = small) => {
  const res = await staff.post(`${P}/OpenCarton`, { orderId, cartonTypeId });
  expect(res.statusCode, res.body).toBe(200);
  const cartons = res.json().order.cartons as { cartonId: number; status: string; cartonNumber: string }[];
  return cartons.filter((c) => c.status === 'Open').at(-1)!;
};
const packItem = (cartonId: number, code: string, over: Record<string, unknown> = {}) => staff.post(`${P}/PackItem`, { cartonId, code, ...over });

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  otherCust = await makeCustomer(t.database, [wh]);
  bin = await makeLocation(t.database, wh);
  dock = await makeLocation(t.database, wh, `DOCK-${++seq}`, 'dock');
  station = await makeLocation(t.database, wh, `PACK-${++seq}`, 'staging');
  const s = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, otherCust], modules: { BatchJob: 'write' } });
  staff = as(t.app, await login(t.app, s.username, s.password));
  const m = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh, otherWh], customerIds: [cust, otherCust], modules: { BatchJob: 'write' } });
  manager = as(t.app, await login(t.app, m.username, m.password));
  const save = async (body: Record<string, unknown>) => {
    const res = await manager.post(`${P}/SaveCartonType`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.cartonTypeId as number;
  };
  small = await save({ warehouseId: wh, code: 'box-s', name: 'Small box', lengthCm: 30, widthCm: 20, heightCm: 15, tareWeightKg: 0.2 });
  capped = await save({ warehouseId: wh, code: 'ENV', name: 'Envelope', lengthCm: 35, widthCm: 25, heightCm: 2, tareWeightKg: 0.05, maxWeightKg: 1 });
});
afterAll(async () => { await t?.close(); });

/** Whether the hub delivered an order event of this kind (after commit; on PostgreSQL a moment later). */
async function heard(events: Awaited<ReturnType<typeof recordEvents>>, subEvent: string) {
  const deadline = Date.now() + 3000;
  const found = () => events.seen.some((e) => e.target === 'ReceiveOrderData' && (e.payload as { subEvent: string }).subEvent === subEvent);
  while (!found() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return found();
}

describe('carton types', () => {
  it('are saved by a manager (code upper case), listed by warehouse, and changed', async () => {
    const list = await staff.post(`${P}/GetCartonTypes`, { filters: { warehouseId: wh }, pageNumber: 1, pageSize: 50 });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((c: { code: string }) => c.code)).toEqual(['BOX-S', 'ENV']);
    expect(list.json().items[0]).toMatchObject({ cartonTypeId: small, warehouseId: wh, name: 'Small box', lengthCm: 30, tareWeightKg: 0.2, maxWeightKg: null, isActive: true });
    const res = await manager.post(`${P}/SaveCartonType`, { cartonTypeId: small, warehouseId: wh, code: 'BOX-S', name: 'Small box (new)', lengthCm: 31, widthCm: 20, heightCm: 15, tareWeightKg: 0.25 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ cartonTypeId: small, name: 'Small box (new)', lengthCm: 31, tareWeightKg: 0.25 });
    const audit = await db().selectFrom('audit_log').select(['action']).where('entity', '=', 'carton_type').where('entity_id', '=', String(small)).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'update']);
  });

  it('refuse a code the warehouse already has (409), bad sizes (400), a maximum under the tare (422), and staff (403), writing nothing', async () => {
    const before = Number((await db().selectFrom('carton_type').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const base = { warehouseId: wh, code: 'env', name: 'Another', lengthCm: 10, widthCm: 10, heightCm: 10, tareWeightKg: 0.1 };
    const dup = await manager.post(`${P}/SaveCartonType`, base);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Carton type ENV already exists in this warehouse');
    expect((await manager.post(`${P}/SaveCartonType`, { ...base, code: 'NEW', lengthCm: 0 })).statusCode).toBe(400);
    const under = await manager.post(`${P}/SaveCartonType`, { ...base, code: 'NEW', maxWeightKg: 0.1 });
    expect(under.statusCode).toBe(422);
    expect(under.json().details).toMatchObject({ maxWeightKg: 'More than the tare weight' });
    expect((await staff.post(`${P}/SaveCartonType`, { ...base, code: 'NEW' })).statusCode).toBe(403);
    // The same code in another warehouse is another carton type.
    expect((await manager.post(`${P}/SaveCartonType`, { ...base, warehouseId: otherWh })).statusCode).toBe(200);
    const after = Number((await db().selectFrom('carton_type').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before + 1);
  });
});

describe('OpenPack', () => {
  it('opens a Picked order by its tote, its SO number or its reference, with what was picked per line', async () => {
    const o = await picked([{ quantity: 2 }, { quantity: 1 }]);
    const toteCode = (await db().selectFrom('location').select('code').where('id', '=', o.toteId).executeTakeFirstOrThrow()).code;
    for (const code of [toteCode.toLowerCase(), o.soNumber, o.referenceNumber]) {
      const res = await staff.post(`${P}/OpenPack`, { warehouseId: wh, code });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ orderId: o.orderId, status: 'Picked', toteCodes: [toteCode], cartons: [] });
      expect(res.json().lines.map((l: { pickedQuantity: number; packedQuantity: number }) => [l.pickedQuantity, l.packedQuantity])).toEqual([[2, 0], [1, 0]]);
    }
  });

  it('refuses an order not Picked (409 naming its status), a cancelled one, and an unknown code (404)', async () => {
    const s = await sku();
    await postStock(t, [{ place: place(s, bin), qty: 1 }]);
    const allocated = await allocatedOrder(t, { warehouseId: wh, customerId: cust, lines: [{ skuId: s, quantity: 1 }] });
    const res = await staff.post(`${P}/OpenPack`, { warehouseId: wh, code: allocated.soNumber });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Order ${allocated.soNumber} is Allocated; only Picked orders are packed`);
    await t.app.services.allocation.cancel(staffPrincipal(), { orderId: allocated.orderId }, systemActor('test'));
    const cancelled = await staff.post(`${P}/OpenPack`, { warehouseId: wh, code: allocated.soNumber });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toBe(`Order ${allocated.soNumber} is Cancelled: it cannot be packed`);
    expect((await staff.post(`${P}/OpenCarton`, { orderId: allocated.orderId, cartonTypeId: small })).statusCode).toBe(409);
    expect((await staff.post(`${P}/OpenPack`, { warehouseId: wh, code: 'NO-SUCH-THING' })).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('keeps packing to staff: a client account is refused (403) on every pack route', async () => {
    const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { BatchJob: 'write' } });
    const client = as(t.app, await login(t.app, c.username, c.password));
    expect((await client.post(`${P}/GetCartonTypes`, { pageNumber: 1, pageSize: 10 })).statusCode).toBe(403);
    expect((await client.post(`${P}/OpenPack`, { warehouseId: wh, code: 'X' })).statusCode).toBe(403);
    expect((await client.post(`${P}/PackItem`, { cartonId: 1, code: 'X' })).statusCode).toBe(403);
    expect((await client.post('/Warehouse/Ship/ConfirmShipment', { warehouseId: wh, orderIds: [1] })).statusCode).toBe(403);
  });

  it('opens a carton only of an active carton type of the order’s warehouse (422)', async () => {
    const o = await picked([{ quantity: 1 }]);
    const elsewhere = await manager.post(`${P}/SaveCartonType`, { warehouseId: otherWh, code: 'FAR', name: 'Far', lengthCm: 1, widthCm: 1, heightCm: 1, tareWeightKg: 0 });
    const res = await staff.post(`${P}/OpenCarton`, { orderId: o.orderId, cartonTypeId: elsewhere.json().data.cartonTypeId });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ cartonTypeId: 'Not an active carton type of this warehouse' });
  });
});

describe('PackItem', () => {
  it('packs scanned units into the carton: carton line, packed quantity and a pack floor event', async () => {
    const o = await picked([{ quantity: 3 }]);
    const carton = await openCarton(o.orderId);
    expect(carton.cartonNumber).toMatch(/^CTN-\d{8}$/);
    const code = await skuCode(o.skus[0]);
    const first = await packItem(carton.cartonId, code.toLowerCase());
    expect(first.statusCode, first.body).toBe(200);
    const res = await packItem(carton.cartonId, code, { quantity: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`2 units of ${code} packed into ${carton.cartonNumber}`);
    // The answer is what the scan changed: the carton, its line, the order line — not the whole order.
    expect(res.json()).toMatchObject({
      orderId: o.orderId, opened: false, carton: { cartonId: carton.cartonId, cartonNumber: carton.cartonNumber, status: 'Open' },
      line: { orderLineId: o.lineIds[0], pickedQuantity: 3, packedQuantity: 3 },
      cartonLine: { orderLineId: o.lineIds[0], skuId: o.skus[0], skuCode: code, lot: '', quantity: 3 },
    });
    expect(res.json()).not.toHaveProperty('order');
    const events = await db().selectFrom('floor_event').select(['kind', 'quantity', 'carton_id', 'order_line_id', 'location_id', 'user_id']).where('order_id', '=', o.orderId).orderBy('id').execute();
    const event = { kind: 'pack', carton_id: carton.cartonId, order_line_id: o.lineIds[0], location_id: o.toteId, user_id: expect.any(Number) };
    expect(events).toEqual([{ ...event, quantity: 1 }, { ...event, quantity: 2 }]);
  });

  it('refuses an item not on the order, another client’s item, and one more than picked (422), writing nothing', async () => {
    const o = await picked([{ quantity: 2 }]);
    const carton = await openCarton(o.orderId);
    expect((await packItem(carton.cartonId, await skuCode(o.skus[0]), { quantity: 2 })).statusCode).toBe(200);
    const notOnOrder = await sku();
    const theirs = await sku(otherCust);
    const before = await footprint();
    const wrong = await packItem(carton.cartonId, await skuCode(notOnOrder));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(`${await skuCode(notOnOrder)} is not on order ${o.soNumber}`);
    const other = await packItem(carton.cartonId, await skuCode(theirs));
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(`${await skuCode(theirs)} is another client's item: it is not on order ${o.soNumber}`);
    const unknown = await packItem(carton.cartonId, 'NOTHING-LIKE-THIS');
    expect(unknown.statusCode).toBe(422);
    const more = await packItem(carton.cartonId, await skuCode(o.skus[0]));
    expect(more.statusCode).toBe(422);
    expect(more.json().message).toMatch(/^One more than ordered: /);
    expect(await footprint()).toEqual(before);
  });

  it('opens a carton of a type with the first accepted scan; a refused first scan opens none (nothing written)', async () => {
    const o = await picked([{ quantity: 2 }]);
    const code = await skuCode(o.skus[0]);
    const before = await footprint();
    const refused = await staff.post(`${P}/PackItem`, { orderId: o.orderId, cartonTypeId: small, code: await skuCode(await sku()) });
    expect(refused.statusCode).toBe(422);
    expect(await footprint()).toEqual(before);
    expect(await db().selectFrom('carton').select('id').where('order_id', '=', o.orderId).execute()).toEqual([]);
    const res = await staff.post(`${P}/PackItem`, { orderId: o.orderId, cartonTypeId: small, code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ opened: true, carton: { status: 'Open', cartonTypeId: small }, cartonLine: { quantity: 1 }, line: { packedQuantity: 1 } });
    expect(res.json().carton.cartonNumber).toMatch(/^CTN-\d{8}$/);
    const cartons = await db().selectFrom('carton').select(['id', 'status']).where('order_id', '=', o.orderId).execute();
    expect(cartons).toEqual([{ id: res.json().carton.cartonId, status: 'Open' }]);
    // The next scan goes into that carton.
    const next = await packItem(res.json().carton.cartonId, code);
    expect(next.json()).toMatchObject({ opened: false, cartonLine: { quantity: 2 } });
    // Bad input: neither a carton nor an order and type (400 naming the field); an inactive or another warehouse's type (422).
    const neither = await staff.post(`${P}/PackItem`, { code });
    expect(neither.statusCode).toBe(400);
    const both = await staff.post(`${P}/PackItem`, { cartonId: res.json().carton.cartonId, orderId: o.orderId, cartonTypeId: small, code });
    expect(both.statusCode).toBe(400);
  });

  it('refuses a scan into a carton closed meanwhile (409), writing nothing', async () => {
    const o = await picked([{ quantity: 2 }]);
    const carton = await openCarton(o.orderId);
    const code = await skuCode(o.skus[0]);
    expect((await packItem(carton.cartonId, code)).statusCode).toBe(200);
    expect((await staff.post(`${P}/CloseCarton`, { cartonId: carton.cartonId, weightKg: 2, locationId: station })).statusCode).toBe(200);
    const before = await footprint();
    const res = await packItem(carton.cartonId, code);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Carton ${carton.cartonNumber} is closed`);
    expect(await footprint()).toEqual(before);
  });

  it('counts a package GTIN as its units', async () => {
    const o = await picked([{ quantity: 6 }]);
    const now = new Date().toISOString();
    const gtin = `9${Date.now()}`.slice(0, 14);
    await db().insertInto('sku_package').values({
      customer_id: cust, sku_id: o.skus[0], parent_id: null, package_type: 'Case', package_name: 'Case of 6', quantity: 6, gtin,
      length_cm: null, width_cm: null, height_cm: null, weight_kg: null, created_at: now, updated_at: now,
    }).execute();
    const carton = await openCarton(o.orderId);
    const res = await packItem(carton.cartonId, gtin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().line).toMatchObject({ packedQuantity: 6 });
  });

  it('packs the scanned lot, else the lot with units left', async () => {
    const s = await sku(cust, { lot: true });
    await postStock(t, [{ place: place(s, bin, 'LA'), qty: 1, expiryDate: '2090-01-01' }, { place: place(s, bin, 'LB'), qty: 2, expiryDate: '2091-01-01' }]);
    const toteId = await tote();
    const o = await pickedOrder(t, { warehouseId: wh, customerId: cust, toteId, lines: [{ skuId: s, quantity: 3 }] });
    const carton = await openCarton(o.orderId);
    const code = await skuCode(s);
    const scanned = await packItem(carton.cartonId, code, { lot: 'LB' });
    expect(scanned.statusCode, scanned.body).toBe(200);
    const short = await packItem(carton.cartonId, code, { lot: 'LB', quantity: 2 });
    expect(short.statusCode).toBe(422);
    expect(short.json().details).toMatchObject({ lot: `Lot LB of ${code}: 1 unit picked and not yet packed` });
    for (let i = 0; i < 2; i++) expect((await packItem(carton.cartonId, code)).statusCode).toBe(200);
    const lines = await db().selectFrom('carton_line').select(['lot', 'quantity']).where('carton_id', '=', carton.cartonId).orderBy('lot').execute();
    expect(lines).toEqual([{ lot: 'LA', quantity: 1 }, { lot: 'LB', quantity: 2 }]);
  });

  it('UnpackItem takes units back out of an open carton', async () => {
    const o = await picked([{ quantity: 2 }]);
    const carton = await openCarton(o.orderId);
    expect((await packItem(carton.cartonId, await skuCode(o.skus[0]), { quantity: 2 })).statusCode).toBe(200);
    const res = await staff.post(`${P}/UnpackItem`, { cartonId: carton.cartonId, orderLineId: o.lineIds[0], quantity: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order.lines[0].packedQuantity).toBe(1);
    expect((await staff.post(`${P}/UnpackItem`, { cartonId: carton.cartonId, orderLineId: o.lineIds[0], quantity: 2 })).statusCode).toBe(422);
  });
});

describe('CloseCarton', () => {
  it('refuses a weight missing (400), at most the tare or over the maximum (422), and an empty carton, writing nothing', async () => {
    const o = await picked([{ quantity: 1 }]);
    const carton = await openCarton(o.orderId, capped);
    const empty = await staff.post(`${P}/CloseCarton`, { cartonId: carton.cartonId, weightKg: 0.5 });
    expect(empty.statusCode).toBe(422);
    expect((await packItem(carton.cartonId, await skuCode(o.skus[0]))).statusCode).toBe(200);
    const before = await footprint();
    expect((await staff.post(`${P}/CloseCarton`, { cartonId: carton.cartonId })).statusCode).toBe(400);
    const tare = await staff.post(`${P}/CloseCarton`, { cartonId: carton.cartonId, weightKg: 0.05 });
    expect(tare.statusCode).toBe(422);
    expect(tare.json().details).toMatchObject({ weightKg: 'More than the tare weight (0.05 kg)' });
    const over = await staff.post(`${P}/CloseCarton`, { cartonId: carton.cartonId, weightKg: 1.5 });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe('Carton ENV takes at most 1 kg; this one weighs 1.5 kg');
    const notStation = await staff.post(`${P}/CloseCarton`, { cartonId: carton.cartonId, weightKg: 0.5, locationId: bin });
    expect(notStation.statusCode).toBe(422);
    expect(await footprint()).toEqual(before);
  });

  it('moves the carton’s units from the tote to the pack station with their reservation; the order is Packed when every unit is in a closed carton', async () => {
    const o = await picked([{ quantity: 3 }, { quantity: 1 }]);
    const events = await recordEvents(t.app);
    const first = await openCarton(o.orderId);
    expect((await packItem(first.cartonId, await skuCode(o.skus[0]), { quantity: 2 })).statusCode).toBe(200);
    const closed = await staff.post(`${P}/CloseCarton`, { cartonId: first.cartonId, weightKg: 2.5 });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().message).toBe(`Carton ${first.cartonNumber} closed`);
    expect(closed.json().order.status).toBe('Picked');
    // The default station: the warehouse's first staging location.
    expect(await balance(o.skus[0], station)).toMatchObject({ on_hand: 2, allocated: 2 });
    expect(await balance(o.skus[0], o.toteId)).toMatchObject({ on_hand: 1, allocated: 1 });
    const cartonLine = (await db().selectFrom('carton_line').select('id').where('carton_id', '=', first.cartonId).executeTakeFirstOrThrow()).id;
    const ledger = await db().selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'location_id', 'document_line'])
      .where('document_type', '=', 'PACK').where('document_id', '=', first.cartonNumber).orderBy('qty_change').execute();
    expect(ledger).toEqual([
      { txn_type: 'pack_out', qty_change: -2, location_id: o.toteId, document_line: String(cartonLine) },
      { txn_type: 'pack_in', qty_change: 2, location_id: station, document_line: String(cartonLine) },
    ]);
    const reserved = await db().selectFrom('stock_reservation as r').innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
      .select(['b.location_id', 'r.quantity']).where('r.document_id', '=', o.soNumber).where('r.document_line', '=', String(o.lineIds[0])).where('r.quantity', '>', 0).orderBy('b.location_id').execute();
    expect(reserved.sort((a, b) => a.location_id - b.location_id)).toEqual([{ location_id: station, quantity: 2 }, { location_id: o.toteId, quantity: 1 }].sort((a, b) => a.location_id - b.location_id));
    const row = await db().selectFrom('carton').select(['status', 'weight_kg', 'location_id', 'closed_at']).where('id', '=', first.cartonId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'Closed', weight_kg: 2.5, location_id: station, closed_at: expect.any(String) });
    expect((await packItem(first.cartonId, await skuCode(o.skus[0]))).statusCode).toBe(409);

    // The rest into a second carton, waiting at the dock: the order is Packed.
    const second = await openCarton(o.orderId);
    expect((await packItem(second.cartonId, await skuCode(o.skus[0]))).statusCode).toBe(200);
    expect((await packItem(second.cartonId, await skuCode(o.skus[1]))).statusCode).toBe(200);
    const last = await staff.post(`${P}/CloseCarton`, { cartonId: second.cartonId, weightKg: 1.2, locationId: dock });
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().message).toBe(`Carton ${second.cartonNumber} closed: order ${o.soNumber} is Packed`);
    expect(await statusOf(o.orderId)).toBe('Packed');
    expect(await balance(o.skus[1], dock)).toMatchObject({ on_hand: 1, allocated: 1 });
    expect(await balance(o.skus[0], o.toteId)).toMatchObject({ on_hand: 0, allocated: 0 });
    expect(await ledgerBalanced(t, wh)).toBe(true);
    const kinds = await db().selectFrom('floor_event').select(['kind']).where('order_id', '=', o.orderId).where('kind', '=', 'close-carton').execute();
    expect(kinds).toHaveLength(2);
    expect(await heard(events, 'PackOrder')).toBe(true);
  });

  it('asks for a station when the warehouse has neither staging nor dock', async () => {
    const bare = await makeWarehouse(t.database);
    const c = await makeCustomer(t.database, [bare]);
    const code = `BARE-${++seq}`;
    const s = await makeSku(t.database, c, code);
    const b = await makeLocation(t.database, bare);
    await postStock(t, [{ place: { warehouseId: bare, customerId: c, skuId: s, locationId: b, lot: '', pallet: '' }, qty: 1 }]);
    const toteId = await makeLocation(t.database, bare, `BT-${++seq}`, 'tote');
    const o = await pickedOrder(t, { warehouseId: bare, customerId: c, toteId, lines: [{ skuId: s, quantity: 1 }] });
    const type = await manager.post(`${P}/SaveCartonType`, { warehouseId: bare, code: 'B', name: 'B', lengthCm: 1, widthCm: 1, heightCm: 1, tareWeightKg: 0 });
    expect(type.statusCode).toBe(403);
    const admin = as(t.app, await login(t.app, 'admin', 'bolx-test-admin'));
    const saved = await admin.post(`${P}/SaveCartonType`, { warehouseId: bare, code: 'B', name: 'B', lengthCm: 1, widthCm: 1, heightCm: 1, tareWeightKg: 0 });
    const carton = (await admin.post(`${P}/OpenCarton`, { orderId: o.orderId, cartonTypeId: saved.json().data.cartonTypeId })).json().order.cartons[0];
    expect((await admin.post(`${P}/PackItem`, { cartonId: carton.cartonId, code })).statusCode).toBe(200);
    const res = await admin.post(`${P}/CloseCarton`, { cartonId: carton.cartonId, weightKg: 1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ locationId: 'Choose a pack station location' });
  });
});
