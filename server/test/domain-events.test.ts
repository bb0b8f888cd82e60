import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../src/platform/actor.js';
import { ChangeRecorder } from '../src/platform/change-recorder.js';
import { domainEvent, DomainEvents, type DomainEventMap } from '../src/platform/domain-events.js';
import { conflict } from '../src/platform/errors.js';
import { inTransaction } from '../src/platform/unit-of-work.js';
import { ArrivalTally } from './support/arrival-tally.js';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeLocation, makeSku, makeUser, makeWarehouse, type TestApp } from './helpers.js';

// Issue 11 item 4: internal domain events, raised through the change recorder, with subscribers that run in the
// change's transaction (a throw rolls the change back) or after it commits (never after a rollback; an error is
// logged, not raised).

let t: TestApp;
let admin: ReturnType<typeof as>;
let wh: number, cust: number, sku: number, dock: number, rack: number;
const stops: (() => void)[] = [];
const actor = systemActor('domain-events-test');

beforeAll(async () => {
  t = await buildTestApp();
  admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust, 'EVT-SKU');
  dock = await makeLocation(t.database, wh, 'EVT-DOCK', 'dock');
  rack = await makeLocation(t.database, wh, 'EVT-RACK', 'rack');
});
afterEach(() => {
  while (stops.length) stops.pop()!();
});
afterAll(async () => { await t?.close(); });

const services = () => t.app.services;
const rows = async (table: 'audit_log' | 'event_outbox' | 'inventory_txn' | 'receiving_receipt') =>
  Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const auditsOf = (entity: string) => t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', entity).orderBy('id').execute();
const statusChange = (documentId: number): DomainEventMap['document.status-changed'] => ({ kind: 'TEST', documentId, from: 'Open', to: 'Done', warehouseId: wh, customerId: cust });
/** A change of a test document: its audit row, a hub event and a domain event, in one recorder call. */
const change = (documentId: number) => ({
  audit: { action: 'test_change', entity: 'test_document', entityId: documentId, warehouseId: wh, customerId: cust },
  events: { target: 'ReceiveInventoryData' as const, payload: { subEvent: 'Adjust' as const, payload: { document: `T-${documentId}`, skuId: null, locationIds: [] } }, warehouseId: wh, customerId: cust },
  raises: domainEvent('document.status-changed', statusChange(documentId)),
});

async function createOrder(quantity: number) {
  const res = await admin.post('/Warehouse/Receiving/CreateReceivingOrder', {
    warehouseId: wh, customerId: cust, supplier: 'Events Supplier', expectedDeliveryDate: '2030-01-01', lines: [{ skuId: sku, expectedQuantity: quantity }],
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.receivingOrderId as number;
  const lineId = (await t.database.db.selectFrom('receiving_order_line').select('id').where('order_id', '=', id).executeTakeFirstOrThrow()).id;
  return { id, lineId };
}
const receive = (receivingOrderId: number, quantity: number, headers?: Record<string, string>) =>
  admin.post('/Warehouse/Receiving/ReceiveItem', { receivingOrderId, scanCode: 'EVT-SKU', locationId: dock, quantity }, headers);

describe('in-transaction subscribers', () => {
  it('run in the change’s transaction: their writes commit with it', async () => {
    const seen: number[] = [];
    stops.push(services().domainEvents.inTransaction('document.status-changed', 'test.writes', async (payload, { uow, actor: who }) => {
      seen.push(payload.documentId);
      await services().recorder.record(uow, who, { audit: { action: 'reacted', entity: 'test_reaction', entityId: payload.documentId } });
    }));
    await inTransaction(t.database.db, (uow) => services().recorder.record(uow, actor, change(101)));
    expect(seen).toEqual([101]);
    expect((await auditsOf('test_reaction')).map((a) => a.entity_id)).toEqual(['101']);
    expect((await auditsOf('test_document')).map((a) => a.entity_id)).toEqual(['101']);
  });

  it('roll the change back when they throw: no audit row, no hub event, nothing the subscribers wrote', async () => {
    stops.push(services().domainEvents.inTransaction('document.status-changed', 'test.writes-then-refuses', async (payload, { uow, actor: who }) => {
      await services().recorder.record(uow, who, { audit: { action: 'reacted', entity: 'test_reaction', entityId: payload.documentId } });
      throw conflict('The subscriber refuses this change');
    }));
    const [audits, events] = [await rows('audit_log'), await rows('event_outbox')];
    await expect(inTransaction(t.database.db, (uow) => services().recorder.record(uow, actor, change(102)))).rejects.toThrow('The subscriber refuses this change');
    expect([await rows('audit_log'), await rows('event_outbox')]).toEqual([audits, events]);
  });

  it('roll a receipt back through HTTP: the refusal is the answer, and no stock, receipt, audit row or event is left', async () => {
    const { id } = await createOrder(10);
    stops.push(services().domainEvents.inTransaction('receipt.posted', 'test.refuses-receipts', () => { throw conflict('No more arrivals today'); }));
    const before = await Promise.all([rows('inventory_txn'), rows('receiving_receipt'), rows('audit_log'), rows('event_outbox')]);
    for (const headers of [undefined, { 'idempotency-key': randomUUID() }]) {
      const res = await receive(id, 3, headers);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe('No more arrivals today');
    }
    expect(await Promise.all([rows('inventory_txn'), rows('receiving_receipt'), rows('audit_log'), rows('event_outbox')])).toEqual(before);
    const order = (await admin.get(`/Warehouse/Receiving/GetReceivingOrderById?receivingOrderId=${id}`)).json();
    expect(order).toMatchObject({ status: 'Open', receivedQuantity: 0 });
  });
});

describe('after-commit subscribers', () => {
  it('run once after the commit, with the payload and who made the change', async () => {
    const calls: { payload: unknown; username: string | null }[] = [];
    stops.push(services().domainEvents.afterCommit('document.status-changed', 'test.after', (payload, { actor: who }) => {
      calls.push({ payload, username: who.username });
    }));
    await inTransaction(t.database.db, async (uow) => {
      await services().recorder.record(uow, actor, change(201));
      expect(calls).toEqual([]); // not before the commit
    });
    await services().domainEvents.idle();
    expect(calls).toEqual([{ payload: statusChange(201), username: 'domain-events-test' }]);
  });

  it('never run after a rollback', async () => {
    let calls = 0;
    stops.push(services().domainEvents.afterCommit('document.status-changed', 'test.after-rollback', () => { calls++; }));
    await expect(inTransaction(t.database.db, async (uow) => {
      await services().recorder.record(uow, actor, change(202));
      throw new Error('the change fails after recording');
    })).rejects.toThrow('the change fails after recording');
    await services().domainEvents.idle();
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(0);
  });

  it('never run after a keyed request rolls back, and once after it commits, writing in a transaction of their own', async () => {
    const { id } = await createOrder(10);
    const heard: number[] = [];
    stops.push(services().domainEvents.afterCommit('receipt.posted', 'test.after-keyed', async (receipt, { actor: who }) => {
      heard.push(receipt.lines[0].quantity);
      // The request's transaction is over: this one is the subscriber's own, and commits by itself.
      await inTransaction(t.database.db, (uow) => services().recorder.record(uow, who, { audit: { action: 'followed_up', entity: 'test_follow_up', entityId: receipt.receivingOrderId } }));
    }));
    const refuse = services().domainEvents.inTransaction('receipt.posted', 'test.refuse-once', () => { throw conflict('Refused once'); });
    expect((await receive(id, 2, { 'idempotency-key': randomUUID() })).statusCode).toBe(409);
    refuse();
    await services().domainEvents.idle();
    expect(heard).toEqual([]);
    const key = randomUUID();
    expect((await receive(id, 4, { 'idempotency-key': key })).statusCode).toBe(200);
    expect((await receive(id, 4, { 'idempotency-key': key })).statusCode).toBe(200); // a replay changes nothing, raises nothing
    await services().domainEvents.idle();
    expect(heard).toEqual([4]);
    expect((await auditsOf('test_follow_up')).map((a) => [a.entity_id, a.username])).toEqual([[String(id), ADMIN.username]]);
  });

  it('log an error instead of raising it: the committed change stands', async () => {
    const logged: { obj: object; msg: string }[] = [];
    const domainEvents = new DomainEvents({ error: (obj, msg) => logged.push({ obj, msg }) });
    const recorder = new ChangeRecorder(services().events, domainEvents);
    let ran = 0;
    domainEvents.afterCommit('document.status-changed', 'test.fails-late', async () => {
      ran++;
      throw new Error('the mail server is down');
    });
    domainEvents.afterCommit('document.status-changed', 'test.runs-anyway', () => { ran++; });
    await inTransaction(t.database.db, (uow) => recorder.record(uow, actor, change(203)));
    await domainEvents.idle();
    expect(ran).toBe(2);
    expect(logged).toEqual([{ obj: expect.objectContaining({ event: 'document.status-changed', subscriber: 'test.fails-late' }), msg: 'An after-commit domain event subscriber failed' }]);
    expect((await auditsOf('test_document')).map((a) => a.entity_id)).toContain('203');
  });
});

describe('subscribing by name', () => {
  it('refuses a second subscriber of the same name', () => {
    stops.push(services().domainEvents.afterCommit('receipt.posted', 'test.twice', () => {}));
    expect(() => services().domainEvents.inTransaction('stock.posted', 'test.twice', () => {})).toThrow('test.twice is already registered');
  });

  it('a module reacts to receiving’s events without receiving importing or calling it', async () => {
    const tally = new ArrivalTally(services());
    stops.push(() => tally.stop());
    const { id, lineId } = await createOrder(5);
    expect((await receive(id, 3)).statusCode).toBe(200);
    expect((await receive(id, 2)).statusCode).toBe(200);
    await services().domainEvents.idle();
    expect(tally.unitsBySku.get(sku)).toBe(5);
    expect((await auditsOf('arrival_tally')).filter((a) => a.entity_id === String(id))).toHaveLength(2);
    // Finalized, then closed by the putaway of its last units: receiving-order.closed, once.
    expect((await admin.post('/Warehouse/Receiving/FinalizeReceivingOrder', { receivingOrderId: id })).statusCode).toBe(200);
    for (const quantity of [2, 3]) {
      const res = await admin.post('/Warehouse/Receiving/Putaway', { receivingOrderId: id, lineId, fromLocationId: dock, toLocationId: rack, quantity });
      expect(res.statusCode, res.body).toBe(200);
    }
    await services().domainEvents.idle();
    expect(tally.closedOrders).toEqual([id]);
    // The emitter knows nothing of its subscribers.
    const receiving = readFileSync(fileURLToPath(new URL('../src/modules/receiving/receiving.service.ts', import.meta.url)), 'utf8');
    expect(receiving).not.toMatch(/arrival|tally/i);
  });

  it('receive as expected raises one receipt.posted with every line', async () => {
    const received: DomainEventMap['receipt.posted'][] = [];
    stops.push(services().domainEvents.afterCommit('receipt.posted', 'test.as-expected', (receipt) => { received.push(receipt); }));
    const { id, lineId } = await createOrder(7);
    const res = await admin.post('/Warehouse/Receiving/ReceiveAsExpected', { receivingOrderId: id, locationId: dock });
    expect(res.statusCode, res.body).toBe(200);
    await services().domainEvents.idle();
    expect(received).toEqual([expect.objectContaining({
      receivingOrderId: id, warehouseId: wh, customerId: cust, document: res.json().data.document,
      lines: [{ lineId, skuId: sku, locationId: dock, lot: '', expiryDate: null, quantity: 7, damagedQuantity: 0, damagedLocationId: null }],
    })]);
  });

  it('an adjustment reaching the ledger raises adjustment.posted', async () => {
    const posted: DomainEventMap['adjustment.posted'][] = [];
    stops.push(services().domainEvents.afterCommit('adjustment.posted', 'test.adjustments', (p) => { posted.push(p); }));
    const res = await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: sku, locationId: rack, quantityChange: 4, reasonCode: 'FOUND' });
    expect(res.statusCode, res.body).toBe(200);
    await services().domainEvents.idle();
    expect(posted).toEqual([{
      adjustmentId: res.json().data.adjustmentId, document: res.json().data.document, warehouseId: wh, customerId: cust, skuId: sku, locationId: rack, quantityChange: 4, reasonCode: 'FOUND',
    }]);
  });
});

describe('raised where the change happens', () => {
  it('an approved cycle count raises cycle-count.approved with its document', async () => {
    const approved: DomainEventMap['cycle-count.approved'][] = [];
    stops.push(services().domainEvents.afterCommit('cycle-count.approved', 'test.counts', (p) => { approved.push(p); }));
    const countedSku = await makeSku(t.database, cust, 'EVT-COUNTED');
    const bin = await makeLocation(t.database, wh, 'EVT-BIN');
    expect((await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: countedSku, locationId: bin, quantityChange: 6, reasonCode: 'FOUND' })).statusCode).toBe(200);
    const counter = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh], customerIds: [cust], modules: { CycleCount: 'write' } });
    const staff = as(t.app, await login(t.app, counter.username, counter.password));
    const created = await staff.post('/Warehouse/CycleCount/CreateCycleCount', { warehouseId: wh, customerId: cust, countDate: '2026-11-21', selection: 'sku', skuId: countedSku });
    expect(created.statusCode, created.body).toBe(200);
    const { cycleCountId, countNo } = created.json().data.count;
    const [line] = created.json().data.lines;
    for (let round = 0; round < 2; round++) { // a variance is counted, then recounted
      const res = await staff.post('/Warehouse/CycleCount/EnterCounts', { cycleCountId, counts: [{ lineId: line.lineId, quantity: 5 }] });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await admin.post('/Warehouse/CycleCount/ApproveCycleCount', { cycleCountId });
    expect(res.statusCode, res.body).toBe(200);
    await services().domainEvents.idle();
    expect(approved).toEqual([{ cycleCountId, countNo, warehouseId: wh, customerId: cust, document: countNo, varianceLines: 1 }]);
  });

  it('a completed replenishment task raises replenishment-task.completed', async () => {
    const completed: DomainEventMap['replenishment-task.completed'][] = [];
    stops.push(services().domainEvents.afterCommit('replenishment-task.completed', 'test.replenishment', (p) => { completed.push(p); }));
    const faceSku = await makeSku(t.database, cust, 'EVT-FACE');
    const face = await makeLocation(t.database, wh, 'EVT-FACE');
    const bulk = await makeLocation(t.database, wh, 'EVT-BULK');
    await t.database.db.updateTable('location').set({ is_pickable: 0 }).where('id', '=', bulk).execute();
    expect((await admin.post('/Warehouse/Adjustment/CreateAdjustment', { warehouseId: wh, customerId: cust, skuId: faceSku, locationId: bulk, quantityChange: 40, reasonCode: 'FOUND' })).statusCode).toBe(200);
    const place = { warehouseId: wh, customerId: cust, skuId: faceSku, locationId: face };
    expect((await admin.post('/Warehouse/Replenishment/SaveReplenishmentRule', { ...place, minQty: 5, maxQty: 20 })).statusCode).toBe(200);
    const generated = await admin.post('/Warehouse/Replenishment/GenerateTasks', { warehouseId: wh, customerId: cust });
    expect(generated.statusCode, generated.body).toBe(200);
    const [task] = generated.json().data.created;
    const res = await admin.post('/Warehouse/Replenishment/CompleteTask', { taskId: task.taskId });
    expect(res.statusCode, res.body).toBe(200);
    await services().domainEvents.idle();
    expect(completed).toEqual([{
      taskId: task.taskId, document: `RPL-${task.taskId}`, warehouseId: wh, customerId: cust, skuId: faceSku, fromLocationId: bulk, toLocationId: face, quantity: 20,
    }]);
  });
});

describe('typed payloads', () => {
  it('a payload must match its event’s name (checked by tsc -p server)', () => {
    const checks = () => {
      // @ts-expect-error receivingOrderId is a number
      domainEvent('receiving-order.closed', { receivingOrderId: 'RO-1', roNumber: 'RO-1', warehouseId: 1, customerId: 1 });
      // @ts-expect-error an event nobody declared
      domainEvent('order.shipped', {});
      services().domainEvents.afterCommit('adjustment.posted', 'never-registered', (p) => {
        const units: number = p.quantityChange;
        // @ts-expect-error an adjustment carries no lines
        void p.lines;
        void units;
      });
      // @ts-expect-error the recorder's raise is typed by name too
      void services().recorder.raise(undefined!, actor, 'cycle-count.approved', { cycleCountId: 1 });
    };
    expect(typeof checks).toBe('function'); // never run: what it proves, it proves at compile time
  });
});
