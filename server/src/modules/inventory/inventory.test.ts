import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, recordEvents, type TestApp,
} from '../../../test/helpers.js';
import { inTransaction } from '../../platform/unit-of-work.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, sku: number, a: number, b: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
  a = await makeLocation(t.database, wh);
  b = await makeLocation(t.database, wh);
});
afterAll(async () => { await t?.close(); });

const place = (locationId: number, over: Record<string, unknown> = {}) => ({ warehouseId: wh, customerId: cust, skuId: sku, locationId, ...over });
const adjust = (s: ReturnType<typeof as>, locationId: number, quantityChange: number, over: Record<string, unknown> = {}) =>
  s.post('/Warehouse/Adjustment/CreateAdjustment', { ...place(locationId), quantityChange, reasonCode: 'FOUND', ...over });
const onHand = async (locationId: number, lot = '') =>
  (await t.database.db.selectFrom('inventory_balance').select('on_hand').where('location_id', '=', locationId).where('sku_id', '=', sku).where('lot', '=', lot).executeTakeFirst())?.on_hand ?? 0;
const reconcile = async () => (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json();

describe('adjustments', () => {
  it('add stock with a ledger row, an audit row and an event', async () => {
    const events = await recordEvents(t.app);
    const res = await adjust(admin, a, 100, { lot: 'LOT1', expiryDate: '2027-06-30' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.entries).toMatchObject([{ txnType: 'adjust', qtyChange: 100, lot: 'LOT1', documentType: 'ADJUSTMENT' }]);
    expect(await onHand(a, 'LOT1')).toBe(100);
    const bal = await t.database.db.selectFrom('inventory_balance').select('expiry_date').where('location_id', '=', a).where('lot', '=', 'LOT1').executeTakeFirstOrThrow();
    expect(bal.expiry_date).toBe('2027-06-30');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'inventory').where('entity_id', '=', res.json().data.document).execute();
    expect(audit).toHaveLength(1);
    const seen = await events.until(1);
    expect(seen[0]).toMatchObject({ target: 'ReceiveInventoryData', warehouseId: wh, customerId: cust });
  });

  it('never take more than is free, and write nothing when refused', async () => {
    const before = await t.database.db.selectFrom('inventory_txn').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await adjust(admin, a, -101, { lot: 'LOT1', reasonCode: 'DAMAGED' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: 'Not enough free stock at this place: 100 units available, 101 asked', details: { quantityChange: 'At most 100 available' },
    });
    expect(await onHand(a, 'LOT1')).toBe(100);
    const after = await t.database.db.selectFrom('inventory_txn').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuse bad input with 400', async () => {
    expect((await adjust(admin, a, 0)).statusCode).toBe(400);
    expect((await adjust(admin, a, 1.5)).statusCode).toBe(400);
    expect((await adjust(admin, a, 5, { reasonCode: 'WHATEVER' })).statusCode).toBe(400);
  });
});

describe('moves', () => {
  it('move a quantity with two ledger rows in one document, carrying the lot and its expiry', async () => {
    const res = await admin.post('/Warehouse/Move/MoveItems', { ...place(a, { lot: 'LOT1' }), toLocationId: b, quantity: 30 });
    expect(res.statusCode).toBe(200);
    const entries = res.json().data.entries;
    expect(entries.map((e: { txnType: string; qtyChange: number }) => [e.txnType, e.qtyChange])).toEqual([['move_out', -30], ['move_in', 30]]);
    expect(new Set(entries.map((e: { documentId: string }) => e.documentId)).size).toBe(1);
    expect(await onHand(a, 'LOT1')).toBe(70);
    expect(await onHand(b, 'LOT1')).toBe(30);
    const moved = await t.database.db.selectFrom('inventory_balance').select('expiry_date').where('location_id', '=', b).where('lot', '=', 'LOT1').executeTakeFirstOrThrow();
    expect(moved.expiry_date).toBe('2027-06-30');
    expect((await reconcile()).balanced).toBe(true);
    // The move is labour: one activity-log step, by the mover, in the same transaction.
    const steps = await t.database.db.selectFrom('floor_event').select(['kind', 'user_id', 'customer_id', 'sku_id', 'location_id', 'quantity'])
      .where('warehouse_id', '=', wh).where('kind', '=', 'move').execute();
    expect(steps).toEqual([{ kind: 'move', user_id: expect.any(Number), customer_id: cust, sku_id: sku, location_id: b, quantity: 30 }]);
  });

  it('refuse a move of more than is free, to the same place, or to another warehouse’s location', async () => {
    expect((await admin.post('/Warehouse/Move/MoveItems', { ...place(a, { lot: 'LOT1' }), toLocationId: b, quantity: 71 })).statusCode).toBe(422);
    expect((await admin.post('/Warehouse/Move/MoveItems', { ...place(a, { lot: 'LOT1' }), toLocationId: a, quantity: 1 })).statusCode).toBe(400);
    const otherWh = await makeWarehouse(t.database);
    const elsewhere = await makeLocation(t.database, otherWh);
    expect((await admin.post('/Warehouse/Move/MoveItems', { ...place(a, { lot: 'LOT1' }), toLocationId: elsewhere, quantity: 1 })).statusCode).toBe(404);
    expect(await onHand(a, 'LOT1')).toBe(70);
    // A refused move records no step (the first test's move is the only one).
    expect(await t.database.db.selectFrom('floor_event').select('id').where('warehouse_id', '=', wh).where('kind', '=', 'move').execute()).toHaveLength(1);
  });

  it('refuses a quantity over what is free, naming the quantity field and the free figure, never moving less', async () => {
    const from = await makeLocation(t.database, wh);
    const to = await makeLocation(t.database, wh);
    await adjust(admin, from, 10);
    const ledger = async () => Number((await t.database.db.selectFrom('inventory_txn').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await ledger();
    const res = await admin.post('/Warehouse/Move/MoveItems', { ...place(from), toLocationId: to, quantity: 999 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'Not enough free stock at this place: 10 units available, 999 asked', details: { quantity: 'At most 10 available' } });
    expect([await onHand(from), await onHand(to), await ledger()]).toEqual([10, 0, before]);
    // Allocated units are not free: the figure named is what could move.
    await t.database.db.updateTable('inventory_balance').set({ allocated: 9 }).where('location_id', '=', from).execute();
    const one = await admin.post('/Warehouse/Move/MoveItems', { ...place(from), toLocationId: to, quantity: 2 });
    expect(one.json()).toMatchObject({ message: 'Not enough free stock at this place: 1 unit available, 2 asked', details: { quantity: 'At most 1 available' } });
    await t.database.db.updateTable('inventory_balance').set({ allocated: 0 }).where('location_id', '=', from).execute();
    const moved = await admin.post('/Warehouse/Move/MoveItems', { ...place(from), toLocationId: to, quantity: 1 });
    expect(moved.json().message).toBe('Moved 1 unit');
  });

  it('replay with an Idempotency-Key moves once', async () => {
    const key = { 'idempotency-key': 'move-once-0001' };
    const body = { ...place(a, { lot: 'LOT1' }), toLocationId: b, quantity: 5 };
    const first = await admin.post('/Warehouse/Move/MoveItems', body, key);
    const replay = await admin.post('/Warehouse/Move/MoveItems', body, key);
    expect(replay.json()).toEqual(first.json());
    expect(await onHand(a, 'LOT1')).toBe(65);
    expect(await onHand(b, 'LOT1')).toBe(35);
  });
});

describe('access', () => {
  it('a client account sees its own stock and can change none of it; another customer’s stock is refused', async () => {
    const client = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { InventoryReports: 'read', Move: 'write', Adjustment: 'write' } });
    const s = as(t.app, await login(t.app, client.username, client.password));
    const list = (await s.post('/Warehouse/Inventory/GetStockOnHand', {})).json();
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.every((r: { customerId: number }) => r.customerId === cust)).toBe(true);
    expect((await adjust(s, a, 1, { lot: 'LOT1' })).statusCode).toBe(403);
    expect((await s.post('/Warehouse/Move/MoveItems', { ...place(a, { lot: 'LOT1' }), toLocationId: b, quantity: 1 })).statusCode).toBe(403);

    const other = await makeCustomer(t.database, [wh]);
    const otherClient = await makeUser(t.database, { role: 'Client', customerId: other, modules: { InventoryReports: 'read' } });
    const o = as(t.app, await login(t.app, otherClient.username, otherClient.password));
    expect((await o.post('/Warehouse/Inventory/GetStockOnHand', {})).json().totalCount).toBe(0);
    expect((await o.post('/Warehouse/Inventory/GetStockOnHand', { filters: { customerId: cust } })).statusCode).toBe(403);
  });

  it('staff outside the warehouse cannot move its stock', async () => {
    const otherWh = await makeWarehouse(t.database);
    const staff = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [otherWh], customerIds: [cust], modules: { Move: 'write' } });
    const s = as(t.app, await login(t.app, staff.username, staff.password));
    expect((await s.post('/Warehouse/Move/MoveItems', { ...place(a, { lot: 'LOT1' }), toLocationId: b, quantity: 1 })).statusCode).toBe(403);
  });
});

describe('reconciliation', () => {
  it('names a balance that differs from its ledger', async () => {
    const c = await makeLocation(t.database, wh);
    await adjust(admin, c, 10);
    await t.database.db.updateTable('inventory_balance').set({ on_hand: 11 }).where('location_id', '=', c).execute();
    const r = await reconcile();
    expect(r.balanced).toBe(false);
    expect(r.differences).toEqual([expect.objectContaining({ locationId: c, onHand: 11, ledgerSum: 10, difference: 1 })]);
    await t.database.db.updateTable('inventory_balance').set({ on_hand: 10 }).where('location_id', '=', c).execute();
    expect((await reconcile()).balanced).toBe(true);
  });
});

describe('concurrency', () => {
  it('many parallel moves and adjustments on hot stock: never negative, nothing lost or doubled, ledger = balances', async () => {
    const x = await makeLocation(t.database, wh);
    const y = await makeLocation(t.database, wh);
    await adjust(admin, x, 20, { lot: 'HOT' });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => login(t.app, ADMIN.username, ADMIN.password)));
    const ops = Array.from({ length: 60 }, (_, i) => {
      const s = as(t.app, sessions[i % sessions.length]);
      switch (i % 4) {
        case 0: return s.post('/Warehouse/Move/MoveItems', { ...place(x, { lot: 'HOT' }), toLocationId: y, quantity: 3 });
        case 1: return s.post('/Warehouse/Move/MoveItems', { ...place(y, { lot: 'HOT' }), toLocationId: x, quantity: 2 });
        case 2: return adjust(s, x, -4, { lot: 'HOT', reasonCode: 'DAMAGED' });
        default: return adjust(s, y, 1, { lot: 'HOT' });
      }
    });
    const results = await Promise.all(ops);
    expect(results.filter((r) => r.statusCode !== 200 && r.statusCode !== 422).map((r) => r.body)).toEqual([]);
    const applied = results.map((r, i) => ({ ok: r.statusCode === 200, kind: i % 4 }));
    const expectedTotal = 20 + applied.filter((o) => o.ok && o.kind === 2).length * -4 + applied.filter((o) => o.ok && o.kind === 3).length;
    const qx = await onHand(x, 'HOT');
    const qy = await onHand(y, 'HOT');
    expect(qx).toBeGreaterThanOrEqual(0);
    expect(qy).toBeGreaterThanOrEqual(0);
    expect(qx + qy).toBe(expectedTotal);
    expect((await reconcile()).balanced).toBe(true);
    expect(results.some((r) => r.statusCode === 422)).toBe(true); // the hot stock did run out at times
  });
});

describe('pallet moves', () => {
  it('moves every line of a pallet (SKUs, lots, expiry, age) in one document', async () => {
    const from = await makeLocation(t.database, wh);
    const to = await makeLocation(t.database, wh);
    const sku2 = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
    await adjust(admin, from, 12, { lot: 'P1', pallet: 'LP-0001', expiryDate: '2030-01-01' });
    await adjust(admin, from, 8, { skuId: sku2, pallet: 'LP-0001' });
    await adjust(admin, from, 3, { lot: 'P1' }); // loose stock beside it stays
    const received = await t.database.db.selectFrom('inventory_balance').select('received_at').where('location_id', '=', from).where('pallet', '=', 'LP-0001').where('lot', '=', 'P1').executeTakeFirstOrThrow();
    const res = await admin.post('/Warehouse/MovePallet/MovePallet', { warehouseId: wh, pallet: 'LP-0001', fromLocationId: from, toLocationId: to });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Moved pallet LP-0001 (20 units)');
    expect(res.json().data.entries).toHaveLength(4);
    expect(new Set(res.json().data.entries.map((e: { documentType: string }) => e.documentType))).toEqual(new Set(['PALLET_MOVE']));
    const there = await t.database.db.selectFrom('inventory_balance').selectAll().where('location_id', '=', to).orderBy('sku_id').execute();
    expect(there.map((b) => [b.sku_id, b.lot, b.pallet, b.on_hand, b.expiry_date])).toEqual([[sku, 'P1', 'LP-0001', 12, '2030-01-01'], [sku2, '', 'LP-0001', 8, null]]);
    expect(there[0].received_at).toBe(received.received_at);
    const left = await t.database.db.selectFrom('inventory_balance').select(['pallet', 'on_hand']).where('location_id', '=', from).where('on_hand', '>', 0).execute();
    expect(left).toEqual([{ pallet: '', on_hand: 3 }]);
    expect((await reconcile()).balanced).toBe(true);
    const missing = await admin.post('/Warehouse/MovePallet/MovePallet', { warehouseId: wh, pallet: 'LP-0001', fromLocationId: from, toLocationId: to });
    expect(missing.statusCode).toBe(404);
    const pallets = (await admin.post('/Warehouse/MovePallet/GetPallets', { filters: { warehouseId: wh }, searchQuery: 'LP-0001' })).json();
    expect(pallets.items).toEqual([expect.objectContaining({ pallet: 'LP-0001', locationId: to, skuCount: 2, onHand: 20 })]);
  });

  it('a client cannot move a pallet; a pallet with allocated stock does not move', async () => {
    const from = await makeLocation(t.database, wh);
    const to = await makeLocation(t.database, wh);
    await adjust(admin, from, 10, { pallet: 'LP-0002' });
    const client = await makeUser(t.database, { role: 'Client', customerId: cust, modules: { MovePallet: 'write' } });
    const s = as(t.app, await login(t.app, client.username, client.password));
    expect((await s.post('/Warehouse/MovePallet/MovePallet', { warehouseId: wh, pallet: 'LP-0002', fromLocationId: from, toLocationId: to })).statusCode).toBe(403);
    await t.database.db.updateTable('inventory_balance').set({ allocated: 1 }).where('location_id', '=', from).execute();
    const res = await admin.post('/Warehouse/MovePallet/MovePallet', { warehouseId: wh, pallet: 'LP-0002', fromLocationId: from, toLocationId: to });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This pallet has allocated stock');
    await t.database.db.updateTable('inventory_balance').set({ allocated: 0 }).where('location_id', '=', from).execute();
  });
});

describe('allocation (FEFO)', () => {
  let fefoSku: number;
  // Each allocation is its own owner's (a document line), so one can be released alone.
  const firstOwner = { documentType: 'REPLENISHMENT' as const, documentId: 'fefo-first' };
  const allocate = (quantity: number, over: Record<string, unknown> = {}) =>
    inTransaction(t.database.db, (uow) => t.app.services.stock.allocate(uow, { owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, warehouseId: wh, customerId: cust, skuId: fefoSku, quantity, ...over }));

  beforeAll(async () => {
    fefoSku = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
    const [l1, l2, l3, l4] = await Promise.all([1, 2, 3, 4].map(() => makeLocation(t.database, wh)));
    const put = (loc: number, q: number, lot: string, expiryDate?: string) => adjust(admin, loc, q, { skuId: fefoSku, lot, ...(expiryDate ? { expiryDate } : {}) });
    await put(l1, 10, 'UNDATED');
    await put(l2, 10, 'LATER', '2031-06-01');
    await put(l3, 10, 'SOONER', '2030-01-01');
    await put(l4, 10, 'EXPIRED', '2020-01-01');
  });

  it('takes the earliest expiry first, undated stock last, and never an expired lot', async () => {
    const res = await allocate(25, { owner: firstOwner });
    expect(res.lines.map((l) => [l.place.lot, l.quantity])).toEqual([['SOONER', 10], ['LATER', 10], ['UNDATED', 5]]);
    const expired = await t.database.db.selectFrom('inventory_balance').select('allocated').where('sku_id', '=', fefoSku).where('lot', '=', 'EXPIRED').executeTakeFirstOrThrow();
    expect(expired.allocated).toBe(0);
  });

  it('refuses more than the unexpired free stock, allocating nothing', async () => {
    await expect(allocate(6)).rejects.toMatchObject({ status: 422, message: 'Not enough stock to allocate' });
    const partial = await allocate(6, { allowPartial: true });
    expect(partial).toMatchObject({ allocated: 5, short: 1 });
    const sum = await t.database.db.selectFrom('inventory_balance').select((eb) => eb.fn.sum<number>('allocated').as('n')).where('sku_id', '=', fefoSku).executeTakeFirstOrThrow();
    expect(Number(sum.n)).toBe(30);
  });

  it('allocated stock cannot be moved or adjusted away; releasing it frees it', async () => {
    const [line] = (await t.database.db.selectFrom('inventory_balance').selectAll().where('sku_id', '=', fefoSku).where('lot', '=', 'SOONER').execute());
    const body = { warehouseId: wh, customerId: cust, skuId: fefoSku, locationId: line.location_id, lot: 'SOONER', toLocationId: a, quantity: 1 };
    expect((await admin.post('/Warehouse/Move/MoveItems', body)).statusCode).toBe(422);
    // Releasing the first allocation's owner frees all it reserved (10 SOONER among them); a second release frees nothing.
    const released = await inTransaction(t.database.db, (uow) => t.app.services.stock.release(uow, firstOwner));
    expect(released.map((r) => r.quantity)).toEqual(expect.arrayContaining([10, 10, 5]));
    expect((await admin.post('/Warehouse/Move/MoveItems', { ...body, quantity: 4 })).statusCode).toBe(200);
    expect(await inTransaction(t.database.db, (uow) => t.app.services.stock.release(uow, firstOwner))).toEqual([]);
    expect((await reconcile()).balanced).toBe(true);
  });
});

describe('concurrency with allocation', () => {
  it('parallel moves, adjustments and allocations of the same hot stock: none negative, never over-allocated, ledger = balances', async () => {
    const hotSku = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
    const x = await makeLocation(t.database, wh);
    const y = await makeLocation(t.database, wh);
    await adjust(admin, x, 30, { skuId: hotSku, lot: 'HOT2', expiryDate: '2030-01-01' });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => login(t.app, ADMIN.username, ADMIN.password)));
    const hot = (loc: number) => ({ warehouseId: wh, customerId: cust, skuId: hotSku, locationId: loc, lot: 'HOT2' });
    let allocatedOk = 0;
    const ops = Array.from({ length: 80 }, (_, i) => {
      const s = as(t.app, sessions[i % sessions.length]);
      switch (i % 5) {
        case 0: return s.post('/Warehouse/Move/MoveItems', { ...hot(x), toLocationId: y, quantity: 3 }).then((r) => r.statusCode);
        case 1: return s.post('/Warehouse/Move/MoveItems', { ...hot(y), toLocationId: x, quantity: 2 }).then((r) => r.statusCode);
        case 2: return s.post('/Warehouse/Adjustment/CreateAdjustment', { ...hot(x), quantityChange: -2, reasonCode: 'DAMAGED' }).then((r) => r.statusCode);
        case 3: return s.post('/Warehouse/Adjustment/CreateAdjustment', { ...hot(y), quantityChange: 1, reasonCode: 'FOUND' }).then((r) => r.statusCode);
        default: return inTransaction(t.database.db, (uow) => t.app.services.stock.allocate(uow, { owner: { documentType: 'REPLENISHMENT' as const, documentId: `test-${Math.random()}` }, warehouseId: wh, customerId: cust, skuId: hotSku, quantity: 2 }))
          .then(() => { allocatedOk++; return 200; }, (err: { status?: number }) => err.status ?? 500);
      }
    });
    const codes = await Promise.all(ops);
    expect(codes.filter((c) => c !== 200 && c !== 422)).toEqual([]);
    const rows = await t.database.db.selectFrom('inventory_balance').select(['on_hand', 'allocated']).where('sku_id', '=', hotSku).execute();
    for (const r of rows) {
      expect(r.on_hand).toBeGreaterThanOrEqual(0);
      expect(r.allocated).toBeLessThanOrEqual(r.on_hand);
    }
    const adjustedOk = (kind: number) => codes.filter((c, i) => c === 200 && i % 5 === kind).length;
    expect(rows.reduce((n, r) => n + r.on_hand, 0)).toBe(30 - 2 * adjustedOk(2) + adjustedOk(3));
    expect(rows.reduce((n, r) => n + r.allocated, 0)).toBe(2 * allocatedOk);
    expect((await reconcile()).balanced).toBe(true);
    expect(allocatedOk).toBeGreaterThan(0);
  });
});

describe('stock on hand list', () => {
  it('counts exactly what it lists, with and without a search (the count reads balances alone)', async () => {
    const listSku = await makeSku(t.database, cust, undefined, { lot: true, expiry: true });
    const [x, y] = [await makeLocation(t.database, wh), await makeLocation(t.database, wh)];
    for (const [loc, lot, qty] of [[x, 'CNT-1', 5], [x, 'CNT-2', 7], [y, 'CNT-3', 9], [y, 'CNT-4', 4]] as const) {
      expect((await adjust(admin, loc, qty, { skuId: listSku, lot })).statusCode).toBe(200);
    }
    expect((await adjust(admin, y, -4, { skuId: listSku, lot: 'CNT-4', reasonCode: 'LOST' })).statusCode).toBe(200); // emptied
    const list = async (body: Record<string, unknown>) => {
      const res = await admin.post('/Warehouse/Inventory/GetStockOnHand', { pageSize: 2, ...body, filters: { warehouseId: wh, skuId: listSku, ...(body.filters as object) } });
      expect(res.statusCode).toBe(200);
      return res.json() as { totalCount: number; items: { lot: string }[] };
    };
    const all = await list({});
    expect(all.totalCount).toBe(3);
    expect(all.items.map((i) => i.lot)).toHaveLength(2);
    expect((await list({ filters: { includeEmpty: true } })).totalCount).toBe(4);
    expect((await list({ filters: { locationId: y } })).totalCount).toBe(1);
    const searched = await list({ searchQuery: 'CNT-2' });
    expect(searched.totalCount).toBe(1);
    expect(searched.items.map((i) => i.lot)).toEqual(['CNT-2']);
  });
});
