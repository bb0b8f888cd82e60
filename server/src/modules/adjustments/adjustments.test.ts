import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, recordEvents, type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let manager: ReturnType<typeof as>;
let staff: ReturnType<typeof as>;
let wh: number, cust: number, sku: number, loc: number;

const session = async (role: 'WarehouseManager' | 'WarehouseStaff' | 'Client', over: Record<string, unknown> = {}) => {
  const u = await makeUser(t.database, { role, warehouseIds: [wh], customerIds: [cust], modules: { Adjustment: 'write', InventoryReports: 'read' }, ...over });
  return as(t.app, await login(t.app, u.username, u.password));
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust);
  loc = await makeLocation(t.database, wh);
  await t.database.db.updateTable('customer').set({ adjustment_approval_threshold: 50 }).where('id', '=', cust).execute();
  manager = await session('WarehouseManager');
  staff = await session('WarehouseStaff');
});
afterAll(async () => { await t?.close(); });

const body = (quantityChange: number, over: Record<string, unknown> = {}) =>
  ({ warehouseId: wh, customerId: cust, skuId: sku, locationId: loc, lot: 'A1', quantityChange, reasonCode: 'FOUND', ...over });
const onHand = async () =>
  (await t.database.db.selectFrom('inventory_balance').select('on_hand').where('location_id', '=', loc).where('lot', '=', 'A1').executeTakeFirst())?.on_hand ?? 0;
const ledgerCount = async () => Number((await t.database.db.selectFrom('inventory_txn').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const balanced = async () => (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json().balanced;

describe('reason codes', () => {
  it('lists the codes with their names', async () => {
    const res = await staff.get('/Warehouse/Adjustment/GetReasonCodes');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({ code: 'DAMAGED', name: 'Damaged' });
    expect(res.json().map((r: { code: string }) => r.code)).toEqual(['DAMAGED', 'FOUND', 'LOST', 'EXPIRED', 'RECOUNT', 'SAMPLE', 'OTHER']);
    const filters = (await staff.get('/Warehouse/Adjustment/AdjustmentFiltersLabels')).json();
    expect(filters).toEqual([expect.objectContaining({ key: 'status', options: ['Pending', 'Approved', 'Rejected'].map((v) => ({ label: v, value: v })) })]);
  });
});

describe('approval threshold', () => {
  it('posts at or below the customer’s threshold at once', async () => {
    const res = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(50));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Posted', adjustmentId: null });
    expect(await onHand()).toBe(50);
  });

  it('holds a larger one as pending: nothing posted, an audit row and an event', async () => {
    const events = recordEvents(t.app);
    const before = await ledgerCount();
    const res = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(-51, { reasonCode: 'DAMAGED', note: 'forklift' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/need a manager's approval/);
    expect(res.json().data).toMatchObject({ status: 'Pending', document: null, entries: [] });
    expect(await onHand()).toBe(50);
    expect(await ledgerCount()).toBe(before);
    const id = res.json().data.adjustmentId;
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'adjustment_request').where('entity_id', '=', String(id)).execute();
    expect(audit.map((a) => a.action)).toEqual(['request']);
    // On PostgreSQL events arrive through NOTIFY, a moment later; an earlier test's may still be arriving.
    const seen = await events.until(3, 1500);
    expect(seen.find((e) => e.target === 'ReceiveAdjustmentData')).toMatchObject({ payload: { subEvent: 'AdjustmentRequested', payload: { adjustmentId: id, status: 'Pending' } } });
    const list = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json();
    expect(list.items).toEqual([expect.objectContaining({ adjustmentId: id, quantityChange: -51, reasonCode: 'DAMAGED', note: 'forklift', status: 'Pending' })]);
  });

  it('an approval short of stock is refused and the request stays pending', async () => {
    const [pending] = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json().items;
    const res = await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId });
    expect(res.statusCode).toBe(422);
    expect((await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json().totalCount).toBe(1);
    expect(await onHand()).toBe(50);
  });

  it('staff cannot approve; a manager’s approval posts it once, with the request as its document', async () => {
    await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(20));
    const [pending] = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json().items;
    expect((await staff.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId })).statusCode).toBe(403);
    await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(40)); // now 110 on hand: the pending -51 fits
    const key = { 'idempotency-key': 'approve-adjustment-1' };
    const res = await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId, note: 'checked' }, key);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'Posted', document: `ADJ-${pending.adjustmentId}` });
    expect(res.json().data.entries).toMatchObject([{ qtyChange: -51, txnType: 'adjust', documentType: 'ADJUSTMENT', documentId: `ADJ-${pending.adjustmentId}` }]);
    expect(await onHand()).toBe(59);
    const replay = await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId, note: 'checked' }, key);
    expect(replay.json()).toEqual(res.json());
    expect(await onHand()).toBe(59);
    const again = await admin.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This adjustment is already approved');
    expect(await balanced()).toBe(true);
    const row = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Approved' } })).json().items[0];
    expect(row).toMatchObject({ status: 'Approved', decisionNote: 'checked', document: `ADJ-${pending.adjustmentId}` });
  });

  it('a rejection posts nothing', async () => {
    const created = (await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(500))).json().data;
    const before = await ledgerCount();
    const res = await manager.post('/Warehouse/Adjustment/RejectAdjustment', { adjustmentId: created.adjustmentId, note: 'no' });
    expect(res.statusCode).toBe(200);
    expect(await ledgerCount()).toBe(before);
    expect(await onHand()).toBe(59);
    expect((await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: created.adjustmentId })).statusCode).toBe(409);
  });

  it('no threshold means no approval step', async () => {
    const other = await makeCustomer(t.database, [wh]);
    const otherSku = await makeSku(t.database, other);
    const res = await admin.post('/Warehouse/Adjustment/CreateAdjustment', body(100_000, { customerId: other, skuId: otherSku }));
    expect(res.json().data.status).toBe('Posted');
  });

  it('replaying a create with the same Idempotency-Key makes one request', async () => {
    const key = { 'idempotency-key': 'create-adjustment-1' };
    const first = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(300), key);
    const replay = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(300), key);
    expect(replay.json()).toEqual(first.json());
    const pending = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json();
    expect(pending.items.filter((r: { quantityChange: number }) => r.quantityChange === 300)).toHaveLength(1);
  });
});

describe('access', () => {
  it('a client sees nothing to change; a manager of other clients cannot decide this one’s requests', async () => {
    const client = await session('Client', { customerId: cust, warehouseIds: [], customerIds: [], modules: { Adjustment: 'write' } });
    expect((await client.post('/Warehouse/Adjustment/CreateAdjustment', body(1))).statusCode).toBe(403);
    const pending = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json().items[0];
    expect((await client.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId })).statusCode).toBe(403);

    const elsewhere = await makeCustomer(t.database, [wh]);
    const outsider = await session('WarehouseManager', { customerIds: [elsewhere] });
    expect((await outsider.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId })).statusCode).toBe(403);
    expect((await outsider.post('/Warehouse/Adjustment/GetAdjustments', {})).json().totalCount).toBe(0);
    expect((await outsider.post('/Warehouse/Adjustment/CreateAdjustment', body(1))).statusCode).toBe(403);
  });

  it('the list downloads as a workbook', async () => {
    const res = await staff.post('/Warehouse/Adjustment/DownloadAdjustmentsExcel', {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
