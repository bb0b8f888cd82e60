import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { API_KEY_HEADER } from '@bolx/contracts';
import {
  ADMIN, as, buildTestApp, ledgerBalanced, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, multipartBody, postStock, type TestApp,
} from '../../../test/helpers.js';
import { packDirectly, pickedOrder, staffPrincipal } from '../../../test/support/picked-orders.js';
import { systemActor } from '../../platform/actor.js';

// Issue 15: returns and RMA — authorisations, receiving, inspection, dispositions, manual returns, the report.
let t: TestApp;
type Caller = ReturnType<typeof as>;
let admin: Caller, manager: Caller, staff: Caller, client: Caller, otherClient: Caller;
let wh: number, otherWh: number, cust: number, otherCust: number;
let bin: number, bin2: number, returnsLoc: number, quarantineLoc: number, workLoc: number, otherWhBin: number, otherWhReturns: number, station: number, cartonTypeId: number;
let seq = 0;

const R = '/Warehouse/RMA';
const RET = '/Warehouse/Returns';
const db = () => t.database.db;
const tag = () => `${++seq}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const place = (skuId: number, locationId: number, customerId = cust, lot = '') => ({ warehouseId: wh, customerId, skuId, locationId, lot, pallet: '' });
const balance = async (skuId: number, locationId: number) => {
  const b = await db().selectFrom('inventory_balance').select(['id', 'on_hand', 'allocated']).where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirst();
  return b ? { id: b.id, onHand: Number(b.on_hand), allocated: Number(b.allocated) } : { id: 0, onHand: 0, allocated: 0 };
};
const rowCount = async (table: 'rma' | 'rma_line' | 'return_item' | 'return_photo' | 'inventory_txn' | 'stored_file') =>
  Number((await db().selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
const rmaEvents = async () => Number((await db().selectFrom('floor_event').select(sql<number>`count(*)`.as('n')).where('kind', '=', 'rma').executeTakeFirstOrThrow()).n);
const orderStatus = async (id: number) => (await db().selectFrom('sales_order').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

/** A shipped order of the client: stock put in the bin, allocated, picked, packed and shipped through ship confirm. */
async function shipped(lines: { quantity: number; lot?: string; expiryDate?: string }[], customerId = cust) {
  const skus: number[] = [];
  for (const l of lines) {
    const s = await makeSku(t.database, customerId, `RT-${tag()}`, { lot: !!l.lot, expiry: !!l.expiryDate });
    await postStock(t, [{ place: place(s, bin, customerId, l.lot ?? ''), qty: l.quantity, expiryDate: l.expiryDate ?? null }]);
    skus.push(s);
  }
  const tote = await makeLocation(t.database, wh, `TT-${tag()}`, 'tote');
  const order = await pickedOrder(t, { warehouseId: wh, customerId, toteId: tote, lines: lines.map((l, i) => ({ skuId: skus[i], quantity: l.quantity, ...(l.lot ? { lot: l.lot } : {}) })) });
  await packDirectly(t, order, { cartonTypeId, stationId: station, perCarton: 10 });
  const res = await t.app.services.shipConfirm.confirm(staffPrincipal(), { warehouseId: wh, orderIds: [order.orderId] }, systemActor('test'));
  expect(res.data.shipped).toHaveLength(1);
  const orderLines = await db().selectFrom('sales_order_line').select(['id', 'sku_id']).where('order_id', '=', order.orderId).orderBy('line_no').execute();
  return { orderId: order.orderId, soNumber: order.soNumber, referenceNumber: order.referenceNumber, skus, lineIds: orderLines.map((l) => l.id) };
}

async function createRma(by: Caller, orderId: number, lines: { orderLineId: number; quantity: number; reason?: string }[], extra: Record<string, unknown> = {}) {
  return by.post(`${R}/CreateRma`, { orderId, resolution: 'refund', lines: lines.map((l) => ({ reason: 'damaged', ...l })), ...extra });
}
async function rmaOf(by: Caller, orderId: number, lines: { orderLineId: number; quantity: number; reason?: string }[]) {
  const res = await createRma(by, orderId, lines);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { rmaId: number; rmaNumber: string; status: string };
}
async function receive(by: Caller, rmaId: number, code: string, quantity = 1, extra: Record<string, unknown> = {}) {
  return by.post(`${RET}/ReceiveItem`, { rmaId, code, quantity, locationId: returnsLoc, ...extra });
}
async function received(rmaId: number, code: string, quantity = 1, extra: Record<string, unknown> = {}) {
  const res = await receive(manager, rmaId, code, quantity, extra);
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json().data.items as { itemId: number }[];
  return items.at(-1)!.itemId;
}
async function inspected(itemId: number, condition = 'opened') {
  const res = await manager.post(`${RET}/InspectItem`, { itemId, condition, notes: 'box torn' });
  expect(res.statusCode, res.body).toBe(200);
  return itemId;
}
const skuCode = async (skuId: number) => (await db().selectFrom('sku').select('sku_code').where('id', '=', skuId).executeTakeFirstOrThrow()).sku_code;
const rmaStatus = async (id: number) => (await db().selectFrom('rma').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  otherWh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh, otherWh]);
  otherCust = await makeCustomer(t.database, [wh]);
  await db().updateTable('customer').set({ allow_backorders: 1 }).where('id', 'in', [cust, otherCust]).execute();
  bin = await makeLocation(t.database, wh, `RB-${tag()}`);
  bin2 = await makeLocation(t.database, wh, `RB-${tag()}`);
  returnsLoc = await makeLocation(t.database, wh, `RET-${tag()}`, 'returns');
  quarantineLoc = await makeLocation(t.database, wh, `QUA-${tag()}`, 'quarantine');
  workLoc = await makeLocation(t.database, wh, `WRK-${tag()}`, 'staging');
  station = await makeLocation(t.database, wh, `PK-${tag()}`, 'staging');
  otherWhBin = await makeLocation(t.database, otherWh, `OB-${tag()}`);
  otherWhReturns = await makeLocation(t.database, otherWh, `ORET-${tag()}`, 'returns');
  const now = new Date().toISOString();
  cartonTypeId = (await db().insertInto('carton_type').values({
    warehouse_id: wh, code: `BOX-${tag()}`, name: 'Box', length_cm: 40, width_cm: 30, height_cm: 20, tare_weight_kg: 0.3, max_weight_kg: null, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const modules = { RMA: 'write', Returns: 'write', ManualReturns: 'write', Return: 'read', OrderDashboard: 'write' } as const;
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  const m = await makeUser(t.database, { role: 'WarehouseManager', warehouseIds: [wh, otherWh], customerIds: [cust, otherCust], modules });
  manager = as(t.app, await login(t.app, m.username, m.password));
  const s = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, otherCust], modules });
  staff = as(t.app, await login(t.app, s.username, s.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { RMA: 'write', Return: 'read' } });
  client = as(t.app, await login(t.app, c.username, c.password));
  const oc = await makeUser(t.database, { role: 'Client', customerId: otherCust, modules: { RMA: 'write', Return: 'read' } });
  otherClient = as(t.app, await login(t.app, oc.username, oc.password));
});
afterAll(async () => { await t?.close(); });

describe('RMAs', () => {
  it('staff, the client account and the client API create RMAs against a shipped order; the new RMA view finds what is returnable', async () => {
    const o = await shipped([{ quantity: 4 }, { quantity: 2 }]);
    const look = await client.get(`${R}/GetReturnableOrder?warehouseId=${wh}&customerId=${cust}&code=${o.soNumber}`);
    expect(look.statusCode, look.body).toBe(200);
    expect(look.json().lines.map((l: { shipped: number; returnable: number }) => [l.shipped, l.returnable])).toEqual([[4, 4], [2, 2]]);

    const byStaff = await createRma(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }], { trackingNumber: '1Z999' });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(byStaff.json().data).toMatchObject({ status: 'In Transit', units: 1, trackingNumber: '1Z999', createdVia: 'screen', soNumber: o.soNumber });
    expect(byStaff.json().data.rmaNumber).toMatch(/^RMA-\d{6}$/);

    const byClient = await createRma(client, o.orderId, [{ orderLineId: o.lineIds[1], quantity: 2, reason: 'wrong-item' }]);
    expect(byClient.statusCode, byClient.body).toBe(200);
    expect(byClient.json().data.status).toBe('Authorised');

    const key = await admin.post('/Warehouse/Customer/CreateApiKey', { customerId: cust, name: 'Shop' });
    expect(key.statusCode, key.body).toBe(200);
    const apiKey = key.json().data.apiKey as string;
    const byKey = await t.app.inject({
      method: 'POST', url: `${R}/CreateRma`, headers: { [API_KEY_HEADER]: apiKey },
      payload: { orderId: o.orderId, resolution: 'replace', lines: [{ orderLineId: o.lineIds[0], quantity: 2, reason: 'defective' }] },
    });
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().data).toMatchObject({ createdVia: 'api', resolution: 'replace' });
    // The key reads its own RMAs only through the routes open to keys.
    const listed = await t.app.inject({ method: 'POST', url: `${R}/GetRmas`, headers: { [API_KEY_HEADER]: apiKey }, payload: { filters: { orderId: o.orderId } } });
    expect(listed.json().totalCount).toBe(3);
    expect((await t.app.inject({ method: 'POST', url: `${RET}/ReceiveItem`, headers: { [API_KEY_HEADER]: apiKey }, payload: {} })).statusCode).toBe(403);

    const after = (await manager.get(`${R}/GetReturnableOrder?warehouseId=${wh}&customerId=${cust}&code=${o.referenceNumber}`)).json();
    expect(after.lines.map((l: { returnable: number }) => l.returnable)).toEqual([1, 0]);
    // The billing log has one rma event per RMA.
    const events = await db().selectFrom('floor_event').select(['kind', 'doc_type', 'quantity', 'detail']).where('order_id', '=', o.orderId).where('kind', '=', 'rma').execute();
    expect(events.map((e) => [e.doc_type, e.quantity, e.detail])).toEqual([['RMA', 1, 'screen'], ['RMA', 2, 'screen'], ['RMA', 2, 'api']]);
  });

  it('refuses more than shipped less already authorised, another customer’s order, an order not shipped — writing nothing', async () => {
    const o = await shipped([{ quantity: 3 }]);
    await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 2 }]);
    const before = [await rowCount('rma'), await rowCount('rma_line'), await rmaEvents()];
    const over = await createRma(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 2 }]);
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toContain('at most 1 unit can be returned (3 shipped, 2 already returned or authorised)');
    expect(over.json().details).toEqual({ 'lines.0.quantity': 'At most 1' });
    // Another customer's client account cannot see the order at all.
    expect((await createRma(otherClient, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }])).statusCode).toBe(404);
    // A line of another order.
    const other = await shipped([{ quantity: 1 }]);
    expect((await createRma(manager, o.orderId, [{ orderLineId: other.lineIds[0], quantity: 1 }])).statusCode).toBe(422);
    // An order not shipped yet.
    const s = await makeSku(t.database, cust, `RT-${tag()}`);
    const made = await manager.post('/Warehouse/Order/CreateOrder', { warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `NS-${tag()}`, orderDate: '2030-03-01', lines: [{ skuId: s, quantity: 1 }] });
    expect(made.statusCode, made.body).toBe(200);
    const line = await db().selectFrom('sales_order_line').select('id').where('order_id', '=', made.json().data.orderId).executeTakeFirstOrThrow();
    const notShipped = await createRma(manager, made.json().data.orderId, [{ orderLineId: line.id, quantity: 1 }]);
    expect(notShipped.statusCode).toBe(409);
    expect(notShipped.json().message).toContain('only shipped orders can be returned');
    // Bad input: a NUL byte, a quantity past the bound.
    expect((await createRma(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }], { notes: 'a\u0000b' })).statusCode).toBe(400);
    expect((await createRma(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 2 ** 31 }])).statusCode).toBe(400);
    expect([await rowCount('rma'), await rowCount('rma_line'), await rmaEvents()]).toEqual(before);
  });

  it('parallel RMAs for one order never authorise more than shipped', async () => {
    const o = await shipped([{ quantity: 5 }]);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      createRma(i % 2 ? client : manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }])));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 422)).toHaveLength(7);
    const total = await db().selectFrom('rma_line').select(sql<number>`sum(quantity)`.as('n')).where('order_line_id', '=', o.lineIds[0]).executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(5);
    // A cancelled RMA gives its units back to be authorised again.
    const one = (await manager.post(`${R}/GetRmas`, { filters: { orderId: o.orderId } })).json().items[0];
    expect((await client.post(`${R}/CancelRma`, { rmaId: one.rmaId, reason: 'Kept it' })).statusCode).toBe(200);
    expect((await createRma(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }])).statusCode).toBe(200);
  });

  it('status rules: tracking moves to In Transit, cancel only before goods arrive, expiry by the scheduled job, history kept', async () => {
    const o = await shipped([{ quantity: 3 }]);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    const tracked = await client.post(`${R}/SetTracking`, { rmaId: a.rmaId, trackingNumber: 'TRK-1' });
    expect(tracked.statusCode, tracked.body).toBe(200);
    expect(tracked.json().data.status).toBe('In Transit');
    // Found by its tracking number at the returns desk.
    const scan = await manager.post(`${RET}/ScanReturn`, { warehouseId: wh, code: 'TRK-1' });
    expect(scan.json().rmas.map((r: { rmaId: number }) => r.rmaId)).toEqual([a.rmaId]);
    await received(a.rmaId, await skuCode(o.skus[0]));
    expect(await rmaStatus(a.rmaId)).toBe('Received');
    const cancel = await manager.post(`${R}/CancelRma`, { rmaId: a.rmaId });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe('RMA is Received; it cannot become Cancelled');
    // Closing waits for every unit's disposition.
    expect((await manager.post(`${R}/CloseRma`, { rmaId: a.rmaId })).statusCode).toBe(409);

    const b = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    await db().updateTable('rma').set({ expires_on: '2020-01-01' }).where('id', '=', b.rmaId).execute();
    const c = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    expect(t.app.services.jobs.has('returns.expire-rmas')).toBe(true);
    const run = await t.app.services.returns.expireDue(new Date());
    expect(run.expired).toBeGreaterThanOrEqual(1);
    expect(await rmaStatus(b.rmaId)).toBe('Expired');
    expect(await rmaStatus(c.rmaId)).toBe('Authorised');
    const late = await receive(manager, b.rmaId, await skuCode(o.skus[0]));
    expect(late.statusCode).toBe(409);
    const detail = (await client.get(`${R}/GetRma?rmaId=${b.rmaId}`)).json();
    expect(detail.history).toMatchObject([{ from: 'Authorised', to: 'Expired', reason: 'Not returned by 2020-01-01' }]);
    // An expired RMA's units may be authorised again.
    expect((await manager.get(`${R}/GetReturnableOrder?warehouseId=${wh}&customerId=${cust}&code=${o.soNumber}`)).json().lines[0].returnable).toBe(1);
    // Another customer's client sees none of it.
    expect((await otherClient.get(`${R}/GetRma?rmaId=${b.rmaId}`)).statusCode).toBe(404);
    expect((await otherClient.post(`${R}/GetRmas`, { filters: { customerId: cust } })).statusCode).toBe(403);
    expect((await otherClient.post(`${R}/GetRmas`, {})).json().items.every((r: { customerId: number }) => r.customerId === otherCust)).toBe(true);
    const audit = await db().selectFrom('audit_log').select('action').where('entity', '=', 'rma').where('entity_id', '=', String(b.rmaId)).orderBy('id').execute();
    expect(audit.map((x) => x.action)).toEqual(['create', 'expire']);
  });
});

describe('receiving, inspection and dispositions', () => {
  it('receives a scanned item into a returns location (ledger return, not allocatable); refuses other warehouses’ and storage locations', async () => {
    const o = await shipped([{ quantity: 2 }]);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 2 }]);
    const code = await skuCode(o.skus[0]);
    const ledger = await rowCount('inventory_txn');
    const elsewhere = await receive(manager, a.rmaId, code, 1, { locationId: otherWhReturns });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().details).toEqual({ locationId: 'A location of this warehouse' });
    expect((await receive(manager, a.rmaId, code, 1, { locationId: bin })).statusCode).toBe(422);
    expect((await receive(manager, a.rmaId, 'NO-SUCH-ITEM')).statusCode).toBe(422);
    expect(await rowCount('inventory_txn')).toBe(ledger);
    expect(await rowCount('return_item')).toBe(await rowCount('return_item'));

    const res = await receive(staff, a.rmaId, code, 1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Received', receivedUnits: 1, lines: [{ receivedQuantity: 1 }], items: [{ status: 'Received', quantity: 1 }] });
    expect(await balance(o.skus[0], returnsLoc)).toMatchObject({ onHand: 1 });
    const txn = await db().selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'document_type', 'document_id']).where('sku_id', '=', o.skus[0]).where('location_id', '=', returnsLoc).execute();
    expect(txn).toEqual([{ txn_type: 'return', qty_change: 1, document_type: 'RMA', document_id: a.rmaNumber }]);
    // Waiting for inspection, the unit is never allocated: an order for it stays Backordered.
    const waiting = await manager.post('/Warehouse/Order/CreateOrder', { warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `W-${tag()}`, orderDate: '2030-03-01', lines: [{ skuId: o.skus[0], quantity: 1 }] });
    await manager.post('/Warehouse/Order/AllocateOrders', { orderIds: [waiting.json().data.orderId] });
    expect(await orderStatus(waiting.json().data.orderId)).toBe('Backordered');
    expect(await ledgerBalanced(t, wh)).toBe(true);
  });

  it('over-receipt is refused unless a manager approves, and never passes what shipped', async () => {
    const o = await shipped([{ quantity: 3 }]);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    const code = await skuCode(o.skus[0]);
    await received(a.rmaId, code);
    const items = await rowCount('return_item');
    const over = await receive(staff, a.rmaId, code);
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toContain('over-receipt a manager must approve');
    expect((await receive(staff, a.rmaId, code, 1, { approveOverReceipt: true })).statusCode).toBe(403);
    expect(await rowCount('return_item')).toBe(items);
    const approved = await receive(manager, a.rmaId, code, 1, { approveOverReceipt: true });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.lines[0]).toMatchObject({ quantity: 1, receivedQuantity: 2 });
    const beyond = await receive(manager, a.rmaId, code, 2, { approveOverReceipt: true });
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json().message).toContain('only 3 units shipped on this order line');
    expect(await rowCount('return_item')).toBe(items + 1);
  });

  it('photos: an image up to 10 MB is kept; anything else is refused and nothing written', async () => {
    const o = await shipped([{ quantity: 1 }]);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    const itemId = await received(a.rmaId, await skuCode(o.skus[0]));
    const upload = (name: string, bytes: Buffer, who = manager) => {
      const body = multipartBody({ itemId }, { name, bytes, type: 'image/png' });
      return who.post(`${RET}/AddItemPhoto`, body.payload, body.headers);
    };
    const [photos, files] = [await rowCount('return_photo'), await rowCount('stored_file')];
    const text = await upload('damage.png', Buffer.from('not an image at all'));
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toContain('Only PNG, JPEG files are allowed');
    const big = await upload('big.png', Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]));
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toBe('The file is larger than 10 MB');
    expect([await rowCount('return_photo'), await rowCount('stored_file')]).toEqual([photos, files]);
    const ok = await upload('damage.png', PNG);
    expect(ok.statusCode, ok.body).toBe(200);
    const photo = ok.json().data.photos[0];
    expect(photo.fileName).toBe('damage.png');
    const got = await manager.get(`${RET}/GetItemPhoto?photoId=${photo.photoId}`);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    // The client sees its own item's photo (the RMA view's thumbnails); another client never does.
    const own = await client.get(`${R}/GetItemPhoto?photoId=${photo.photoId}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.rawPayload.equals(PNG)).toBe(true);
    expect((await otherClient.get(`${R}/GetItemPhoto?photoId=${photo.photoId}`)).statusCode).toBe(404);
    expect((await otherClient.get(`${R}/GetItemPhoto?photoId=999999`)).statusCode).toBe(404);
  });

  it('each disposition’s ledger effect and availability; restock fills a waiting backorder; the RMA closes when all is disposed', async () => {
    const o = await shipped([{ quantity: 4 }]);
    const s = o.skus[0];
    const code = await skuCode(s);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 4 }]);
    const items = [];
    for (let i = 0; i < 4; i++) items.push(await inspected(await received(a.rmaId, code), i === 0 ? 'new' : 'damaged'));
    expect(await rmaStatus(a.rmaId)).toBe('Inspected');
    expect(await balance(s, returnsLoc)).toMatchObject({ onHand: 4 });

    // An order waits for the SKU (none free).
    const waiting = await manager.post('/Warehouse/Order/CreateOrder', { warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `BO-${tag()}`, orderDate: '2030-03-01', lines: [{ skuId: s, quantity: 1 }] });
    const waitingId = waiting.json().data.orderId as number;
    await manager.post('/Warehouse/Order/AllocateOrders', { orderIds: [waitingId] });
    expect(await orderStatus(waitingId)).toBe('Backordered');

    // Bad targets: another warehouse, a location of the wrong kind; no reason to dispose; not inspected first.
    const ledger = await rowCount('inventory_txn');
    const far = await manager.post(`${RET}/DisposeItem`, { itemId: items[0], disposition: 'restock', locationId: otherWhBin });
    expect(far.statusCode).toBe(422);
    expect(far.json().message).toContain('is in another warehouse');
    expect((await manager.post(`${RET}/DisposeItem`, { itemId: items[1], disposition: 'quarantine', locationId: bin2 })).statusCode).toBe(422);
    expect((await manager.post(`${RET}/DisposeItem`, { itemId: items[1], disposition: 'restock', locationId: quarantineLoc })).statusCode).toBe(422);
    const noReason = await manager.post(`${RET}/DisposeItem`, { itemId: items[3], disposition: 'dispose' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toEqual({ reason: 'Please give a reason for disposing' });
    expect(await rowCount('inventory_txn')).toBe(ledger);

    await t.app.services.jobs.start({ pollMs: 20, lockMs: 5000, concurrency: 1 });
    try {
      const restock = await manager.post(`${RET}/DisposeItem`, { itemId: items[0], disposition: 'restock', locationId: bin2 });
      expect(restock.statusCode, restock.body).toBe(200);
      expect(restock.json().data).toMatchObject({ status: 'Disposed', disposition: 'restock' });
      const deadline = Date.now() + 10_000;
      while ((await orderStatus(waitingId)) !== 'Allocated' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await t.app.services.jobs.stop();
    }
    // Restocked: at the bin, and taken by the waiting order.
    expect(await balance(s, bin2)).toMatchObject({ onHand: 1, allocated: 1 });
    expect(await orderStatus(waitingId)).toBe('Allocated');
    expect((await manager.post(`${RET}/DisposeItem`, { itemId: items[0], disposition: 'dispose', reason: 'again' })).statusCode).toBe(409);

    const quarantine = await manager.post(`${RET}/DisposeItem`, { itemId: items[1], disposition: 'quarantine', locationId: quarantineLoc });
    expect(quarantine.statusCode, quarantine.body).toBe(200);
    const q = await balance(s, quarantineLoc);
    expect(q.onHand).toBe(1);
    const hold = await db().selectFrom('stock_hold').select(['hold_type', 'document_id', 'is_open']).where('balance_id', '=', q.id).execute();
    expect(hold).toEqual([{ hold_type: 'QUARANTINE', document_id: a.rmaNumber, is_open: 1 }]);

    const refurbish = await manager.post(`${RET}/DisposeItem`, { itemId: items[2], disposition: 'refurbish', locationId: workLoc });
    expect(refurbish.statusCode, refurbish.body).toBe(200);
    const w = await balance(s, workLoc);
    expect(w.onHand).toBe(1);
    expect((await db().selectFrom('stock_hold').select('hold_type').where('balance_id', '=', w.id).executeTakeFirstOrThrow()).hold_type).toBe('INSPECTION');

    // Neither quarantined nor refurbishing units are allocated: a second waiting order stays Backordered.
    const second = await manager.post('/Warehouse/Order/CreateOrder', { warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `BO-${tag()}`, orderDate: '2030-03-01', lines: [{ skuId: s, quantity: 1 }] });
    await manager.post('/Warehouse/Order/AllocateOrders', { orderIds: [second.json().data.orderId] });
    expect(await orderStatus(second.json().data.orderId)).toBe('Backordered');

    const dispose = await manager.post(`${RET}/DisposeItem`, { itemId: items[3], disposition: 'dispose', reason: 'Crushed' });
    expect(dispose.statusCode, dispose.body).toBe(200);
    expect(await balance(s, returnsLoc)).toMatchObject({ onHand: 0 });
    const out = await db().selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'reason']).where('sku_id', '=', s).where('txn_type', '=', 'dispose').execute();
    expect(out).toEqual([{ txn_type: 'dispose', qty_change: -1, reason: 'Disposed: Crushed' }]);
    const moves = await db().selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'location_id']).where('sku_id', '=', s).where('document_id', '=', a.rmaNumber).orderBy('id').execute();
    expect(moves.filter((m) => m.location_id !== returnsLoc).map((m) => [m.txn_type, m.qty_change])).toEqual([['return', 1], ['return', 1], ['return', 1]]);

    expect(await rmaStatus(a.rmaId)).toBe('Closed');
    // Scanned again at the desk, the closed RMA opens (read-only) with why nothing is left to receive.
    const again = await manager.post(`${RET}/ScanReturn`, { warehouseId: wh, code: a.rmaNumber });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ rmas: [{ rmaId: a.rmaId, status: 'Closed' }], message: `${a.rmaNumber} is Closed: nothing is left to receive on it` });
    expect((await receive(manager, a.rmaId, code)).statusCode).toBe(409);
    const none = await manager.post(`${RET}/ScanReturn`, { warehouseId: wh, code: 'RMA-NO-SUCH' });
    expect(none.statusCode).toBe(404);
    // Another warehouse's desk does not find it.
    expect((await manager.post(`${RET}/ScanReturn`, { warehouseId: otherWh, code: a.rmaNumber })).statusCode).toBe(404);
    const kinds = await db().selectFrom('floor_event').select(['kind', 'detail']).where('doc_type', '=', 'RMA').where('doc_id', '=', a.rmaId).orderBy('id').execute();
    expect(kinds.filter((k) => k.kind === 'return-receive')).toHaveLength(4);
    expect(kinds.filter((k) => k.kind === 'return-inspect')).toHaveLength(4);
    expect(kinds.filter((k) => k.kind === 'return-dispose').map((k) => k.detail)).toEqual(['restock', 'quarantine', 'refurbish', 'dispose']);
    expect(await ledgerBalanced(t, wh)).toBe(true);
  });

  it('refuses to restock an expired lot (quarantine takes it)', async () => {
    const o = await shipped([{ quantity: 1, lot: 'L-OLD', expiryDate: '2031-01-01' }]);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    const itemId = await inspected(await received(a.rmaId, await skuCode(o.skus[0]), 1, { lot: 'L-OLD', expiryDate: '2020-06-30' }));
    const ledger = await rowCount('inventory_txn');
    const res = await manager.post(`${RET}/DisposeItem`, { itemId, disposition: 'restock', locationId: bin2 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('expired on 2020-06-30: it cannot be restocked');
    expect(await rowCount('inventory_txn')).toBe(ledger);
    expect((await db().selectFrom('return_item').select('disposition').where('id', '=', itemId).executeTakeFirstOrThrow()).disposition).toBeNull();
    expect((await manager.post(`${RET}/DisposeItem`, { itemId, disposition: 'quarantine', locationId: quarantineLoc })).statusCode).toBe(200);
  });
});

describe('manual returns', () => {
  it('a parcel without an RMA: found by scan, received, linked to its order later (within what shipped), disposed of', async () => {
    const o = await shipped([{ quantity: 2 }]);
    const code = await skuCode(o.skus[0]);
    const places = async (purpose: string) => (await manager.get(`${RET}/GetReturnLocations?warehouseId=${wh}&purpose=${purpose}`)).json().map((l: { locationId: number }) => l.locationId);
    expect(await places('receive')).toContain(returnsLoc);
    expect(await places('restock')).toEqual(expect.arrayContaining([bin, bin2]));
    expect(await places('restock')).not.toContain(returnsLoc);
    expect(await places('quarantine')).toEqual([quarantineLoc]);
    expect(await places('refurbish')).toContain(workLoc);
    const found = await manager.get(`${RET}/FindSku?warehouseId=${wh}&code=${code}`);
    expect(found.json()).toEqual([expect.objectContaining({ skuId: o.skus[0], customerId: cust })]);
    const wrongClient = await manager.post(`${RET}/ReceiveManual`, { warehouseId: wh, customerId: otherCust, skuId: o.skus[0], quantity: 1, locationId: returnsLoc });
    expect(wrongClient.statusCode).toBe(422);
    const body = { warehouseId: wh, customerId: cust, skuId: o.skus[0], quantity: 2, locationId: returnsLoc, reason: 'no-longer-needed' };
    const key = { 'Idempotency-Key': `manual-${tag()}` };
    const res = await manager.post(`${RET}/ReceiveManual`, body, key);
    expect(res.statusCode, res.body).toBe(200);
    // A replay (a double submit) answers the first receipt and receives nothing more.
    const items = await rowCount('return_item');
    expect((await manager.post(`${RET}/ReceiveManual`, body, key)).json().data.itemId).toBe(res.json().data.itemId);
    expect(await rowCount('return_item')).toBe(items);
    const item = res.json().data;
    expect(item).toMatchObject({ rmaId: null, orderId: null, quantity: 2, status: 'Received' });
    expect(item.returnNumber).toBe(`RET-${item.itemId}`);
    const txn = await db().selectFrom('inventory_txn').select(['txn_type', 'document_type']).where('document_id', '=', item.returnNumber).execute();
    expect(txn).toEqual([{ txn_type: 'return', document_type: 'RETURN' }]);

    // An RMA holds one of the two shipped: linking a 2-unit parcel would pass what shipped.
    await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 1 }]);
    const tooMany = await manager.post(`${RET}/LinkOrder`, { itemId: item.itemId, orderId: o.orderId });
    expect(tooMany.statusCode).toBe(422);
    const other = await shipped([{ quantity: 1 }], otherCust);
    expect((await manager.post(`${RET}/LinkOrder`, { itemId: item.itemId, orderId: other.orderId })).statusCode).toBe(422);
    const mine = await shipped([{ quantity: 3 }]);
    // Same SKU on a second order of the client: put its SKU on the parcel's order instead.
    await db().updateTable('sales_order_line').set({ sku_id: o.skus[0] }).where('id', '=', mine.lineIds[0]).execute();
    const linked = await manager.post(`${RET}/LinkOrder`, { itemId: item.itemId, orderNumber: mine.soNumber });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data.soNumber).toBe(mine.soNumber);
    expect((await manager.post(`${RET}/GetManualReturns`, { filters: { warehouseId: wh } })).json().items.map((i: { itemId: number }) => i.itemId)).toContain(item.itemId);
    await inspected(item.itemId);
    expect((await manager.post(`${RET}/DisposeItem`, { itemId: item.itemId, disposition: 'restock', locationId: bin2 })).statusCode).toBe(200);
    const events = await db().selectFrom('floor_event').select('kind').where('doc_type', '=', 'RETURN').where('doc_id', '=', item.itemId).orderBy('id').execute();
    expect(events.map((e) => e.kind)).toEqual(['return-receive', 'return-inspect', 'return-dispose']);
  });
});

describe('/Return report', () => {
  it('units by reason and disposition, return rate per SKU, per client and period; Excel; a client sees its own only', async () => {
    const report = async (by: Caller, body: Record<string, unknown>) => by.post(`${RET}/GetReturnsReport`, body);
    const today = new Date().toISOString().slice(0, 10);
    const o = await shipped([{ quantity: 4 }]);
    const a = await rmaOf(manager, o.orderId, [{ orderLineId: o.lineIds[0], quantity: 2, reason: 'defective' }]);
    const code = await skuCode(o.skus[0]);
    const first = await inspected(await received(a.rmaId, code));
    await received(a.rmaId, code);
    expect((await manager.post(`${RET}/DisposeItem`, { itemId: first, disposition: 'dispose', reason: 'Broken' })).statusCode).toBe(200);
    const theirs = await shipped([{ quantity: 1 }], otherCust);
    const b = await rmaOf(otherClient, theirs.orderId, [{ orderLineId: theirs.lineIds[0], quantity: 1 }]);
    await received(b.rmaId, await skuCode(theirs.skus[0]));

    const res = await report(manager, { warehouseId: wh, customerId: cust, from: today, to: today });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    const sku = r.bySku.find((x: { skuId: number }) => x.skuId === o.skus[0]);
    expect(sku).toMatchObject({ returned: 2, shipped: 4, rate: 0.5 });
    expect(r.byReason.find((x: { reason: string }) => x.reason === 'defective').units).toBeGreaterThanOrEqual(2);
    expect(r.byDisposition.find((x: { disposition: string }) => x.disposition === 'dispose').units).toBeGreaterThanOrEqual(1);
    expect(r.byClient.map((c: { customerId: number }) => c.customerId)).toEqual([cust]);
    expect(r.byDay.filter((d: { day: string }) => d.day === today).reduce((sum: number, d: { units: number }) => sum + d.units, 0)).toBe(r.totals.units);

    const own = (await report(client, { from: today, to: today })).json();
    expect(own.byClient.map((c: { customerId: number }) => c.customerId)).toEqual([cust]);
    expect(own.bySku.some((x: { skuId: number }) => x.skuId === theirs.skus[0])).toBe(false);
    expect((await report(client, { customerId: otherCust, from: today, to: today })).statusCode).toBe(403);
    expect((await report(manager, { from: '2030-02-01', to: '2030-01-01' })).statusCode).toBe(400);
    const empty = (await report(manager, { warehouseId: wh, from: '2001-01-01', to: '2001-01-31' })).json();
    expect(empty.totals.units).toBe(0);

    const xlsx = await manager.post(`${RET}/DownloadReturnsReport`, { warehouseId: wh, from: today, to: today });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
