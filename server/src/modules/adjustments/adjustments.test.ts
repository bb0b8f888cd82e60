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
  sku = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
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
    expect(filters).toEqual([expect.objectContaining({ key: 'status', options: ['Posted', 'Pending', 'Approved', 'Rejected'].map((v) => ({ label: v, value: v })) })]);
  });
});

describe('approval threshold', () => {
  it('posts at or below the customer’s threshold at once, kept as a Posted row with its ledger document', async () => {
    const events = await recordEvents(t.app);
    const res = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(50, { note: 'shelf found' }));
    expect(res.statusCode).toBe(200);
    const { adjustmentId, document } = res.json().data;
    // Posting takes the next ADJ number (the numbering sequence), its ledger document.
    expect(document).toMatch(/^ADJ-\d+$/);
    expect(res.json().data).toMatchObject({ status: 'Posted', adjustmentId: expect.any(Number) });
    expect(res.json().data.entries).toMatchObject([{ qtyChange: 50, txnType: 'adjust', documentType: 'ADJUSTMENT', documentId: document }]);
    expect(await onHand()).toBe(50);
    const list = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Posted' } })).json();
    expect(list.items).toEqual([expect.objectContaining({
      adjustmentId, status: 'Posted', quantityChange: 50, reasonCode: 'FOUND', note: 'shelf found', document,
      decidedBy: null, skuId: sku, locationId: loc, lot: 'A1',
    })]);
    expect(list.items[0].requestedBy).toMatch(/.+/);
    // The other statuses' filters leave it out; no filter lists it.
    expect((await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json().totalCount).toBe(0);
    expect((await staff.post('/Warehouse/Adjustment/GetAdjustments', {})).json().items.map((r: { adjustmentId: number }) => r.adjustmentId)).toContain(adjustmentId);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('entity', '=', 'adjustment_request').where('entity_id', '=', String(adjustmentId)).execute();
    expect(audit.map((a) => a.action)).toEqual(['post']);
    const seen = await events.until((es) => es.some((e) => e.target === 'ReceiveAdjustmentData'));
    expect(seen.find((e) => e.target === 'ReceiveAdjustmentData')).toMatchObject({ payload: { subEvent: 'AdjustmentPosted', payload: { adjustmentId, status: 'Posted' } } });
    expect(await balanced()).toBe(true);
  });

  it('holds a larger one as pending: nothing posted, an audit row and an event', async () => {
    const events = await recordEvents(t.app);
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
    const seen = await events.until((es) => es.some((e) => e.target === 'ReceiveAdjustmentData'));
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
    const before = (await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(40))).json().data.document; // now 110 on hand: the pending -51 fits
    const key = { 'idempotency-key': 'approve-adjustment-1' };
    const res = await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId, note: 'checked' }, key);
    expect(res.statusCode).toBe(200);
    // The approval posts it, so it takes its ADJ number now: the next after the adjustment posted before it.
    const document = `ADJ-${Number(before.slice(4)) + 1}`;
    expect(res.json().data).toMatchObject({ status: 'Posted', document });
    expect(res.json().data.entries).toMatchObject([{ qtyChange: -51, txnType: 'adjust', documentType: 'ADJUSTMENT', documentId: document }]);
    expect(await onHand()).toBe(59);
    const replay = await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId, note: 'checked' }, key);
    expect(replay.json()).toEqual(res.json());
    expect(await onHand()).toBe(59);
    const again = await admin.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: pending.adjustmentId });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This adjustment is already approved');
    expect(await balanced()).toBe(true);
    const row = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Approved' } })).json().items[0];
    expect(row).toMatchObject({ status: 'Approved', decisionNote: 'checked', document });
    // The status machine kept the transition, with who decided and why.
    const history = await t.database.db.selectFrom('document_status_history').select(['from_status', 'to_status', 'reason', 'user_id'])
      .where('kind', '=', 'ADJUSTMENT').where('document_id', '=', pending.adjustmentId).execute();
    expect(history).toEqual([{ from_status: 'Pending', to_status: 'Approved', reason: 'checked', user_id: expect.any(Number) }]);
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
    const otherSku = await makeSku(t.database, other, undefined, { lot: true, expiry: true });
    const res = await admin.post('/Warehouse/Adjustment/CreateAdjustment', body(100_000, { customerId: other, skuId: otherSku }));
    expect(res.json().data.status).toBe('Posted');
    const list = (await admin.post('/Warehouse/Adjustment/GetAdjustments', { filters: { customerId: other } })).json();
    expect(list.items).toEqual([expect.objectContaining({ adjustmentId: res.json().data.adjustmentId, status: 'Posted', quantityChange: 100_000 })]);
  });

  it('a short removal within the threshold is refused and leaves no row', async () => {
    const before = (await staff.post('/Warehouse/Adjustment/GetAdjustments', {})).json().totalCount;
    const res = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(-50, { lot: 'NONE' }));
    expect(res.statusCode).toBe(422);
    expect((await staff.post('/Warehouse/Adjustment/GetAdjustments', {})).json().totalCount).toBe(before);
  });

  it('stock added with a lot or an expiry needs a SKU that tracks them (422 naming the field, nothing written)', async () => {
    const plain = await makeSku(t.database, cust);
    const lotsOnly = await makeSku(t.database, cust, undefined, { lot: true });
    const before = (await staff.post('/Warehouse/Adjustment/GetAdjustments', {})).json().totalCount;
    const ledger = await ledgerCount();
    const lot = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(5, { skuId: plain, lot: 'L-1' }));
    expect(lot.statusCode, lot.body).toBe(422);
    expect(lot.json().details).toEqual({ lot: 'This SKU does not track lots' });
    const expiry = await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(5, { skuId: lotsOnly, lot: 'L-1', expiryDate: '2031-01-01' }));
    expect(expiry.statusCode, expiry.body).toBe(422);
    expect(expiry.json().details).toEqual({ expiryDate: 'This SKU does not track expiry dates' });
    expect((await staff.post('/Warehouse/Adjustment/GetAdjustments', {})).json().totalCount).toBe(before);
    expect(await ledgerCount()).toBe(ledger);
    // Without them, or with a lot on a lot-tracked SKU, the same adjustments post.
    expect((await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(5, { skuId: plain, lot: '' }))).statusCode).toBe(200);
    expect((await staff.post('/Warehouse/Adjustment/CreateAdjustment', body(5, { skuId: lotsOnly, lot: 'L-1' }))).statusCode).toBe(200);
  });

  it('the requester can never approve or reject their own request, even as a manager', async () => {
    const own = (await manager.post('/Warehouse/Adjustment/CreateAdjustment', body(-60))).json().data;
    expect(own.status).toBe('Pending');
    const approve = await manager.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: own.adjustmentId });
    expect(approve.statusCode).toBe(403);
    expect(approve.json().message).toBe('You cannot approve your own adjustment request; another manager must decide it');
    const reject = await manager.post('/Warehouse/Adjustment/RejectAdjustment', { adjustmentId: own.adjustmentId });
    expect(reject.statusCode).toBe(403);
    expect(reject.json().message).toBe('You cannot reject your own adjustment request; another manager must decide it');
    const selfAdmin = (await admin.post('/Warehouse/Adjustment/CreateAdjustment', body(70))).json().data;
    expect((await admin.post('/Warehouse/Adjustment/ApproveAdjustment', { adjustmentId: selfAdmin.adjustmentId })).statusCode).toBe(403);
    const rows = (await staff.post('/Warehouse/Adjustment/GetAdjustments', { filters: { status: 'Pending' } })).json().items;
    expect(rows.filter((r: { adjustmentId: number }) => [own.adjustmentId, selfAdmin.adjustmentId].includes(r.adjustmentId))).toHaveLength(2);
    // Another approver may decide them.
    expect((await admin.post('/Warehouse/Adjustment/RejectAdjustment', { adjustmentId: own.adjustmentId })).statusCode).toBe(200);
    expect((await manager.post('/Warehouse/Adjustment/RejectAdjustment', { adjustmentId: selfAdmin.adjustmentId })).statusCode).toBe(200);
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

describe('activity log', () => {
  it('every posted adjustment is one step of labour; pending and rejected ones are none', async () => {
    const requests = await t.database.db.selectFrom('adjustment_request').select(['id', 'status', 'quantity_change']).where('warehouse_id', '=', wh).execute();
    const steps = await t.database.db.selectFrom('floor_event').select(['kind', 'doc_id', 'quantity', 'user_id'])
      .where('warehouse_id', '=', wh).where('doc_type', '=', 'ADJUSTMENT').orderBy('doc_id').execute();
    const posted = requests.filter((r) => r.status === 'Posted' || r.status === 'Approved').sort((x, y) => x.id - y.id);
    expect(posted.length).toBeGreaterThan(1);
    expect(requests.some((r) => r.status === 'Pending' || r.status === 'Rejected')).toBe(true);
    expect(steps.map((s) => [s.kind, s.doc_id, s.quantity])).toEqual(posted.map((r) => ['adjust', r.id, r.quantity_change]));
  });
});
