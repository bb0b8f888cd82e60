import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engine, makeCustomer, makeLocation, makeSku, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { systemActor } from '../actor.js';
import { inTransaction, type UnitOfWork } from '../unit-of-work.js';
import { stockRepository } from './stock.repository.js';

// One lock order for stock balances: by id. Allocation locks a SKU's balances ORDER BY id FOR UPDATE; a posting
// used to lock its balances in place order (its ledger rows, through migration 0014's trigger), a reserved move
// its sources first and where the units arrive after. Each test sets up balances whose id order is the opposite
// of the path's old order, holds the lowest id as an id-order locker would (an allocation halfway), starts the
// path, and once the path waits, takes the rest in id order as allocation does. Before: the path held the higher
// id and waited for the lower, the locker waited for the higher — a deadlock, PostgreSQL aborting one of them
// (the path's transaction ran twice, the unit of work retrying it). Now the path waits for the lowest id holding
// nothing, and runs once. PostgreSQL only: SQLite has one writer, whose transactions never wait on each other.
describe.skipIf(engine !== 'postgres')('stock balances are locked in one order, by id (PostgreSQL)', () => {
  let t: TestApp;
  let wh: number, cust: number;
  const actor = systemActor('lock-order-test');
  const db = () => t.database.db;
  const stock = () => t.app.services.stock;
  const place = (skuId: number, locationId: number) => ({ warehouseId: wh, customerId: cust, skuId, locationId, lot: '', pallet: '' });

  beforeAll(async () => {
    t = await buildTestApp();
    wh = await makeWarehouse(t.database);
    cust = await makeCustomer(t.database, [wh]);
  });
  afterAll(async () => { await t?.close(); });

  /** Posts `qty` units (negative: takes) at a place; answers its balance's id. */
  async function put(skuId: number, locationId: number, qty: number, expiryDate?: string) {
    await inTransaction(db(), (uow) => stock().post(uow, {
      documentType: 'ADJUSTMENT', reason: 'lock order test', record: { after: {} },
      legs: [{ place: place(skuId, locationId), qty, txnType: 'adjust', expiryDate }],
    }, actor));
    return (await db().selectFrom('inventory_balance').select('id').where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirstOrThrow()).id;
  }

  /**
   * Holds balance `low` in a transaction of its own, runs `path` in a unit of work (counting its attempts), waits
   * until the path waits on that transaction, then takes `low` and `high` ORDER BY id FOR UPDATE (allocation's own
   * lockBalances statement when given a SKU). Answers how many times the path's transaction ran.
   */
  async function againstIdOrder(low: number, high: number, path: (uow: UnitOfWork) => Promise<unknown>, sku?: number) {
    expect(low).toBeLessThan(high);
    let attempts = 0;
    let running: Promise<unknown> | undefined;
    await db().transaction().execute(async (tx) => {
      const { rows: [me] } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx);
      await sql`SELECT id FROM inventory_balance WHERE id = ${low} FOR UPDATE`.execute(tx);
      running = inTransaction(db(), (uow) => { attempts++; return path(uow); });
      running.catch(() => {}); // awaited below
      for (let i = 0; ; i++) {
        const { rows: [w] } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${me.pid} = ANY(pg_blocking_pids(pid))`.execute(db());
        if (w.n > 0) break;
        if (i > 400) throw new Error('the path never waited for the balance held');
        await new Promise((r) => setTimeout(r, 25));
      }
      if (sku) await stockRepository.lockBalances(tx, t.database.dialect, { warehouseId: wh, customerId: cust, skuIds: [sku] });
      else await sql`SELECT id FROM inventory_balance WHERE id IN (${low}, ${high}) ORDER BY id FOR UPDATE`.execute(tx);
    });
    await running;
    return attempts;
  }

  it('a move whose destination comes first by place and last by id: no deadlock with an allocation', async () => {
    const sku = await makeSku(t.database, cust);
    const [a, b] = [await makeLocation(t.database, wh), await makeLocation(t.database, wh)];
    const low = await put(sku, b, 10); // the later location's balance first: the lower id
    const high = await put(sku, a, 10);
    const attempts = await againstIdOrder(low, high, (uow) => stock().post(uow, {
      documentType: 'MOVE', reason: null, record: { after: {} },
      legs: [{ place: place(sku, b), qty: -3, txnType: 'move_out' }, { place: place(sku, a), qty: 3, txnType: 'move_in' }],
    }, actor), sku);
    expect(attempts).toBe(1);
    const balances = await db().selectFrom('inventory_balance').select(['id', 'on_hand']).where('id', 'in', [low, high]).orderBy('id').execute();
    expect(balances).toEqual([{ id: low, on_hand: 7 }, { id: high, on_hand: 13 }]);
  });

  it('an allocation taking two balances, the higher id first by expiry: no deadlock with another', async () => {
    const sku = await makeSku(t.database, cust);
    const [a, b] = [await makeLocation(t.database, wh), await makeLocation(t.database, wh)];
    const low = await put(sku, b, 5, '2031-01-01');
    const high = await put(sku, a, 5, '2030-01-01'); // expires first: taken first
    const owner = { documentType: 'SO', documentId: 'LOCK-1', documentLine: '1' };
    const attempts = await againstIdOrder(low, high, (uow) => stock().allocate(uow, {
      owner, warehouseId: wh, customerId: cust, skuId: sku, quantity: 8, today: '2026-01-01',
    }));
    expect(attempts).toBe(1);
    const balances = await db().selectFrom('inventory_balance').select(['id', 'allocated']).where('id', 'in', [low, high]).orderBy('id').execute();
    expect(balances).toEqual([{ id: low, allocated: 3 }, { id: high, allocated: 5 }]);
  });

  it('a pick into a tote whose balance is older than the bin\'s: no deadlock with an allocation', async () => {
    const sku = await makeSku(t.database, cust);
    const tote = await makeLocation(t.database, wh, undefined, 'tote');
    const bin = await makeLocation(t.database, wh);
    const low = await put(sku, tote, 1);
    await put(sku, tote, -1); // the tote's balance stays, empty: the lower id
    const high = await put(sku, bin, 10);
    const owner = { documentType: 'SO', documentId: 'LOCK-2', documentLine: '1' };
    await inTransaction(db(), (uow) => stock().allocate(uow, { owner, warehouseId: wh, customerId: cust, skuId: sku, quantity: 4, today: '2026-01-01' }));
    const attempts = await againstIdOrder(low, high, (uow) => stock().moveReserved(uow, {
      documentType: 'PICK', documentId: 'JOB-LOCK', reason: null, outType: 'pick_out', inType: 'pick_in', record: { after: {} },
      moves: [{ owner, from: place(sku, bin), to: tote, quantity: 4 }],
    }, actor), sku);
    expect(attempts).toBe(1);
    const balances = await db().selectFrom('inventory_balance').select(['id', 'on_hand', 'allocated']).where('id', 'in', [low, high]).orderBy('id').execute();
    expect(balances).toEqual([{ id: low, on_hand: 4, allocated: 4 }, { id: high, on_hand: 6, allocated: 0 }]);
  });
});
