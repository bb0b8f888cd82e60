import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeWarehouse, recordEvents, type TestApp } from '../../../test/helpers.js';
import { systemActor } from '../actor.js';
import { inTransaction } from '../unit-of-work.js';
import type { Place } from './stock-engine.js';
import { isHubDelivery, statementCounter } from '../../../test/statements.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, sku: number, a: number, b: number;
const actor = systemActor('engine-test');

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  // A warehouse far west of UTC: its business day is not the UTC day for part of every day.
  await t.database.db.updateTable('warehouse').set({ timezone: 'Pacific/Honolulu' }).where('id', '=', wh).execute();
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust);
  a = await makeLocation(t.database, wh);
  b = await makeLocation(t.database, wh);
});
afterAll(async () => { await t?.close(); });

const stock = () => t.app.services.stock;
const at = (locationId: number, over: Partial<Place> = {}): Place => ({ warehouseId: wh, customerId: cust, skuId: sku, locationId, lot: '', pallet: '', ...over });
const add = (locationId: number, qty: number, documentId: string, over: Partial<Place> = {}) => inTransaction(t.database.db, (uow) => stock().post(uow, {
  documentType: 'ADJUSTMENT', documentId, documentLine: '1', reason: 'engine test', legs: [{ place: at(locationId, over), qty, txnType: 'adjust' }],
  record: { after: { qty } },
}, actor));
const onHand = async (locationId: number, lot = '') => (await t.database.db.selectFrom('inventory_balance').select(['on_hand', 'allocated'])
  .where('location_id', '=', locationId).where('sku_id', '=', sku).where('lot', '=', lot).executeTakeFirst()) ?? { on_hand: 0, allocated: 0 };
const reconcile = async () => (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json();

describe('post', () => {
  it('writes the ledger row (document line, business day), the balance, its audit row and its event — no caller call', async () => {
    const events = await recordEvents(t.app);
    const posted = await add(a, 12, 'ENG-1');
    expect(posted.entries).toMatchObject([{ qtyChange: 12, txnType: 'adjust', documentType: 'ADJUSTMENT', documentId: 'ENG-1', documentLine: '1' }]);
    const row = await t.database.db.selectFrom('inventory_txn').select(['business_day', 'at']).where('document_id', '=', 'ENG-1').executeTakeFirstOrThrow();
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Honolulu', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(row.at));
    expect(row.business_day).toBe(day);
    expect((await onHand(a)).on_hand).toBe(12);
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'entity', 'username']).where('entity_id', '=', 'ENG-1').execute();
    expect(audit).toEqual([{ action: 'adjust', entity: 'inventory', username: 'engine-test' }]);
    const heard = await events.until(1);
    expect(heard.find((e) => e.target === 'ReceiveInventoryData')?.payload).toMatchObject({ subEvent: 'Adjust', payload: { document: 'ENG-1', skuId: sku } });
  });

  it('writes a caller\'s own change (also) in the same two statements', async () => {
    await inTransaction(t.database.db, (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', documentId: 'ENG-ALSO', reason: null, legs: [{ place: at(a), qty: 1, txnType: 'adjust' }], record: { after: {} },
    }, actor, [{ audit: { action: 'caller', entity: 'test', entityId: 'ENG-ALSO' } }]));
    const rows = await t.database.db.selectFrom('audit_log').select('action').where('entity_id', '=', 'ENG-ALSO').orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['adjust', 'caller']);
  });
});

describe('an arrival\'s expiry and receipt time', () => {
  const lotAt = (locationId: number, lot: string) => t.database.db.selectFrom('inventory_balance').select(['expiry_date', 'received_at'])
    .where('location_id', '=', locationId).where('sku_id', '=', sku).where('lot', '=', lot).executeTakeFirstOrThrow();
  const move = (documentId: string, lot: string, arrival: { expiryDate?: string | null; receivedAt?: string | null }) => inTransaction(t.database.db, (uow) => stock().post(uow, {
    documentType: 'MOVE', documentId, reason: null, record: { after: {} },
    legs: [{ place: at(a, { lot }), qty: -1, txnType: 'move_out' }, { place: at(b, { lot }), qty: 1, txnType: 'move_in', ...arrival }],
  }, actor));

  it('without either (a move that names neither), come from the posting\'s source of that SKU', async () => {
    await inTransaction(t.database.db, (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', documentId: 'ENG-EXP-1', reason: null, record: { after: {} },
      legs: [{ place: at(a, { lot: 'EXP-A' }), qty: 5, txnType: 'adjust', expiryDate: '2031-02-03', receivedAt: '2026-01-02T03:04:05.000Z' }],
    }, actor));
    await move('ENG-EXP-2', 'EXP-A', {});
    const arrived = await lotAt(b, 'EXP-A');
    expect(arrived.expiry_date).toBe('2031-02-03');
    expect(new Date(arrived.received_at!).toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('with its receipt time, its expiry is its own, none when it gives none: the source is not read (a pick read its whole job\'s ledger rows there)', async () => {
    await inTransaction(t.database.db, (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', documentId: 'ENG-EXP-3', reason: null, record: { after: {} },
      legs: [{ place: at(a, { lot: 'EXP-B' }), qty: 5, txnType: 'adjust', expiryDate: '2032-04-05', receivedAt: '2026-02-03T04:05:06.000Z' }],
    }, actor));
    await move('ENG-EXP-4', 'EXP-B', { receivedAt: '2026-05-06T07:08:09.000Z' });
    const arrived = await lotAt(b, 'EXP-B');
    expect(arrived.expiry_date).toBeNull();
    expect(new Date(arrived.received_at!).toISOString()).toBe('2026-05-06T07:08:09.000Z');
  });

  it('without either, come from the source of the same lot when a posting moves several lots of the SKU (a replenishment across lots)', async () => {
    await inTransaction(t.database.db, (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', documentId: 'ENG-EXP-5', reason: null, record: { after: {} },
      legs: [
        { place: at(a, { lot: 'EXP-C' }), qty: 4, txnType: 'adjust', expiryDate: '2027-01-31', receivedAt: '2026-01-01T00:00:00.000Z' },
        { place: at(a, { lot: 'EXP-D' }), qty: 4, txnType: 'adjust', expiryDate: '2027-06-30', receivedAt: '2026-03-01T00:00:00.000Z' },
      ],
    }, actor));
    await inTransaction(t.database.db, (uow) => stock().post(uow, {
      documentType: 'MOVE', documentId: 'ENG-EXP-6', reason: null, record: { after: {} },
      legs: [
        { place: at(a, { lot: 'EXP-C' }), qty: -2, txnType: 'move_out' }, { place: at(a, { lot: 'EXP-D' }), qty: -3, txnType: 'move_out' },
        { place: at(b, { lot: 'EXP-C' }), qty: 2, txnType: 'move_in' }, { place: at(b, { lot: 'EXP-D' }), qty: 3, txnType: 'move_in' },
      ],
    }, actor));
    const [c, d] = [await lotAt(b, 'EXP-C'), await lotAt(b, 'EXP-D')];
    expect([c.expiry_date, new Date(c.received_at!).toISOString()]).toEqual(['2027-01-31', '2026-01-01T00:00:00.000Z']);
    expect([d.expiry_date, new Date(d.received_at!).toISOString()]).toEqual(['2027-06-30', '2026-03-01T00:00:00.000Z']);
  });
});

describe('reverse', () => {
  it('posts the opposite of every row of a document; a second reverse is refused (409)', async () => {
    await add(b, 5, 'ENG-REV');
    await inTransaction(t.database.db, (uow) => stock().reverse(uow, 'ADJUSTMENT', 'ENG-REV', actor));
    const rows = await t.database.db.selectFrom('inventory_txn').select(['qty_change', 'txn_type', 'document_line']).where('document_id', '=', 'ENG-REV').orderBy('id').execute();
    expect(rows).toEqual([{ qty_change: 5, txn_type: 'adjust', document_line: '1' }, { qty_change: -5, txn_type: 'reverse', document_line: '1' }]);
    expect((await onHand(b)).on_hand).toBe(0);
    await expect(inTransaction(t.database.db, (uow) => stock().reverse(uow, 'ADJUSTMENT', 'ENG-REV', actor))).rejects.toMatchObject({ status: 409 });
    expect((await reconcile()).balanced).toBe(true);
  });

  it('is refused (409) when the stock has moved on since, and changes nothing', async () => {
    await add(b, 4, 'ENG-GONE', { lot: 'GONE' });
    await add(b, -3, 'ENG-TAKE', { lot: 'GONE' });
    await expect(inTransaction(t.database.db, (uow) => stock().reverse(uow, 'ADJUSTMENT', 'ENG-GONE', actor))).rejects.toMatchObject({ status: 409 });
    expect((await onHand(b, 'GONE')).on_hand).toBe(1);
    expect((await t.database.db.selectFrom('inventory_txn').select('id').where('document_id', '=', 'ENG-GONE').execute())).toHaveLength(1);
  });
});

describe('reservations', () => {
  it('16 parallel allocations of one SKU: never over-allocated, allocated = the open reservations, released to zero', async () => {
    const hot = await makeSku(t.database, cust);
    const x = await makeLocation(t.database, wh);
    const y = await makeLocation(t.database, wh);
    for (const [loc, qty] of [[x, 10], [y, 10]] as const) {
      await inTransaction(t.database.db, (uow) => stock().post(uow, {
        documentType: 'ADJUSTMENT', documentId: `ENG-HOT-${loc}`, reason: null, legs: [{ place: { ...at(loc), skuId: hot }, qty, txnType: 'adjust' }], record: { after: {} },
      }, actor));
    }
    const owners = Array.from({ length: 16 }, (_, i) => ({ documentType: 'REPLENISHMENT' as const, documentId: `ENG-ORDER-${i}`, documentLine: '1' }));
    const results = await Promise.all(owners.map((owner) => inTransaction(t.database.db, (uow) => stock().allocate(uow, {
      owner, warehouseId: wh, customerId: cust, skuId: hot, quantity: 3,
    })).then((r) => r.allocated, (err: { status?: number }) => (err.status === 422 ? 0 : Promise.reject(err)))));
    expect(results.reduce((n, q) => n + q, 0)).toBe(18); // 6 of 3 fit in 20
    const balances = await t.database.db.selectFrom('inventory_balance').select(['on_hand', 'allocated']).where('sku_id', '=', hot).execute();
    expect(balances.reduce((n, r) => n + r.allocated, 0)).toBe(18);
    for (const r of balances) expect(r.allocated).toBeLessThanOrEqual(r.on_hand);
    const reserved = await t.database.db.selectFrom('stock_reservation').select(sql<number>`sum(quantity)`.as('n')).where('sku_id', '=', hot).executeTakeFirstOrThrow();
    expect(Number(reserved.n)).toBe(18);
    expect((await reconcile()).reservations).toEqual({ balanced: true, differences: [] });

    for (const owner of owners) await inTransaction(t.database.db, (uow) => stock().release(uow, owner));
    expect((await t.database.db.selectFrom('inventory_balance').select('allocated').where('sku_id', '=', hot).execute()).every((r) => r.allocated === 0)).toBe(true);
    expect((await reconcile()).balanced).toBe(true);
  });

  it('the reconciliation names a balance whose allocated figure no reservation owns', async () => {
    const stray = await makeSku(t.database, cust);
    await inTransaction(t.database.db, (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', documentId: 'ENG-STRAY', reason: null, legs: [{ place: { ...at(a), skuId: stray }, qty: 5, txnType: 'adjust' }], record: { after: {} },
    }, actor));
    await t.database.db.updateTable('inventory_balance').set({ allocated: 2 }).where('sku_id', '=', stray).execute();
    const r = await reconcile();
    expect(r.balanced).toBe(false);
    expect(r.reservations.differences).toMatchObject([{ skuId: stray, allocated: 2, reserved: 0, difference: 2 }]);
    await t.database.db.updateTable('inventory_balance').set({ allocated: 0 }).where('sku_id', '=', stray).execute();
  });
});

describe('holds', () => {
  it('a quarantine hold on a balance blocks moves out of it (409) until lifted', async () => {
    const q = await makeLocation(t.database, wh);
    await add(q, 6, 'ENG-Q', { lot: 'SUSPECT' });
    const balance = await t.database.db.selectFrom('inventory_balance').select('id').where('location_id', '=', q).where('lot', '=', 'SUSPECT').executeTakeFirstOrThrow();
    await inTransaction(t.database.db, (uow) => stock().hold(uow, 'QUARANTINE', 'Q-1', wh, { balanceIds: [balance.id] }, actor));
    const move = () => admin.post('/Warehouse/Move/MoveItems', { warehouseId: wh, customerId: cust, skuId: sku, locationId: q, lot: 'SUSPECT', toLocationId: a, quantity: 1 });
    const refused = await move();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/held for quarantine \(Q-1\)/);
    expect((await onHand(q, 'SUSPECT')).on_hand).toBe(6);
    // Stock may still arrive there, and another lot at the same location is not held.
    await add(q, 1, 'ENG-Q2', { lot: 'FINE' });
    expect((await admin.post('/Warehouse/Move/MoveItems', { warehouseId: wh, customerId: cust, skuId: sku, locationId: q, lot: 'FINE', toLocationId: a, quantity: 1 })).statusCode).toBe(200);
    await inTransaction(t.database.db, (uow) => stock().lift(uow, 'QUARANTINE', 'Q-1'));
    expect((await move()).statusCode).toBe(200);
  });
});

describe('closed vocabularies', () => {
  it('the database refuses an unknown transaction or document type', async () => {
    const row = { at: new Date().toISOString(), warehouse_id: wh, customer_id: cust, sku_id: sku, location_id: a, lot: '', pallet: '', qty_change: 0, reason: null, document_id: 'X', user_id: null };
    await expect(t.database.db.insertInto('inventory_txn').values({ ...row, txn_type: 'teleport', document_type: 'ADJUSTMENT' }).execute()).rejects.toThrow(/CHECK|check/);
    await expect(t.database.db.insertInto('inventory_txn').values({ ...row, txn_type: 'adjust', document_type: 'WHATEVER' }).execute()).rejects.toThrow(/CHECK|check/);
    await expect(t.database.db.insertInto('stock_hold').values({ warehouse_id: wh, customer_id: null, location_id: a, balance_id: null, hold_type: 'NAP', document_id: 'X', placed_by: null, placed_at: row.at }).execute()).rejects.toThrow(/CHECK|check/);
  });
});

describe('references', () => {
  it("loads many SKUs of a client in the one round trip, answering only the client's (an order's lines)", async () => {
    const other = await makeCustomer(t.database, [wh]);
    const [mine, tracked, theirs] = [await makeSku(t.database, cust), await makeSku(t.database, cust, undefined, { lot: true }), await makeSku(t.database, other)];
    const counter = statementCounter(t.database.sqlite);
    let refs: Awaited<ReturnType<ReturnType<typeof stock>['references']>>;
    try {
      refs = await stock().references({ warehouseId: wh, customerId: cust, skuIds: [mine, tracked, theirs, 999_999, mine], locationIds: [] });
      // The hub's delivery of earlier tests' events (an announcement may follow its commit by up to 20 ms) is not this call's.
      expect(counter.take().filter((q) => !isHubDelivery(q))).toHaveLength(1);
    } finally {
      counter.restore();
    }
    expect([...refs.skus.keys()].sort((x, y) => x - y)).toEqual([mine, tracked].sort((x, y) => x - y));
    expect(refs.skus.get(tracked)).toMatchObject({ isLotTracked: true, isExpiryTracked: false, isActive: true, customerId: cust });
    // The client must be served by the warehouse, as for one SKU.
    const elsewhere = await makeWarehouse(t.database);
    await expect(stock().references({ warehouseId: elsewhere, customerId: cust, skuIds: [mine], locationIds: [] })).rejects.toMatchObject({ status: 422 });
  });
});
