import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp,
} from '../../../test/helpers.js';
import { systemActor } from '../../platform/actor.js';
import { inTransaction } from '../../platform/unit-of-work.js';

let t: TestApp;
let staff: ReturnType<typeof as>;
let client: ReturnType<typeof as>;
let otherClient: ReturnType<typeof as>;
let wh: number, cust: number, cust2: number;
let kit: number, compA: number, compB: number, plain: number, emptyKit: number;
let pick1: number, pick2: number, bulk: number, kitLoc: number;

const actor = { ...systemActor('kits test'), userId: null };
const today = new Date().toISOString().slice(0, 10);

/** Stock put in through the engine, as an adjustment would. */
async function put(skuId: number, locationId: number, qty: number, lot = '', expiryDate: string | null = null) {
  await inTransaction(t.database.db, (uow) => t.app.services.stock.post(uow, {
    documentType: 'ADJUSTMENT', reason: 'test stock', legs: [{ place: { warehouseId: wh, customerId: cust, skuId, locationId, lot, pallet: '' }, qty, txnType: 'adjust', expiryDate }],
    record: { after: {} },
  }, actor));
}
const balance = (skuId: number, locationId: number, lot = '') =>
  t.database.db.selectFrom('inventory_balance').select(['on_hand', 'allocated']).where('sku_id', '=', skuId).where('location_id', '=', locationId)
    .where('lot', '=', lot).executeTakeFirst().then((r) => r ?? { on_hand: 0, allocated: 0 });
const reconcile = async () => (await as(t.app, await login(t.app, ADMIN.username, ADMIN.password)).get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json();
const ledgerCount = async () => Number((await t.database.db.selectFrom('inventory_txn').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const availability = async () => (await staff.post('/Warehouse/Kit/GetKitAvailability', { filters: { warehouseId: wh, customerId: cust } })).json().items;
const create = (over: Record<string, unknown> = {}) =>
  staff.post('/Warehouse/Kit/CreateWorkOrder', { warehouseId: wh, customerId: cust, type: 'Build', kitSkuId: kit, quantity: 2, locationId: kitLoc, ...over });

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  cust2 = await makeCustomer(t.database, [wh]);
  [kit, compA, compB, plain, emptyKit] = [await makeSku(t.database, cust), await makeSku(t.database, cust), await makeSku(t.database, cust), await makeSku(t.database, cust), await makeSku(t.database, cust)];
  await db.updateTable('sku').set({ is_kit: 1 }).where('id', 'in', [kit, emptyKit]).execute();
  await db.updateTable('sku').set({ is_lot_tracked: 1, is_expiry_tracked: 1 }).where('id', 'in', [compA, compB]).execute();
  const at = new Date().toISOString();
  await db.insertInto('kit_component').values([
    { customer_id: cust, kit_sku_id: kit, component_sku_id: compA, quantity: 2, created_at: at, updated_at: at },
    { customer_id: cust, kit_sku_id: kit, component_sku_id: compB, quantity: 1, created_at: at, updated_at: at },
  ]).execute();
  [pick1, pick2, bulk, kitLoc] = [await makeLocation(t.database, wh), await makeLocation(t.database, wh), await makeLocation(t.database, wh), await makeLocation(t.database, wh)];
  await db.updateTable('location').set({ is_pickable: 0 }).where('id', '=', bulk).execute();
  await put(compA, pick1, 10, 'L1', '2099-01-01');
  await put(compA, pick2, 5, 'OLD', '2020-01-01'); // expired: never counted
  await put(compA, bulk, 50, 'L1', '2099-01-01'); // not pickable: never counted
  await put(compB, pick1, 3);
  await put(compB, pick2, 4);
  // pick2 is being counted: its B is held.
  await db.insertInto('stock_hold').values({ warehouse_id: wh, customer_id: null, location_id: pick2, balance_id: null, hold_type: 'CYCLE_COUNT', document_id: 'CC-T', placed_by: null, placed_at: at }).execute();

  const s = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust, cust2], modules: { KitDashboard: 'write', OrderDashboard: 'write' } });
  staff = as(t.app, await login(t.app, s.username, s.password));
  const c = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { KitDashboard: 'read' } });
  client = as(t.app, await login(t.app, c.username, c.password));
  const c2 = await makeUser(t.database, { role: 'Client', customerId: cust2, modules: { KitDashboard: 'read' } });
  otherClient = as(t.app, await login(t.app, c2.username, c2.password));
});
afterAll(async () => { await t?.close(); });

describe('kit availability', () => {
  it('is the scarcest component’s free stock over its quantity per kit; expired, held and bulk stock are not counted', async () => {
    const [row] = await availability();
    expect(row).toMatchObject({ kitSkuId: kit, onHand: 0, free: 0 });
    // A: 10 free in pick faces (the expired lot and the bulk pallet left out) → 5 kits; B: 3 free (pick2's is held) → 3 kits.
    expect(row.components).toEqual(expect.arrayContaining([
      expect.objectContaining({ skuId: compA, perKit: 2, free: 10, buildable: 5 }),
      expect.objectContaining({ skuId: compB, perKit: 1, free: 3, buildable: 3 }),
    ]));
    expect(row.buildable).toBe(3);
    expect(row.limitingComponent).toMatchObject({ skuId: compB, buildable: 3 });
    // A kit without components is no kit to build.
    expect((await availability()).some((r: { kitSkuId: number }) => r.kitSkuId === emptyKit)).toBe(false);
    // The count ends: pick2's B is free again.
    await t.database.db.updateTable('stock_hold').set({ is_open: 0 }).where('document_id', '=', 'CC-T').execute();
    expect((await availability())[0].components).toEqual(expect.arrayContaining([expect.objectContaining({ skuId: compB, free: 7 })]));
  });
});

describe('build and unbuild', () => {
  let built: number;

  it('a Build reserves its components when it is made, FEFO from pickable stock', async () => {
    const res = await create();
    expect(res.statusCode, res.body).toBe(200);
    const wo = res.json().data;
    built = wo.workOrderId;
    expect(wo).toMatchObject({ woNumber: expect.stringMatching(/^WO-\d{6}$/), status: 'Open', type: 'Build', quantity: 2, shortQuantity: 0 });
    expect(wo.components).toEqual(expect.arrayContaining([
      expect.objectContaining({ skuId: compA, quantity: 4, reserved: 4, short: 0 }),
      expect.objectContaining({ skuId: compB, quantity: 2, reserved: 2, short: 0 }),
    ]));
    expect(await balance(compA, pick1, 'L1')).toEqual({ on_hand: 10, allocated: 4 });
    expect(await balance(compA, bulk, 'L1')).toEqual({ on_hand: 50, allocated: 0 });
    expect(await balance(compB, pick1)).toEqual({ on_hand: 3, allocated: 2 });
    // What it reserved is no longer free to build with: A 6 → 3 kits, B 5 → 5.
    expect((await availability())[0]).toMatchObject({ buildable: 3, limitingComponent: { skuId: compA } });
  });

  it('completing consumes the components and produces the kits in one posting, balanced', async () => {
    const before = await ledgerCount();
    const res = await staff.post('/Warehouse/Kit/CompleteWorkOrder', { workOrderId: built });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Completed', completedBy: expect.any(String) });
    const rows = await t.database.db.selectFrom('inventory_txn').select(['sku_id', 'location_id', 'qty_change', 'txn_type', 'document_id'])
      .where('document_type', '=', 'WO').orderBy('sku_id').execute();
    expect(rows).toEqual([
      { sku_id: kit, location_id: kitLoc, qty_change: 2, txn_type: 'kit_produce', document_id: res.json().data.woNumber },
      { sku_id: compA, location_id: pick1, qty_change: -4, txn_type: 'kit_consume', document_id: res.json().data.woNumber },
      { sku_id: compB, location_id: pick1, qty_change: -2, txn_type: 'kit_consume', document_id: res.json().data.woNumber },
    ].sort((a, b) => a.sku_id - b.sku_id));
    expect(await ledgerCount()).toBe(before + 3);
    expect(await balance(compA, pick1, 'L1')).toEqual({ on_hand: 6, allocated: 0 });
    expect(await balance(compB, pick1)).toEqual({ on_hand: 1, allocated: 0 });
    expect(await balance(kit, kitLoc)).toEqual({ on_hand: 2, allocated: 0 });
    expect((await reconcile()).balanced).toBe(true);
    const [row] = await availability();
    expect(row).toMatchObject({ onHand: 2, free: 2, buildable: 3 });
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'kit_work_order').where('entity_id', '=', String(built)).execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'complete']);
    // Kitting is labour: one activity-log step for the work order, by whoever completed it.
    expect(await t.database.db.selectFrom('floor_event').select(['kind', 'customer_id', 'sku_id', 'location_id', 'quantity', 'detail'])
      .where('doc_type', '=', 'KIT_WO').where('doc_id', '=', built).execute())
      .toEqual([{ kind: 'kit-build', customer_id: cust, sku_id: kit, location_id: kitLoc, quantity: 2, detail: 'Build' }]);
  });

  it('an illegal move answers 409 and changes nothing', async () => {
    const again = await staff.post('/Warehouse/Kit/CompleteWorkOrder', { workOrderId: built });
    expect(again.statusCode).toBe(409);
    const cancel = await staff.post('/Warehouse/Kit/CancelWorkOrder', { workOrderId: built });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe('This work order is already completed');
    expect(await balance(kit, kitLoc)).toEqual({ on_hand: 2, allocated: 0 });
  });

  it('an Unbuild takes the kits apart into their components; more kits than are built is refused', async () => {
    const over = await create({ type: 'Unbuild', quantity: 5 });
    expect(over.statusCode).toBe(200); // an Unbuild reserves nothing; it is checked when completed
    const refused = await staff.post('/Warehouse/Kit/CompleteWorkOrder', { workOrderId: over.json().data.workOrderId });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('Not enough built kits');
    await staff.post('/Warehouse/Kit/CancelWorkOrder', { workOrderId: over.json().data.workOrderId });

    const un = (await create({ type: 'Unbuild', quantity: 1, componentLocationId: pick1 })).json().data;
    const done = await staff.post('/Warehouse/Kit/CompleteWorkOrder', { workOrderId: un.workOrderId });
    expect(done.statusCode, done.body).toBe(200);
    expect(await balance(kit, kitLoc)).toEqual({ on_hand: 1, allocated: 0 });
    expect(await balance(compA, pick1)).toEqual({ on_hand: 2, allocated: 0 });
    expect(await balance(compB, pick1)).toEqual({ on_hand: 2, allocated: 0 });
    expect((await reconcile()).balanced).toBe(true);
  });
});

describe('shortages', () => {
  let shortWo: number;

  it('a Build with too few components is made, showing what is missing; completing it is refused and writes nothing', async () => {
    // Free now: A 6 (L1) + 2 (given back) = 8 → 4 kits; B 1 + 2 + 4 = 7. Five kits need 10 A and 5 B.
    const res = await create({ quantity: 5 });
    expect(res.statusCode).toBe(200);
    const wo = res.json().data;
    shortWo = wo.workOrderId;
    expect(wo.components).toEqual(expect.arrayContaining([
      expect.objectContaining({ skuId: compA, quantity: 10, reserved: 8, short: 2 }),
      expect.objectContaining({ skuId: compB, quantity: 5, reserved: 5, short: 0 }),
    ]));
    expect(wo.shortQuantity).toBe(2);
    expect(res.json().message).toContain('is short by 2');

    const before = { ledger: await ledgerCount(), a: await balance(compA, pick1, 'L1'), b: await balance(compB, pick2), kit: await balance(kit, kitLoc) };
    const done = await staff.post('/Warehouse/Kit/CompleteWorkOrder', { workOrderId: shortWo });
    expect(done.statusCode).toBe(422);
    const { sku_code: codeA } = await t.database.db.selectFrom('sku').select('sku_code').where('id', '=', compA).executeTakeFirstOrThrow();
    expect(done.json().message).toBe(`Not enough components to build 5 kits: ${codeA} is short by 2`);
    expect(done.json().details).toEqual({ [`components.${codeA}`]: '2 missing' });
    expect(await ledgerCount()).toBe(before.ledger);
    expect(await balance(compA, pick1, 'L1')).toEqual(before.a);
    expect(await balance(compB, pick2)).toEqual(before.b);
    expect(before.a.allocated).toBe(6);
    expect(await balance(kit, kitLoc)).toEqual(before.kit);
    const after = (await staff.get(`/Warehouse/Kit/GetWorkOrder?workOrderId=${shortWo}`)).json();
    expect(after).toMatchObject({ status: 'Open', shortQuantity: 2 });
    // The dashboard's list shows it with its shortages, by status.
    const list = (await staff.post('/Warehouse/Kit/GetWorkOrders', { filters: { warehouseId: wh, status: 'Open' } })).json();
    expect(list.items.map((i: { workOrderId: number }) => i.workOrderId)).toEqual([shortWo]);
    expect(list.items[0].shortQuantity).toBe(2);
  });

  it('cancelling releases every reservation it held', async () => {
    const res = await staff.post('/Warehouse/Kit/CancelWorkOrder', { workOrderId: shortWo, reason: 'not needed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toContain('13 reserved units released');
    expect(await balance(compA, pick1, 'L1')).toEqual({ on_hand: 6, allocated: 0 });
    expect(await balance(compB, pick2)).toEqual({ on_hand: 4, allocated: 0 });
    const rec = await reconcile();
    expect(rec.balanced).toBe(true);
    expect(rec.reservations.balanced).toBe(true);
    const history = (await staff.get(`/Warehouse/Kit/GetWorkOrder?workOrderId=${shortWo}`)).json().history;
    expect(history).toEqual([expect.objectContaining({ fromStatus: 'Open', toStatus: 'Cancelled', reason: 'not needed' })]);
  });
});

describe('bad input and access', () => {
  it('refuses bad input with a 4xx naming the field, writing nothing', async () => {
    const before = Number((await t.database.db.selectFrom('kit_work_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect((await create({ quantity: 0 })).statusCode).toBe(400);
    expect((await create({ quantity: 2 ** 31 })).statusCode).toBe(400);
    const notKit = await create({ kitSkuId: plain });
    expect(notKit.statusCode).toBe(422);
    expect(notKit.json().details).toHaveProperty('kitSkuId');
    const empty = await create({ kitSkuId: emptyKit });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toMatch(/has no components/);
    expect((await create({ locationId: 99999 })).statusCode).toBe(404);
    expect((await create({ type: 'Repack' })).statusCode).toBe(400);
    const after = Number((await t.database.db.selectFrom('kit_work_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });

  it('a client account reads its own customer’s kits and work orders, never another’s, and writes nothing', async () => {
    const mine = (await client.post('/Warehouse/Kit/GetWorkOrders', {})).json();
    expect(mine.totalCount).toBeGreaterThan(0);
    expect((await otherClient.post('/Warehouse/Kit/GetWorkOrders', {})).json().totalCount).toBe(0);
    expect((await otherClient.post('/Warehouse/Kit/GetKitAvailability', {})).json().items).toEqual([]);
    const someone = mine.items[0].workOrderId;
    expect((await otherClient.get(`/Warehouse/Kit/GetWorkOrder?workOrderId=${someone}`)).statusCode).toBe(404);
    expect((await otherClient.post('/Warehouse/Kit/GetWorkOrders', { filters: { customerId: cust } })).statusCode).toBe(403);
    expect((await client.post('/Warehouse/Kit/CreateWorkOrder', { warehouseId: wh, customerId: cust, type: 'Build', kitSkuId: kit, quantity: 1, locationId: kitLoc })).statusCode).toBe(403);
    expect((await client.post('/Warehouse/Kit/CancelWorkOrder', { workOrderId: someone })).statusCode).toBe(403);
  });
});

describe('a build for an order line', () => {
  it('raises a Build for what the line misses beyond the free built kits, and refuses when nothing is missing', async () => {
    // One kit is built and free.
    const order = await staff.post('/Warehouse/Order/CreateOrder', {
      warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `KIT-${Date.now()}`, orderDate: today, lines: [{ skuId: kit, quantity: 3 }, { skuId: plain, quantity: 1 }],
    });
    expect(order.statusCode, order.body).toBe(200);
    const [kitLine, plainLine] = order.json().data.lines;
    const res = await staff.post('/Warehouse/Kit/CreateWorkOrderForOrderLine', { orderLineId: kitLine.lineId, locationId: kitLoc });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type: 'Build', quantity: 2, orderLineId: kitLine.lineId, soNumber: order.json().data.soNumber, locationId: kitLoc });
    expect((await staff.post('/Warehouse/Kit/CreateWorkOrderForOrderLine', { orderLineId: plainLine.lineId })).statusCode).toBe(422);

    const small = await staff.post('/Warehouse/Order/CreateOrder', {
      warehouseId: wh, customerId: cust, orderType: 'Sales', referenceNumber: `KIT1-${Date.now()}`, orderDate: today, lines: [{ skuId: kit, quantity: 1 }],
    });
    const none = await staff.post('/Warehouse/Kit/CreateWorkOrderForOrderLine', { orderLineId: small.json().data.lines[0].lineId });
    expect(none.statusCode).toBe(422);
    expect(none.json().details).toHaveProperty('orderLineId');
    expect((await otherClient.post('/Warehouse/Kit/CreateWorkOrderForOrderLine', { orderLineId: kitLine.lineId })).statusCode).toBe(403);
  });
});
