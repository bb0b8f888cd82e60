import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS, STATUS_MACHINES, type DocumentKind } from '@bolx/contracts';
import { buildTestApp, makeCustomer, makeLocation, makeSku, makeWarehouse, type TestApp } from '../../test/helpers.js';
import { systemActor } from './actor.js';
import { AppError } from './errors.js';
import { StatusMachine } from './status-machine.js';
import { inTransaction } from './unit-of-work.js';
import { documentNumbers, formatNumber } from './document-numbers.js';

let t: TestApp;
let machine: StatusMachine;
let wh: number, cust: number, sku: number, loc: number;
const actor = { ...systemActor('status test'), userId: null };
const now = () => new Date().toISOString();

/** A bare document of each kind in a status, written straight to its table. */
async function documentOf(kind: DocumentKind, status: string): Promise<number> {
  const db = t.database.db;
  const at = now();
  const tag = Math.random().toString(36).slice(2, 10);
  switch (kind) {
    case 'RECEIVING_ORDER':
      return (await db.insertInto('receiving_order').values({
        ro_number: `T-${tag}`, warehouse_id: wh, customer_id: cust, supplier: 'S', reference_number: '', expected_date: '2030-01-01', status,
        notes: null, created_by: null, created_at: at, updated_at: at, received_at: null, finalized_at: null, closed_at: null, cancelled_at: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'CYCLE_COUNT':
      return (await db.insertInto('cycle_count').values({
        count_no: `T-${tag}`, warehouse_id: wh, customer_id: cust, count_type: 'full', selection: 'sku', location_from: null, location_to: null,
        sku_id: sku, abc_class: null, is_blind: 0, status: status as never, count_date: '2030-01-01', note: null, created_by: null, created_at: at,
        updated_at: at, approved_by: null, approved_at: null, document_id: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'ADJUSTMENT':
      return (await db.insertInto('adjustment_request').values({
        warehouse_id: wh, customer_id: cust, sku_id: sku, location_id: loc, lot: '', pallet: '', expiry_date: null, quantity_change: 1,
        reason_code: 'FOUND', note: null, status: status as never, requested_by: null, requested_at: at, decided_by: null, decided_at: null,
        decision_note: null, document_id: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'REPLENISHMENT_TASK': {
      const rule = await db.insertInto('replenishment_rule').values({
        warehouse_id: wh, customer_id: cust, sku_id: sku, location_id: loc, min_qty: 1, max_qty: 2, is_active: 1, created_at: at, updated_at: at,
      }).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst()
        ?? await db.selectFrom('replenishment_rule').select('id').where('location_id', '=', loc).where('sku_id', '=', sku).executeTakeFirstOrThrow();
      return (await db.insertInto('replenishment_task').values({
        rule_id: rule.id, warehouse_id: wh, customer_id: cust, sku_id: sku, from_location_id: loc, to_location_id: loc, lot: '', pallet: '',
        quantity: 1, moved_qty: null, status: status as never, created_by: null, created_at: at, completed_by: null, completed_at: null, document_id: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    }
    case 'SALES_ORDER':
      return (await db.insertInto('sales_order').values({
        so_number: `T-${tag}`, warehouse_id: wh, customer_id: cust, order_type: 'Sales', reference_number: `T-${tag}`, order_date: '2030-01-01',
        requested_ship_date: null, priority: 5, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null, ship_to_state: null,
        ship_to_zip: null, ship_to_country: null, ship_to_phone: null, ship_to_email: null, carrier_account_id: null, carrier_service: null, notes: null,
        status, source: 'screen', created_by: null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'KIT_WORK_ORDER':
      return (await db.insertInto('kit_work_order').values({
        wo_number: `T-${tag}`, warehouse_id: wh, customer_id: cust, type: 'Build', kit_sku_id: sku, quantity: 1, location_id: loc,
        component_location_id: null, status, notes: null, order_line_id: null, created_by: null, created_at: at, updated_at: at, completed_by: null, completed_at: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'WAVE':
      return (await db.insertInto('wave').values({
        wave_number: `T-${tag}`, warehouse_id: wh, strategy: 'discrete', status, rule_id: null, created_by: null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'PICK_JOB': {
      const wave = await documentOf('WAVE', 'Open');
      return (await db.insertInto('pick_job').values({
        job_number: `T-${tag}`, wave_id: wave, warehouse_id: wh, strategy: 'discrete', zone: null, status, assigned_to: null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow()).id;
    }
    case 'SHIPMENT':
      return (await db.insertInto('shipment').values({
        shipment_number: `T-${tag}`, kind: 'manual', warehouse_id: wh, customer_id: cust, order_id: null, carrier_account_id: null, adapter: null, service_code: null,
        service_name: null, status, reference: null, ship_to_name: null, ship_to_address1: null, ship_to_address2: null, ship_to_city: null, ship_to_state: null,
        ship_to_zip: null, ship_to_country: null, rate_minor: null, rate_reason: null, exception: null, ship_day: null, manifest_id: null, created_by: null,
        created_at: at, updated_at: at, labelled_at: null, shipped_at: null, closed_at: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'INVOICE':
      return (await db.insertInto('invoice').values({
        kind: 'invoice', invoice_number: null, status, warehouse_id: wh, customer_id: cust, period_kind: 'custom', period_from: '2030-01-01', period_to: '2030-01-31',
        currency: 'USD', run_job_id: null, run_message: null, credits_invoice_id: null, reason: null, created_by: null, updated_at: at, finalized_at: null, finalized_by: null,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'RMA': {
      const order = await documentOf('SALES_ORDER', 'Shipped');
      return (await db.insertInto('rma').values({
        rma_number: `T-${tag}`, warehouse_id: wh, customer_id: cust, order_id: order, status, resolution: 'refund', expires_on: '2030-01-01',
        tracking_number: null, carrier: null, notes: null, created_by: null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow()).id;
    }
    case 'FREIGHT_SHIPMENT':
      return (await db.insertInto('freight_shipment').values({
        ship_number: `T-${tag}`, bol_number: `T-${tag}`, warehouse_id: wh, customer_id: cust, status, consignee_name: 'C', consignee_address1: 'A',
        consignee_address2: null, consignee_city: 'C', consignee_state: 'S', consignee_zip: 'Z', consignee_country: 'US', consignee_phone: null,
        consignee_location_number: null, bill_to_name: null, bill_to_address1: null, bill_to_address2: null, bill_to_city: null, bill_to_state: null,
        bill_to_zip: null, bill_to_country: null, bill_to_phone: null, bill_to_location_number: null, carrier_name: 'C', scac: 'ABCD', pro_number: null,
        trailer_number: null, seal_number: null, charge_terms: 'Prepaid', cod_amount_minor: null, declared_value_minor: null, declared_value_per: null,
        special_instructions: null, pickup_date: null, pickup_window_from: null, pickup_window_to: null, dock_door: null, created_by: null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow()).id;
    case 'TICKET':
      return (await db.insertInto('ticket').values({
        ticket_number: `T-${tag}`, warehouse_id: wh, customer_id: cust, title: 'T', description: null, category: 'other', priority: 'Normal', status,
        assignee_id: null, link_kind: null, link_id: null, due_at: at, created_by: null, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow()).id;
  }
}

type Table = { initial: readonly string[]; statuses: Record<string, { next: readonly string[] }> };
const tableOf = (kind: DocumentKind) => STATUS_MACHINES[kind] as unknown as Table;
/** A status with no way on, and one of the table's legal moves. */
const terminal = (kind: DocumentKind) => Object.entries(tableOf(kind).statuses).find(([, s]) => s.next.length === 0)![0];
const legalMove = (kind: DocumentKind) => {
  const [from, s] = Object.entries(tableOf(kind).statuses).find(([, x]) => x.next.length > 0)!;
  return { from, to: s.next[0] };
};
const history = (kind: DocumentKind, id: number) =>
  t.database.db.selectFrom('document_status_history').select(['from_status', 'to_status', 'username', 'reason']).where('kind', '=', kind)
    .where('document_id', '=', id).orderBy('id').execute();
const statusOf = async (kind: DocumentKind, id: number) => {
  const tables = { RECEIVING_ORDER: 'receiving_order', CYCLE_COUNT: 'cycle_count', ADJUSTMENT: 'adjustment_request', REPLENISHMENT_TASK: 'replenishment_task', SALES_ORDER: 'sales_order', KIT_WORK_ORDER: 'kit_work_order', WAVE: 'wave', PICK_JOB: 'pick_job', SHIPMENT: 'shipment', INVOICE: 'invoice', RMA: 'rma', FREIGHT_SHIPMENT: 'freight_shipment', TICKET: 'ticket' } as const;
  return (await t.database.db.selectFrom(tables[kind]).select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
};
const caught = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (e: unknown) => e as AppError);

beforeAll(async () => {
  t = await buildTestApp();
  machine = new StatusMachine({ dialect: t.database.dialect, recorder: t.app.services.recorder });
  wh = await makeWarehouse(t.database);
  cust = await makeCustomer(t.database, [wh]);
  sku = await makeSku(t.database, cust);
  loc = await makeLocation(t.database, wh);
});
afterAll(async () => { await t?.close(); });

describe('the status machine', () => {
  it.each(DOCUMENT_KINDS)('%s: an illegal transition answers 409 naming both statuses, changes nothing and writes no history', async (kind) => {
    const status = terminal(kind);
    const id = await documentOf(kind, status);
    const to = legalMove(kind).to;
    const err = await caught(inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind, id, to: to as never })));
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(409);
    expect(err.message).toContain(status);
    expect(err.message).toContain(to);
    expect(err.details).toEqual({ status, requestedStatus: to });
    expect(await statusOf(kind, id)).toBe(status);
    expect(await history(kind, id)).toEqual([]);
    const missing = await caught(inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind, id: id + 100_000, to: to as never })));
    expect(missing.status).toBe(404);
  });

  it.each(DOCUMENT_KINDS)('%s: a legal transition moves the row, writes one history row with who and why, and raises document.status-changed', async (kind) => {
    const { from, to } = legalMove(kind);
    const id = await documentOf(kind, from);
    const raised: unknown[] = [];
    const stop = t.app.services.domainEvents.afterCommit('document.status-changed', `status test ${kind}`, (payload) => { raised.push(payload); });
    try {
      const row = await inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind, id, to: to as never, reason: 'because' }));
      expect(row).toMatchObject({ id, status: to, previous_status: from });
    } finally {
      stop();
    }
    expect(await statusOf(kind, id)).toBe(to);
    expect(await history(kind, id)).toEqual([{ from_status: from, to_status: to, username: 'status test', reason: 'because' }]);
    // Waves and pick jobs are a warehouse's, not one customer's.
    const customerId = kind === 'WAVE' || kind === 'PICK_JOB' ? undefined : cust;
    expect(raised).toEqual([{ kind, documentId: id, from, to, warehouseId: wh, customerId }]);
  });

  it('holds a document already in the target status without a history row, and moves one that is not', async () => {
    const id = await documentOf('RECEIVING_ORDER', 'Open');
    const move = () => inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind: 'RECEIVING_ORDER', id, to: 'Receiving', from: ['Open', 'Receiving'], set: { updated_at: now() } }));
    expect(await move()).toMatchObject({ status: 'Receiving', previous_status: 'Open' });
    expect(await move()).toMatchObject({ status: 'Receiving', previous_status: 'Receiving' });
    expect(await history('RECEIVING_ORDER', id)).toEqual([{ from_status: 'Open', to_status: 'Receiving', username: 'status test', reason: null }]);
  });

  it('refuses a source the table does not allow as a programming error, before touching the row', async () => {
    const id = await documentOf('RECEIVING_ORDER', 'Closed');
    await expect(inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind: 'RECEIVING_ORDER', id, to: 'Cancelled', from: ['Closed'] })))
      .rejects.toThrow(/no transition Closed → Cancelled/);
  });

  it('lets one of many concurrent transitions of a document through; the rest answer 409, and one history row is written', async () => {
    const id = await documentOf('REPLENISHMENT_TASK', 'Open');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => inTransaction(t.database.db, (uow) =>
      machine.transition(uow, actor, { kind: 'REPLENISHMENT_TASK', id, to: i % 2 ? 'Completed' : 'Cancelled' }))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as AppError).status)).toEqual(Array(7).fill(409));
    expect(await history('REPLENISHMENT_TASK', id)).toHaveLength(1);
  });

  it('records the change passed with the transition in its transaction, and none when the transition is refused', async () => {
    const events = await t.database.db.selectFrom('event_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const id = await documentOf('ADJUSTMENT', 'Pending');
    const change = (r: Record<string, unknown>) => ({
      audit: { action: 'reject', entity: 'adjustment_request', entityId: id, after: { status: r.status } },
      events: { target: 'ReceiveAdjustmentData' as const, payload: { subEvent: 'AdjustmentRejected' as const, payload: { adjustmentId: id, status: String(r.status) } }, warehouseId: wh, customerId: cust },
    });
    await inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind: 'ADJUSTMENT', id, to: 'Rejected', change }));
    await caught(inTransaction(t.database.db, (uow) => machine.transition(uow, actor, { kind: 'ADJUSTMENT', id, to: 'Approved', change })));
    const audit = await t.database.db.selectFrom('audit_log').select('after_json').where('entity', '=', 'adjustment_request').where('entity_id', '=', String(id)).execute();
    expect(audit.map((a) => JSON.parse(a.after_json!))).toEqual([{ status: 'Rejected' }]);
    const after = await t.database.db.selectFrom('event_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(events.n)).toBe(1);
  });
});

describe('document numbers', () => {
  it('keep each kind\'s format', () => {
    expect(formatNumber('RO', 123)).toBe('RO-000123');
    expect(formatNumber('CC', 1234567)).toBe('CC-1234567');
    expect(formatNumber('ADJ', 42)).toBe('ADJ-42');
    expect(formatNumber('INV', 7)).toBe('INV-000007');
  });

  it('hand 32 concurrent writers 32 different numbers, and each scope its own series', async () => {
    const taken = await Promise.all(Array.from({ length: 32 }, () => inTransaction(t.database.db, (uow) => documentNumbers.next(uow, 'SO'))));
    expect(new Set(taken.map((n) => n.number)).size).toBe(32);
    expect(taken.map((n) => n.value).sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    const a = await inTransaction(t.database.db, (uow) => documentNumbers.next(uow, 'WAVE', { warehouseId: 1 }));
    const b = await inTransaction(t.database.db, (uow) => documentNumbers.next(uow, 'WAVE', { warehouseId: 2 }));
    expect([a.number, b.number]).toEqual(['WAVE-000001', 'WAVE-000001']);
  });

  it('leave no gap in a gap-free kind when some of 32 concurrent documents roll back', async () => {
    const rolledBack = new Error('rolled back');
    const results = await Promise.allSettled(Array.from({ length: 32 }, (_, i) => inTransaction(t.database.db, async (uow) => {
      const n = await documentNumbers.next(uow, 'INV');
      // Let others queue behind this one before it decides.
      await new Promise((r) => setTimeout(r, 2));
      if (i % 4 === 1) throw rolledBack;
      return n.value;
    })));
    const kept = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual(Array(8).fill(rolledBack));
    expect(kept.sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const next = await inTransaction(t.database.db, (uow) => documentNumbers.next(uow, 'INV'));
    expect(next.number).toBe('INV-000025');
  });
});
