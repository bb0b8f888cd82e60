import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let staff: ReturnType<typeof as>;
let wh: number, cust: number, sku: number, sku2: number;
let pick: number, bulkLate: number, bulkEarly: number, bulkExpired: number;

const adjust = (locationId: number, quantityChange: number, over: Record<string, unknown> = {}) =>
  admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: sku, locationId, quantityChange, reasonCode: 'FOUND', ...over });
const balance = (locationId: number, lot: string, pallet = '') =>
  t.database.db.selectFrom('inventory_balance').select(['on_hand', 'allocated']).where('location_id', '=', locationId).where('lot', '=', lot)
    .where('pallet', '=', pallet).executeTakeFirst().then((r) => r ?? { on_hand: 0, allocated: 0 });
const balanced = async () => (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json().balanced;
const rule = (over: Record<string, unknown> = {}) => ({ warehouseId: wh, customerId: cust, skuId: sku, locationId: pick, minQty: 10, maxQty: 50, ...over });

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
  sku2 = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
  pick = await makeLocation(t.database, wh);
  bulkLate = await makeLocation(t.database, wh);
  bulkEarly = await makeLocation(t.database, wh);
  bulkExpired = await makeLocation(t.database, wh);
  await t.database.db.updateTable('location').set({ is_pickable: 0 }).where('id', 'in', [bulkLate, bulkEarly, bulkExpired]).execute();
  await adjust(pick, 5);
  await adjust(bulkLate, 100, { lot: 'LATE', expiryDate: '2099-01-01' });
  await adjust(bulkEarly, 30, { lot: 'EARLY', expiryDate: '2098-01-01', pallet: 'PLT-9' });
  await adjust(bulkExpired, 50, { lot: 'GONE', expiryDate: '2020-01-01' });
  const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { ProductReplenishment: 'write', Move: 'write' } });
  staff = as(t.app, await login(t.app, u.username, u.password));
});
afterAll(async () => { await t?.close(); });

describe('min/max rules', () => {
  it('refuses max not above min, and a bulk (not pickable) location', async () => {
    const bad = await staff.post('/Warehouse/Replenishment/SaveReplenishmentRule', rule({ maxQty: 10 }));
    expect(bad.statusCode).toBe(400);
    const bulk = await staff.post('/Warehouse/Replenishment/SaveReplenishmentRule', rule({ locationId: bulkLate }));
    expect(bulk.statusCode).toBe(422);
    expect(bulk.json().message).toBe('Min/max is set on a pick location');
  });

  it('saves (and updates) the rule, showing what is on hand and that it is below min', async () => {
    await staff.post('/Warehouse/Replenishment/SaveReplenishmentRule', rule({ minQty: 1, maxQty: 2 }));
    const res = await staff.post('/Warehouse/Replenishment/SaveReplenishmentRule', rule());
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ minQty: 10, maxQty: 50, onHand: 5, belowMin: true });
    // The SKU by its code and description (the Edit Rule form shows them, never the id).
    expect(res.json().data.skuDescription).toBe(`Test item ${res.json().data.skuCode}`);
    const list = (await staff.post('/Warehouse/Replenishment/GetReplenishmentRules', { filters: { belowMin: true } })).json();
    expect(list.totalCount).toBe(1);
  });
});

describe('tasks', () => {
  let taskId: number;

  it('generates one task from the earliest-expiring bulk lot (never an expired one) and allocates it', async () => {
    const res = await staff.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.created).toEqual([expect.objectContaining({ fromLocationId: bulkEarly, toLocationId: pick, lot: 'EARLY', pallet: 'PLT-9', quantity: 30, status: 'Open' })]);
    expect(res.json().message).toBe('1 replenishment task created');
    taskId = res.json().data.created[0].taskId;
    expect(await balance(bulkEarly, 'EARLY', 'PLT-9')).toEqual({ on_hand: 30, allocated: 30 });
    expect((await balance(bulkExpired, 'GONE')).allocated).toBe(0);
    // An open task: a second run adds nothing, and the allocated source cannot be moved away.
    expect((await staff.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh })).json().data.created).toEqual([]);
    const move = await staff.post('/Warehouse/Move/MoveItems', { warehouseId: wh, customerId: cust, skuId: sku, locationId: bulkEarly, lot: 'EARLY', pallet: 'PLT-9', toLocationId: bulkLate, quantity: 1 });
    expect(move.statusCode).toBe(422);
  });

  it('completing moves the stock to the pick face through the ledger, once', async () => {
    const key = { 'idempotency-key': 'complete-task-0001' };
    const res = await staff.post('/Warehouse/Replenishment/CompleteTask', { taskId, quantity: 28 }, key);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Replenished 28 units');
    expect(res.json().data.entries.map((e: { txnType: string; qtyChange: number; documentId: string }) => [e.txnType, e.qtyChange, e.documentId]))
      .toEqual([['move_out', -28, `RPL-${taskId}`], ['move_in', 28, `RPL-${taskId}`]]);
    expect((await staff.post('/Warehouse/Replenishment/CompleteTask', { taskId, quantity: 28 }, key)).json()).toEqual(res.json());
    expect(await balance(bulkEarly, 'EARLY', 'PLT-9')).toEqual({ on_hand: 2, allocated: 0 });
    expect(await balance(pick, 'EARLY')).toEqual({ on_hand: 28, allocated: 0 });
    expect(await balanced()).toBe(true);
    expect((await staff.post('/Warehouse/Replenishment/CompleteTask', { taskId })).statusCode).toBe(409);
    // The completion is labour: one activity-log step (the replay and the refusal record none).
    expect(await t.database.db.selectFrom('floor_event').select(['kind', 'customer_id', 'sku_id', 'location_id', 'quantity', 'doc_type'])
      .where('doc_id', '=', taskId).where('doc_type', '=', 'REPLENISHMENT').execute())
      .toEqual([{ kind: 'replenish', customer_id: cust, sku_id: sku, location_id: pick, quantity: 28, doc_type: 'REPLENISHMENT' }]);
    const tasks = (await staff.post('/Warehouse/Replenishment/GetReplenishmentTasks', { filters: { status: 'Completed' } })).json();
    expect(tasks.items).toEqual([expect.objectContaining({ taskId, movedQty: 28, document: `RPL-${taskId}` })]);
  });

  it('a location at or above min gets no task; cancelling releases the source', async () => {
    expect((await staff.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh })).json().data.created).toEqual([]);
    await adjust(pick, -28, { lot: 'EARLY', reasonCode: 'LOST' });
    const res = await staff.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh });
    const [task] = res.json().data.created;
    // The 2 left of EARLY come first (FEFO), even though LATE could fill the whole need.
    expect(task).toMatchObject({ lot: 'EARLY', quantity: 2 });
    const cancelled = await staff.post('/Warehouse/Replenishment/CancelTask', { taskId: task.taskId });
    expect(cancelled.statusCode).toBe(200);
    expect(await balance(bulkEarly, 'EARLY', 'PLT-9')).toEqual({ on_hand: 2, allocated: 0 });
  });

  it('reports a pick location that bulk storage cannot replenish', async () => {
    await staff.post('/Warehouse/Replenishment/SaveReplenishmentRule', rule({ skuId: sku2 }));
    const res = (await staff.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh })).json();
    expect(res.data.shortages).toEqual([expect.objectContaining({ needed: 50 })]);
    expect(res.message).toMatch(/^\d+ replenishment tasks? created; 1 pick location has no bulk stock$/);
  });

  it('parallel runs make one task per rule and allocate once', async () => {
    await t.database.db.updateTable('replenishment_task').set({ status: 'Cancelled' }).where('status', '=', 'Open').execute();
    await t.database.db.updateTable('inventory_balance').set({ allocated: 0 }).where('warehouse_id', '=', wh).execute();
    const runs = await Promise.all(Array.from({ length: 6 }, () => staff.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh })));
    expect(runs.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const open = await t.database.db.selectFrom('replenishment_task').selectAll().where('status', '=', 'Open').where('warehouse_id', '=', wh).execute();
    expect(open).toHaveLength(1);
    const allocated = await t.database.db.selectFrom('inventory_balance').select((eb) => eb.fn.sum<number>('allocated').as('n')).where('warehouse_id', '=', wh).executeTakeFirstOrThrow();
    expect(Number(allocated.n)).toBe(open[0].quantity);
  });
});

describe('access', () => {
  it('a client reads the rules of its own stock and changes nothing', async () => {
    const u = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { ProductReplenishment: 'write' } });
    const client = as(t.app, await login(t.app, u.username, u.password));
    expect((await client.post('/Warehouse/Replenishment/GetReplenishmentRules', {})).json().totalCount).toBe(2);
    expect((await client.post('/Warehouse/Replenishment/SaveReplenishmentRule', rule())).statusCode).toBe(403);
    expect((await client.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh })).statusCode).toBe(403);
    const other = await makeCustomer(t.database, [wh]);
    const o = await makeUser(t.database, { role: 'Client', customerId: other, modules: { ProductReplenishment: 'read' } });
    const otherClient = as(t.app, await login(t.app, o.username, o.password));
    expect((await otherClient.post('/Warehouse/Replenishment/GetReplenishmentRules', {})).json().totalCount).toBe(0);
    expect((await otherClient.post('/Warehouse/Replenishment/GetReplenishmentTasks', { filters: { customerId: cust } })).statusCode).toBe(403);
  });
});
