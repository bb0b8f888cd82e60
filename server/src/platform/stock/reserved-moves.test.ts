import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engine, makeCustomer, makeLocation, makeSku, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { Scope } from '../scope.js';
import { isHubDelivery, statementCounter } from '../../../test/statements.js';
import { systemActor } from '../actor.js';
import { inTransaction } from '../unit-of-work.js';
import type { ReservationOwner } from './stock-engine.js';
import { stockRepository } from './stock.repository.js';
import { classifyDbError } from '../../db/dialect.js';

let t: TestApp;
let wh: number, cust: number;
let seq = 0;
const actor = systemActor('reserved-moves-test');

beforeAll(async () => {
  t = await buildTestApp();
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
});
afterAll(async () => { await t?.close(); });

const stock = () => t.app.services.stock;
const db = () => t.database.db;
const place = (skuId: number, locationId: number, lot = '') => ({ warehouseId: wh, customerId: cust, skuId, locationId, lot, pallet: '' });
const balance = (skuId: number, locationId: number) => db().selectFrom('inventory_balance').select(['on_hand', 'allocated', 'expiry_date'])
  .where('sku_id', '=', skuId).where('location_id', '=', locationId).executeTakeFirst();
const reservedFor = (owner: ReservationOwner) => db().selectFrom('stock_reservation as r').innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
  .select(['b.location_id', 'r.quantity']).where('r.document_type', '=', owner.documentType).where('r.document_id', '=', owner.documentId)
  .where('r.quantity', '>', 0).orderBy('b.location_id').execute();

/** A SKU with `qty` units (lot L1, expiring) in a bin, `reserve` of them allocated to a fresh order line. */
async function reservedInBin(qty: number, reserve: number, sku?: number, lot = { lot: 'L1', expiryDate: '2030-01-01', receivedAt: '2026-01-05T08:00:00.000Z' }) {
  sku ??= await makeSku(t.database, cust);
  const bin = await makeLocation(t.database, wh);
  await inTransaction(db(), (uow) => stock().post(uow, {
    documentType: 'ADJUSTMENT', reason: 'test', record: { after: {} },
    legs: [{ place: place(sku, bin, lot.lot), qty, txnType: 'adjust', expiryDate: lot.expiryDate, receivedAt: lot.receivedAt }],
  }, actor));
  const owner = { documentType: 'SO', documentId: `${900000 + ++seq}`, documentLine: '1' };
  const r = await inTransaction(db(), (uow) => stock().allocate(uow, { owner, warehouseId: wh, customerId: cust, skuId: sku, quantity: reserve, today: '2026-01-01', lot: lot.lot }));
  expect(r.allocated).toBe(reserve);
  return { sku, bin, owner };
}

describe('reserved moves (pick, pack, ship)', () => {
  it('picks reserved units to a tote: the reservation moves with them, lot and expiry kept, the books balance', async () => {
    const { sku, bin, owner } = await reservedInBin(10, 6);
    const tote = await makeLocation(t.database, wh, undefined, 'tote');
    await inTransaction(db(), (uow) => stock().moveReserved(uow, {
      documentType: 'PICK', documentId: 'JOB-T1', reason: null, outType: 'pick_out', inType: 'pick_in', record: { after: {} },
      moves: [{ owner, from: place(sku, bin, 'L1'), to: tote, quantity: 4, documentLine: '77' }],
    }, actor));
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 6, allocated: 2 });
    expect(await balance(sku, tote)).toMatchObject({ on_hand: 4, allocated: 4, expiry_date: '2030-01-01' });
    expect(await reservedFor(owner)).toEqual([{ location_id: bin, quantity: 2 }, { location_id: tote, quantity: 4 }]);
    const ledger = await db().selectFrom('inventory_txn').select(['txn_type', 'qty_change', 'document_line']).where('document_id', '=', 'JOB-T1').orderBy('qty_change').execute();
    expect(ledger).toEqual([{ txn_type: 'pick_out', qty_change: -4, document_line: '77' }, { txn_type: 'pick_in', qty_change: 4, document_line: '77' }]);
    expect((await stock().reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).balanced).toBe(true);
  });

  it('each unit moved keeps its own lot\'s expiry and receipt time, where one move takes two lots of a SKU to one place', async () => {
    const l1 = await reservedInBin(5, 5);
    const l2 = await reservedInBin(5, 5, l1.sku, { lot: 'L2', expiryDate: '2031-06-01', receivedAt: '2026-03-09T10:30:00.000Z' });
    const station = await makeLocation(t.database, wh, undefined, 'staging');
    await inTransaction(db(), (uow) => stock().moveReserved(uow, {
      documentType: 'PACK', documentId: 'CTN-T5', reason: null, outType: 'pack_out', inType: 'pack_in', record: { after: {} },
      moves: [{ owner: l1.owner, from: place(l1.sku, l1.bin, 'L1'), to: station, quantity: 5 }, { owner: l2.owner, from: place(l1.sku, l2.bin, 'L2'), to: station, quantity: 5 }],
    }, actor));
    const arrived = await db().selectFrom('inventory_balance').select(['lot', 'expiry_date', 'received_at', 'on_hand', 'allocated'])
      .where('sku_id', '=', l1.sku).where('location_id', '=', station).orderBy('lot').execute();
    expect(arrived.map((b) => ({ ...b, received_at: new Date(b.received_at!).toISOString() }))).toEqual([
      { lot: 'L1', expiry_date: '2030-01-01', received_at: '2026-01-05T08:00:00.000Z', on_hand: 5, allocated: 5 },
      { lot: 'L2', expiry_date: '2031-06-01', received_at: '2026-03-09T10:30:00.000Z', on_hand: 5, allocated: 5 },
    ]);
    // The ledger's arrival rows say so too (what a rebuild of the balances reads).
    const rows = await db().selectFrom('inventory_txn').select(['lot', 'expiry_date', 'received_at']).where('document_id', '=', 'CTN-T5').where('qty_change', '>', 0).orderBy('lot').execute();
    expect(rows.map((r) => [r.lot, r.expiry_date, new Date(r.received_at!).toISOString()])).toEqual([
      ['L1', '2030-01-01', '2026-01-05T08:00:00.000Z'], ['L2', '2031-06-01', '2026-03-09T10:30:00.000Z']]);
    expect((await stock().reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).balanced).toBe(true);
  });

  it('ships reserved units out of the building (to null): on hand and reservation gone, nothing else touched', async () => {
    const { sku, bin, owner } = await reservedInBin(10, 5);
    await inTransaction(db(), (uow) => stock().moveReserved(uow, {
      documentType: 'SHIP', documentId: 'SO-T2', reason: null, outType: 'ship', record: { after: {} },
      moves: [{ owner, from: place(sku, bin, 'L1'), to: null, quantity: 5 }],
    }, actor));
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 5, allocated: 0 });
    expect(await reservedFor(owner)).toEqual([]);
    expect((await stock().reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).balanced).toBe(true);
  });

  it('refuses (409) to move more than is reserved for the line at that place, and changes nothing', async () => {
    const { sku, bin, owner } = await reservedInBin(10, 3);
    const tote = await makeLocation(t.database, wh, undefined, 'tote');
    const other = { ...owner, documentLine: '2' };
    // The refusal says how many units are reserved there (PostgreSQL finds out only once its one statement fell short).
    const one = await reservedInBin(2, 1);
    for (const { said, from, ...move } of [
      { owner, quantity: 4, said: 'Only 3 units reserved here for this line; 4 asked' },
      { owner: other, quantity: 1, said: 'Only 0 units reserved here for this line; 1 asked' },
      { owner: one.owner, quantity: 2, from: place(one.sku, one.bin, 'L1'), said: 'Only 1 unit reserved here for this line; 2 asked' },
    ]) {
      await expect(inTransaction(db(), (uow) => stock().moveReserved(uow, {
        documentType: 'PICK', documentId: 'JOB-T3', reason: null, outType: 'pick_out', inType: 'pick_in', record: { after: {} },
        moves: [{ ...move, from: from ?? place(sku, bin, 'L1'), to: tote }],
      }, actor))).rejects.toMatchObject({ status: 409, message: said });
    }
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 10, allocated: 3 });
    expect(await balance(sku, tote)).toBeUndefined();
    expect(await reservedFor(owner)).toEqual([{ location_id: bin, quantity: 3 }]);
  });

  it('refuses (409) a move whose balance has less allocated than its reservation gives back, and changes nothing', async () => {
    const { sku, bin, owner } = await reservedInBin(10, 3);
    const tote = await makeLocation(t.database, wh, undefined, 'tote');
    // Books out of step (never written so by the engine): the bin's balance holds 1 allocated under a reservation of 3.
    await db().updateTable('inventory_balance').set({ allocated: 1 }).where('sku_id', '=', sku).where('location_id', '=', bin).execute();
    await expect(inTransaction(db(), (uow) => stock().moveReserved(uow, {
      documentType: 'PICK', documentId: 'JOB-T3B', reason: null, outType: 'pick_out', inType: 'pick_in', record: { after: {} },
      moves: [{ owner, from: place(sku, bin, 'L1'), to: tote, quantity: 2 }],
    }, actor))).rejects.toMatchObject({ status: 409, message: 'Less stock is reserved here than is being moved' });
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 10, allocated: 1 });
    expect(await reservedFor(owner)).toEqual([{ location_id: bin, quantity: 3 }]);
    await db().updateTable('inventory_balance').set({ allocated: 3 }).where('sku_id', '=', sku).where('location_id', '=', bin).execute();
  });

  it('moves many lines at once in the same number of statements as few', async () => {
    const station = await makeLocation(t.database, wh, undefined, 'staging');
    const statementsFor = async (n: number): Promise<string[]> => {
      const lines: Awaited<ReturnType<typeof reservedInBin>>[] = [];
      for (let i = 0; i < n; i++) lines.push(await reservedInBin(5, 5));
      const counter = statementCounter(t.database.sqlite);
      try {
        await inTransaction(db(), (uow) => stock().moveReserved(uow, {
          documentType: 'PACK', documentId: `CTN-T4-${n}`, reason: null, outType: 'pack_out', inType: 'pack_in', record: { after: {} },
          moves: lines.map((l) => ({ owner: l.owner, from: place(l.sku, l.bin, 'L1'), to: station, quantity: 5 })),
        }, actor));
        // On PostgreSQL the node's listener may load events of earlier postings meanwhile: not this move's statements.
        return counter.take().filter((q) => !isHubDelivery(q));
      } finally {
        counter.restore();
        for (const l of lines) {
          expect(await balance(l.sku, station)).toMatchObject({ on_hand: 5, allocated: 5 });
          expect(await reservedFor(l.owner)).toEqual([{ location_id: station, quantity: 5 }]);
        }
      }
    };
    const [many, few] = [await statementsFor(30), await statementsFor(3)];
    expect(many.length).toBe(few.length);
    if (engine === 'postgres') {
      // Many ledger rows as one array per column (19 parameters for any number), planned in no time where a UNION ALL
      // of a ship confirm's 1,500 rows took 0.7 s to plan; a few as a VALUES list, whose generic plan PostgreSQL keeps.
      const ledger = (texts: string[]) => texts.filter((q) => /INSERT INTO inventory_txn/i.test(q));
      expect(ledger(many)).toHaveLength(1);
      expect(ledger(few)).toHaveLength(1);
      expect(ledger(many)[0]).toContain('unnest(');
      expect(ledger(few)[0]).not.toContain('unnest(');
    }
    expect((await stock().reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).balanced).toBe(true);
  });
  it('releasePart gives back part of a reservation at a place: the units become free, the books balance; more than reserved is refused', async () => {
    const { sku, bin, owner } = await reservedInBin(10, 6);
    await inTransaction(db(), (uow) => stock().releasePart(uow, [{ owner, place: place(sku, bin, 'L1'), quantity: 4 }]));
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 10, allocated: 2 });
    expect(await reservedFor(owner)).toEqual([{ location_id: bin, quantity: 2 }]);
    await expect(inTransaction(db(), (uow) => stock().releasePart(uow, [{ owner, place: place(sku, bin, 'L1'), quantity: 3 }])))
      .rejects.toMatchObject({ status: 409 });
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 10, allocated: 2 });
    expect((await stock().reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).balanced).toBe(true);
  });

  it('an undone pick goes back onto the bin pallet it came from (toPallet)', async () => {
    const sku = await makeSku(t.database, cust);
    const bin = await makeLocation(t.database, wh);
    const tote = await makeLocation(t.database, wh, undefined, 'tote');
    const onPallet = { ...place(sku, bin), pallet: 'PAL-1' };
    await inTransaction(db(), (uow) => stock().post(uow, { documentType: 'ADJUSTMENT', reason: 'test', record: { after: {} }, legs: [{ place: onPallet, qty: 5, txnType: 'adjust' }] }, actor));
    const owner = { documentType: 'SO', documentId: `${900000 + ++seq}`, documentLine: '1' };
    await inTransaction(db(), (uow) => stock().allocate(uow, { owner, warehouseId: wh, customerId: cust, skuId: sku, quantity: 5, today: '2026-01-01' }));
    const move = (from: typeof onPallet, to: number, toPallet?: string) => inTransaction(db(), (uow) => stock().moveReserved(uow, {
      documentType: 'PICK', documentId: 'JOB-T6', reason: null, outType: 'pick_out', inType: 'pick_in', record: { after: {} },
      moves: [{ owner, from, to, quantity: 5, toPallet }],
    }, actor));
    await move(onPallet, tote);
    await move(place(sku, tote), bin, 'PAL-1');
    const rows = await db().selectFrom('inventory_balance').select(['location_id', 'pallet', 'on_hand', 'allocated']).where('sku_id', '=', sku).where('on_hand', '>', 0).execute();
    expect(rows).toEqual([{ location_id: bin, pallet: 'PAL-1', on_hand: 5, allocated: 5 }]);
    expect((await stock().reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).balanced).toBe(true);
  });

  it('on PostgreSQL the reservation where moved units arrive checks itself (it is sent with the next statement): none found fails the whole transaction with a 409', async () => {
    if (t.database.dialect.engine !== 'postgres') return; // SQLite reserves there in statements answered at once
    const { sku, bin } = await reservedInBin(10, 0);
    const tote = await makeLocation(t.database, wh, undefined, 'tote');
    const owner = { documentType: 'SO', documentId: `${900000 + ++seq}`, documentLine: '1' };
    const err = await inTransaction(db(), async (uow) => {
      // A move that does land (the bin's units to the tote) and, in the same transaction, a reservation of units at a
      // place where none arrived: the tote's balance of another lot.
      await stock().post(uow, { documentType: 'ADJUSTMENT', reason: 'test', record: { after: {} }, legs: [
        { place: place(sku, bin, 'L1'), qty: -3, txnType: 'move_out' }, { place: place(sku, tote, 'L1'), qty: 3, txnType: 'move_in' }] }, actor);
      await stockRepository.allocateArrivedAndReserve(uow.tx, [{ place: place(sku, tote, 'NO-SUCH-LOT'), quantity: 3 }],
        [{ owner, place: place(sku, tote, 'NO-SUCH-LOT'), quantity: 3 }], new Date().toISOString());
    }).then(() => null, (e: unknown) => e);
    expect(err).not.toBeNull();
    expect(classifyDbError(err)).toBe('conflict');
    expect(String((err as Error).message)).toBe('conflict:The stock moved could not be reserved where it arrived');
    // Nothing of the transaction stayed: the bin keeps its 10, the tote has none.
    expect(await balance(sku, bin)).toMatchObject({ on_hand: 10, allocated: 0 });
    expect((await balance(sku, tote))?.on_hand ?? 0).toBe(0);
    expect(await reservedFor(owner)).toEqual([]);
  });
});
