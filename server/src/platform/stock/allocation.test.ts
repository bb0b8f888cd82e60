import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { systemActor } from '../actor.js';
import { inTransaction } from '../unit-of-work.js';
import type { AllocationRequest } from './stock-engine.js';
import { stockRepository } from './stock.repository.js';

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number;
let seq = 0;
const actor = systemActor('allocation-test');
const TODAY = '2026-01-15';

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
});
afterAll(async () => { await t?.close(); });

const stock = () => t.app.services.stock;
const db = () => t.database.db;

/** A fresh SKU and a location per entry, each stocked with its quantity (lot, expiry, receipt time when given). */
async function stocked(...places: { qty: number; lot?: string; expiry?: string; received?: string; type?: string; pickable?: boolean }[]) {
  const sku = await makeSku(t.database, cust);
  const locations: number[] = [];
  for (const p of places) {
    const location = await makeLocation(t.database, wh, undefined, p.type);
    if (p.pickable === false) await db().updateTable('location').set({ is_pickable: 0 }).where('id', '=', location).execute();
    await inTransaction(db(), (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', reason: 'allocation test', record: { after: {} },
      legs: [{ place: { warehouseId: wh, customerId: cust, skuId: sku, locationId: location, lot: p.lot ?? '', pallet: '' }, qty: p.qty, txnType: 'adjust', expiryDate: p.expiry, receivedAt: p.received }],
    }, actor));
    locations.push(location);
  }
  return { sku, locations };
}

const allocate = (skuId: number, quantity: number, more: Partial<AllocationRequest> = {}) => inTransaction(db(), (uow) => stock().allocate(uow, {
  owner: { documentType: 'REPLENISHMENT', documentId: `ALLOC-${++seq}`, documentLine: '1' }, warehouseId: wh, customerId: cust, skuId, quantity,
  today: TODAY, allowPartial: true, ...more,
}));
/** What was taken: [location, quantity] in take order. */
const takes = (r: { lines: { place: { locationId: number }; quantity: number }[] }) => r.lines.map((l) => [l.place.locationId, l.quantity]);
const balanceOf = (location: number, sku: number) => db().selectFrom('inventory_balance').select('id').where('location_id', '=', location).where('sku_id', '=', sku).executeTakeFirstOrThrow().then((r) => r.id);

describe('which stock a line takes', () => {
  it('FEFO: the earliest expiry first, undated stock last, never an expired lot', async () => {
    const { sku, locations: [late, early, undated, expired] } = await stocked(
      { qty: 5, lot: 'LATE', expiry: '2027-01-01' }, { qty: 5, lot: 'EARLY', expiry: '2026-06-01' }, { qty: 100 }, { qty: 50, lot: 'OLD', expiry: '2026-01-14' });
    const r = await allocate(sku, 7);
    expect(takes(r)).toEqual([[early, 5], [late, 2]]);
    expect(r.lines.map((l) => l.expiryDate)).toEqual(['2026-06-01', '2027-01-01']);
    expect(takes(await allocate(sku, 10))).toEqual([[late, 3], [undated, 7]]);
    expect((await db().selectFrom('inventory_balance').select('allocated').where('location_id', '=', expired).executeTakeFirstOrThrow()).allocated).toBe(0);
  });

  it('FIFO by receipt date for stock without expiry', async () => {
    const { sku, locations: [newer, older] } = await stocked({ qty: 10, received: '2025-09-01T00:00:00.000Z' }, { qty: 10, received: '2025-03-01T00:00:00.000Z' });
    expect(takes(await allocate(sku, 4))).toEqual([[older, 4]]);
    expect(takes(await allocate(sku, 6))).toEqual([[older, 6]]);
    expect(takes(await allocate(sku, 4))).toEqual([[newer, 4]]);
  });

  it('a requested lot exactly: only that lot, short when it has too little (never another lot)', async () => {
    const { sku, locations: [, wanted] } = await stocked({ qty: 20, lot: 'A', received: '2025-01-01T00:00:00.000Z' }, { qty: 3, lot: 'B' });
    const r = await allocate(sku, 5, { lot: 'B' });
    expect(takes(r)).toEqual([[wanted, 3]]);
    expect(r).toMatchObject({ allocated: 3, short: 2, shortReason: 'no-stock' });
    expect(r.lines[0].place.lot).toBe('B');
  });

  it('prefers one place that fills the line whole over older stock that would split it', async () => {
    const { sku, locations: [, , whole] } = await stocked(
      { qty: 4, received: '2025-01-01T00:00:00.000Z' }, { qty: 3, received: '2025-02-01T00:00:00.000Z' }, { qty: 10, received: '2025-03-01T00:00:00.000Z' });
    const r = await allocate(sku, 6);
    expect(takes(r)).toEqual([[whole, 6]]);
    expect(r.lines[0].locationCode).toMatch(/^L-/);
  });

  it('but expiry still wins: the earlier lot is used up before a later one fills the rest', async () => {
    const { sku, locations: [early, late] } = await stocked({ qty: 4, lot: 'E', expiry: '2026-03-01' }, { qty: 10, lot: 'L', expiry: '2026-09-01' });
    expect(takes(await allocate(sku, 6))).toEqual([[early, 4], [late, 2]]);
  });

  it('when no place fills it whole, the fewest places: the largest first, then the first that fills the rest', async () => {
    const { sku, locations: [, b, c] } = await stocked(
      { qty: 2, received: '2025-01-01T00:00:00.000Z' }, { qty: 5, received: '2025-02-01T00:00:00.000Z' },
      { qty: 4, received: '2025-03-01T00:00:00.000Z' }, { qty: 3, received: '2025-04-01T00:00:00.000Z' });
    expect(takes(await allocate(sku, 9))).toEqual([[b, 5], [c, 4]]);
  });

  it('package lines take whole packages only; a quantity that is not whole packages is refused (422 on quantity)', async () => {
    const { sku, locations: [ten, twelve] } = await stocked({ qty: 10, received: '2025-01-01T00:00:00.000Z' }, { qty: 12, received: '2025-02-01T00:00:00.000Z' });
    expect(takes(await allocate(sku, 12, { multipleOf: 6 }))).toEqual([[twelve, 12]]);
    // 10 free is one package of 6; the other 4 are no whole package.
    const r = await allocate(sku, 12, { multipleOf: 6 });
    expect(takes(r)).toEqual([[ten, 6]]);
    expect(r).toMatchObject({ allocated: 6, short: 6, shortReason: 'no-stock' });
    await expect(allocate(sku, 7, { multipleOf: 6 })).rejects.toMatchObject({ status: 422, details: { quantity: 'A multiple of 6' } });
  });

  it('short without allowPartial: 422 saying why, nothing reserved', async () => {
    const { sku, locations: [loc] } = await stocked({ qty: 3 });
    await expect(allocate(sku, 5, { allowPartial: false })).rejects.toMatchObject({ status: 422, message: 'Not enough stock to allocate' });
    expect((await db().selectFrom('inventory_balance').select('allocated').where('location_id', '=', loc).executeTakeFirstOrThrow()).allocated).toBe(0);
  });
});

describe('stock allocation never takes, and why a line is short', () => {
  it('expired lots only: expired-only', async () => {
    const { sku } = await stocked({ qty: 8, lot: 'X', expiry: '2026-01-01' });
    expect(await allocate(sku, 2)).toMatchObject({ allocated: 0, short: 2, lines: [], shortReason: 'expired-only' });
  });

  it('a quarantine hold on the balance, or a quarantine location: in-quarantine', async () => {
    const { sku, locations: [held, free] } = await stocked({ qty: 8, lot: 'Q' }, { qty: 1 });
    const balance = await balanceOf(held, sku);
    await inTransaction(db(), (uow) => stock().hold(uow, 'QUARANTINE', 'QA-1', wh, { balanceIds: [balance] }, actor));
    const r = await allocate(sku, 3);
    expect(takes(r)).toEqual([[free, 1]]);
    expect(r.shortReason).toBe('in-quarantine');
    const damaged = await stocked({ qty: 5, type: 'quarantine' });
    expect(await allocate(damaged.sku, 1)).toMatchObject({ allocated: 0, shortReason: 'in-quarantine' });
    await inTransaction(db(), (uow) => stock().lift(uow, 'QUARANTINE', 'QA-1'));
    expect(takes(await allocate(sku, 3))).toEqual([[held, 3]]);
  });

  it("a cycle count's hold on the location (this client's or every client's): held-by-count", async () => {
    const { sku, locations: [counted] } = await stocked({ qty: 6 });
    await inTransaction(db(), (uow) => stock().hold(uow, 'CYCLE_COUNT', 'CC-ALLOC', wh, { locationIds: [counted], customerId: cust }, actor));
    expect(await allocate(sku, 2)).toMatchObject({ allocated: 0, shortReason: 'held-by-count' });
    expect(await inTransaction(db(), (uow) => stock().shortReason(uow.tx, { warehouseId: wh, customerId: cust, skuId: sku, today: TODAY }))).toBe('held-by-count');
    await inTransaction(db(), (uow) => stock().lift(uow, 'CYCLE_COUNT', 'CC-ALLOC'));
    await inTransaction(db(), (uow) => stock().hold(uow, 'CYCLE_COUNT', 'CC-ALL', wh, { locationIds: [counted] }, actor));
    expect(await allocate(sku, 2)).toMatchObject({ allocated: 0, shortReason: 'held-by-count' });
    await inTransaction(db(), (uow) => stock().lift(uow, 'CYCLE_COUNT', 'CC-ALL'));
    expect((await allocate(sku, 2)).allocated).toBe(2);
  });

  it('pick-face allocation never takes bulk stock: not-pickable; an inactive location likewise', async () => {
    const { sku, locations: [bulk] } = await stocked({ qty: 9, pickable: false });
    expect(await allocate(sku, 2, { locations: 'pickable' })).toMatchObject({ allocated: 0, shortReason: 'not-pickable' });
    expect(takes(await allocate(sku, 2, { locations: 'bulk' }))).toEqual([[bulk, 2]]);
    const parked = await stocked({ qty: 4 });
    await db().updateTable('location').set({ is_active: 0 }).where('id', '=', parked.locations[0]).execute();
    expect(await allocate(parked.sku, 1)).toMatchObject({ allocated: 0, shortReason: 'not-pickable' });
  });

  it('the main reason is the one holding back most units; nothing at all: no-stock', async () => {
    const { sku, locations: [, counted] } = await stocked({ qty: 2, lot: 'OLD', expiry: '2025-12-01' }, { qty: 7 });
    await inTransaction(db(), (uow) => stock().hold(uow, 'CYCLE_COUNT', 'CC-MAIN', wh, { locationIds: [counted] }, actor));
    expect((await allocate(sku, 1)).shortReason).toBe('held-by-count');
    await inTransaction(db(), (uow) => stock().lift(uow, 'CYCLE_COUNT', 'CC-MAIN'));
    const none = await makeSku(t.database, cust);
    expect(await allocate(none, 1)).toMatchObject({ allocated: 0, short: 1, shortReason: 'no-stock' });
  });

  it('freeStock: what allocation could take now, per SKU (held, expired and allocated units left out; 0 for none)', async () => {
    const a = await stocked({ qty: 10 }, { qty: 5, lot: 'GONE', expiry: '2025-01-01' }, { qty: 4 });
    const inspected = await balanceOf(a.locations[2], a.sku);
    await inTransaction(db(), (uow) => stock().hold(uow, 'INSPECTION', 'INS-1', wh, { balanceIds: [inspected] }, actor));
    await allocate(a.sku, 3);
    const b = await stocked({ qty: 6, pickable: false });
    const none = await makeSku(t.database, cust);
    const free = await stock().freeStock(db(), { warehouseId: wh, customerId: cust, skuIds: [a.sku, b.sku, none], today: TODAY });
    expect([...free]).toEqual([[a.sku, 7], [b.sku, 6], [none, 0]]);
    const pickable = await stock().freeStock(db(), { warehouseId: wh, customerId: cust, skuIds: [b.sku], today: TODAY, locations: 'pickable' });
    expect(pickable.get(b.sku)).toBe(0);
  });
});

describe('allocateMany', () => {
  it('serves lines in the order given when they compete for a SKU, each with its own reservations and answer', async () => {
    const { sku, locations: [small, large] } = await stocked({ qty: 4, received: '2025-01-01T00:00:00.000Z' }, { qty: 6, received: '2025-02-01T00:00:00.000Z' });
    const other = await stocked({ qty: 3 });
    const owner = (line: string) => ({ documentType: 'REPLENISHMENT' as const, documentId: 'MANY-1', documentLine: line });
    const line = (documentLine: string, skuId: number, quantity: number) => ({ owner: owner(documentLine), warehouseId: wh, customerId: cust, skuId, quantity, today: TODAY, allowPartial: true });
    const [first, second, third, fourth] = await inTransaction(db(), (uow) => stock().allocateMany(uow, [line('1', sku, 5), line('2', sku, 4), line('3', other.sku, 2), line('4', sku, 3)]));
    expect(takes(first)).toEqual([[large, 5]]);
    expect(takes(second)).toEqual([[small, 4]]);
    expect(takes(third)).toEqual([[other.locations[0], 2]]);
    expect(fourth).toMatchObject({ allocated: 1, short: 2, shortReason: 'no-stock' });
    expect(takes(fourth)).toEqual([[large, 1]]);
    const reserved = await db().selectFrom('stock_reservation').select(['document_line', 'balance_id', 'quantity']).where('document_id', '=', 'MANY-1').orderBy('document_line').execute();
    expect(reserved.map((r) => [r.document_line, r.quantity])).toEqual([['1', 5], ['2', 4], ['3', 2], ['4', 1]]);
  });
});

describe('concurrency', () => {
  it('a hold placed after the candidates were read is not allocated through: the take is refused and the line reads again', async () => {
    const { sku, locations: [first, second] } = await stocked({ qty: 5, received: '2025-01-01T00:00:00.000Z' }, { qty: 5, received: '2025-02-01T00:00:00.000Z' });
    const read = stockRepository.allocationCandidates;
    // The count starts between this line's read and its take (as another transaction's would).
    const spy = vi.spyOn(stockRepository, 'allocationCandidates').mockImplementationOnce(async (tx, f) => {
      const rows = await read(tx, f);
      await tx.insertInto('stock_hold').values({ warehouse_id: wh, customer_id: null, location_id: first, balance_id: null, hold_type: 'CYCLE_COUNT', document_id: 'CC-RACE', placed_by: null, placed_at: new Date().toISOString() }).execute();
      return rows;
    });
    try {
      expect(takes(await allocate(sku, 4))).toEqual([[second, 4]]);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
    expect((await db().selectFrom('inventory_balance').select('allocated').where('location_id', '=', first).executeTakeFirstOrThrow()).allocated).toBe(0);
    await inTransaction(db(), (uow) => stock().lift(uow, 'CYCLE_COUNT', 'CC-RACE'));
  });

  it('32 parallel allocations of one hot SKU: never more than on hand, reservations = allocated = what was answered', async () => {
    const { sku } = await stocked({ qty: 30 }, { qty: 24, lot: 'L1', expiry: '2026-08-01' }, { qty: 18, received: '2025-01-01T00:00:00.000Z' });
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) => allocate(sku, i % 2 ? 6 : 5, { multipleOf: i % 2 ? 3 : 1 })));
    const answered = results.reduce((n, r) => n + r.allocated, 0);
    for (const r of results) expect(r.lines.reduce((n, l) => n + l.quantity, 0)).toBe(r.allocated);
    const balances = await db().selectFrom('inventory_balance').select(['on_hand', 'allocated']).where('sku_id', '=', sku).execute();
    for (const b of balances) expect(b.allocated).toBeLessThanOrEqual(b.on_hand);
    expect(balances.reduce((n, b) => n + b.allocated, 0)).toBe(answered);
    // Nothing lost or doubled: what is left free is exactly what the lines did not take.
    expect((await allocate(sku, 1000)).allocated).toBe(72 - answered);
    const reserved = await db().selectFrom('stock_reservation').select(sql<number>`sum(quantity)`.as('n')).where('sku_id', '=', sku).executeTakeFirstOrThrow();
    expect(Number(reserved.n)).toBe(72);
    const reconcile = (await admin.get(`/Warehouse/Inventory/Reconcile?warehouseId=${wh}`)).json();
    expect(reconcile.balanced).toBe(true);
  });
});
