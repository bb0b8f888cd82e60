import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rate, StockTxnType } from '@bolx/contracts';
import { buildTestApp, makeSku, type TestApp } from '../../../test/helpers.js';
import { floor, type Floor } from '../../../test/support/floor-fixtures.js';
import { systemActor } from '../../platform/actor.js';
import type { JobContext } from '../../platform/jobs/index.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { FloorEvent } from '../../platform/floor-events.js';
import { CompiledQuery, sql } from 'kysely';
import { materialise } from './accrual.js';
import { billingRepository } from './billing.repository.js';
import { candidatesOf, windowRowsOf } from './charge-sql.js';

// The live accrual against real runs: what GetUnbilled says equals a run of the month so far, before the
// accrual's materialisation (every row read), after it (its counts plus the rows since: orders shipping more
// units, receipts and cartons of keys already counted, reversals and voids of sources on either side of the
// mark), and after a final invoice (only what came after it).
let t: TestApp;
const B = '/Warehouse/Billing';
const db = () => t.database.db;
const actor = systemActor('accrual test');

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const today = new Date().toISOString().slice(0, 10);
const first = `${today.slice(0, 8)}01`;

const RATES: Rate[] = [
  { chargeType: 'receiving_unit', qualifier: '', rateMinor: 10, markupBp: 0 },
  { chargeType: 'receiving_order', qualifier: '', rateMinor: 500, markupBp: 0 },
  { chargeType: 'receiving_line', qualifier: '', rateMinor: 100, markupBp: 0 },
  { chargeType: 'receiving_pallet', qualifier: '', rateMinor: 200, markupBp: 0 },
  { chargeType: 'receiving_carton', qualifier: '', rateMinor: 35, markupBp: 0 },
  { chargeType: 'order', qualifier: '', rateMinor: 150, markupBp: 0 },
  { chargeType: 'order_first_unit', qualifier: '', rateMinor: 50, markupBp: 0 },
  { chargeType: 'order_additional_unit', qualifier: '', rateMinor: 20, markupBp: 0 },
  { chargeType: 'order_line', qualifier: '', rateMinor: 5, markupBp: 0 },
  { chargeType: 'order_carton', qualifier: '', rateMinor: 30, markupBp: 0 },
  { chargeType: 'label_fee', qualifier: '', rateMinor: 25, markupBp: 0 },
  { chargeType: 'carrier_markup', qualifier: '', rateMinor: 0, markupBp: 1250 },
  { chargeType: 'return_rma', qualifier: '', rateMinor: 300, markupBp: 0 },
  { chargeType: 'return_unit', qualifier: '', rateMinor: 40, markupBp: 0 },
  { chargeType: 'return_disposition', qualifier: 'restock', rateMinor: 15, markupBp: 0 },
  { chargeType: 'kit_build', qualifier: '', rateMinor: 75, markupBp: 0 },
  { chargeType: 'storage_pallet_day', qualifier: '', rateMinor: 100, markupBp: 0 },
  { chargeType: 'storage_location_month', qualifier: '', rateMinor: 3100, markupBp: 0 },
  { chargeType: 'storage_cbm_day', qualifier: '', rateMinor: 200, markupBp: 0 },
  { chargeType: 'storage_unit_month', qualifier: '', rateMinor: 31, markupBp: 0 },
  { chargeType: 'recurring_monthly', qualifier: 'Account fee', rateMinor: 5000, markupBp: 0 },
  { chargeType: 'accessorial', qualifier: '', rateMinor: 250, markupBp: 0 },
];

async function post(f: Floor, day: string, legs: { skuId: number; locationId: number; qty: number; pallet?: string; line?: string }[], doc: { type: 'RECEIPT' | 'WO'; id: string; txnType: StockTxnType }) {
  const before = await db().selectFrom('inventory_txn').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow();
  await inTransaction(db(), (uow) => t.app.services.stock.post(uow, {
    documentType: doc.type, documentId: doc.id, reason: 'test', record: { after: { test: doc.id } },
    legs: legs.map((l) => ({ place: { warehouseId: f.wh, customerId: f.cust, skuId: l.skuId, locationId: l.locationId, lot: '', pallet: l.pallet ?? '' }, qty: l.qty, txnType: doc.txnType, documentLine: l.line })),
  }, actor));
  await db().updateTable('inventory_txn').set({ business_day: day, at: `${day}T12:00:00.000Z` }).where('id', '>', Number(before.m ?? 0)).execute();
}
const event = (f: Floor, day: string, e: Omit<FloorEvent, 'warehouseId' | 'customerId'>) =>
  inTransaction(db(), (uow) => t.app.services.floorEvents.record(uow, actor, [{ ...e, warehouseId: f.wh, customerId: f.cust }], new Date(`${day}T10:00:00.000Z`)));

const ctxOf = (jobId: number): JobContext => ({ jobId, attempt: 1, maxAttempts: 3, ownerUserId: null, warehouseId: null, customerId: null, progress: async () => {}, signal: new AbortController().signal });

/** A run of the month so far: its subtotal by group; discarded after unless kept. */
async function runOfMonth(f: Floor, keep = false) {
  const res = await f.admin.post(`${B}/CreateBillingRun`, { customerId: f.cust, warehouseId: f.wh, periodKind: 'custom', periodFrom: first, periodTo: today });
  expect(res.statusCode, res.body).toBe(202);
  const { invoice, job } = res.json().data as { invoice: { invoiceId: number }; job: { jobId: number } };
  await t.app.services.billing.work({ invoiceId: invoice.invoiceId }, ctxOf(job.jobId));
  const inv = (await f.admin.post(`${B}/GetInvoice`, { invoiceId: invoice.invoiceId })).json();
  expect(inv.runStatus, inv.runMessage).toBe('done');
  const byGroup: Record<string, number> = {};
  for (const l of inv.lines as { group: string; amountMinor: number }[]) byGroup[l.group] = (byGroup[l.group] ?? 0) + l.amountMinor;
  if (!keep) expect((await f.admin.post(`${B}/DiscardInvoice`, { invoiceId: invoice.invoiceId })).statusCode).toBe(200);
  return { invoiceId: invoice.invoiceId, total: Number(inv.subtotalMinor), byGroup: Object.fromEntries(Object.entries(byGroup).filter(([, a]) => a !== 0)) };
}

async function unbilled(f: Floor) {
  const res = await f.admin.post(`${B}/GetUnbilled`, { warehouseId: f.wh, customerId: f.cust });
  expect(res.statusCode, res.body).toBe(200);
  const item = res.json().items[0] as { totalMinor: number; byGroup: { group: string; amountMinor: number }[] };
  return { total: item.totalMinor, byGroup: Object.fromEntries(item.byGroup.filter((g) => g.amountMinor !== 0).map((g) => [g.group, g.amountMinor])) };
}

describe('the live unbilled accrual equals a run of the month so far', () => {
  it('before and after its materialisation, with activity on both sides of the mark, and after a final invoice', async () => {
    const f = await floor(t);
    const card = await f.admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2024-01-01', rates: RATES });
    expect(card.statusCode, card.body).toBe(200);
    const sku = await makeSku(t.database, f.cust, `ACR-${Math.random().toString(36).slice(2, 8)}`);
    await db().updateTable('sku').set({ length_cm: 10, width_cm: 20, height_cm: 30 }).where('id', '=', sku).execute();
    const kit = await makeSku(t.database, f.cust, `AKT-${Math.random().toString(36).slice(2, 8)}`);
    await db().updateTable('sku').set({ is_kit: 1 }).where('id', '=', kit).execute();
    const rack = await f.place({ zone: 'AC', type: 'rack' });
    const tag = Math.random().toString(36).slice(2, 7);
    const order = await f.order([{ skuId: sku, quantity: 5 }, { skuId: sku, quantity: 2 }], { allocate: false });
    const lines = await db().selectFrom('sales_order_line').select('id').where('order_id', '=', order.orderId).orderBy('id').execute();

    // Before the mark.
    await post(f, first, [{ skuId: sku, locationId: rack, qty: 10, pallet: `AP-${tag}`, line: '1' }, { skuId: sku, locationId: rack, qty: 5, line: '2' }], { type: 'RECEIPT', id: `RO-A-${tag}`, txnType: 'receive' });
    await post(f, first, [{ skuId: sku, locationId: rack, qty: 4, line: '1' }], { type: 'RECEIPT', id: `RO-R-${tag}`, txnType: 'receive' });
    await post(f, today, [{ skuId: sku, locationId: rack, qty: -4, line: '1' }], { type: 'RECEIPT', id: `RO-R-${tag}`, txnType: 'reverse' });
    await post(f, first, [{ skuId: kit, locationId: rack, qty: 2 }], { type: 'WO', id: `WO-${tag}`, txnType: 'kit_produce' });
    await event(f, first, { kind: 'receive', docType: 'RO', docId: 901, cartonCode: 'C1', quantity: 6 });
    await event(f, first, { kind: 'receive', docType: 'RO', docId: 901, cartonCode: 'C1', quantity: 2 });
    await event(f, first, { kind: 'receive', docType: 'RO', docId: 901, cartonCode: 'C2', quantity: 4 });
    await event(f, first, { kind: 'close-carton', orderId: order.orderId, cartonId: null, quantity: 3 });
    await event(f, first, { kind: 'ship', orderId: order.orderId, orderLineId: lines[0].id, quantity: 3 });
    await event(f, first, { kind: 'label', docType: 'SHIPMENT', docId: 11, amountMinor: 333 });
    await event(f, first, { kind: 'label', docType: 'SHIPMENT', docId: 12, amountMinor: 517 });
    await event(f, today, { kind: 'void-label', docType: 'SHIPMENT', docId: 12 });
    await event(f, first, { kind: 'rma', docType: 'RMA', docId: 9 });
    await event(f, first, { kind: 'return-receive', docType: 'RMA', docId: 9, skuId: sku, quantity: 2 });
    await event(f, first, { kind: 'return-dispose', docType: 'RMA', docId: 9, skuId: sku, quantity: 2, detail: 'restock' });
    const acc = await f.admin.post(`${B}/AddAccessorial`, { customerId: f.cust, warehouseId: f.wh, day: first, chargeType: 'accessorial', description: 'Photos', quantity: 2 });
    expect(acc.statusCode, acc.body).toBe(200);

    // Nothing materialised: every row of the month read.
    const before = await unbilled(f);
    const run1 = await runOfMonth(f);
    expect(run1.total).toBeGreaterThan(0);
    expect(before).toEqual({ total: run1.total, byGroup: run1.byGroup });

    // Materialised: its counts give the same.
    expect(await materialise(db(), t.database.dialect, f.cust, f.wh, today)).toBe(true);
    expect(await unbilled(f)).toEqual(before);

    // After the mark: more units of the order, more rows of keys counted already, new keys, and reversals of
    // sources on both sides of the mark.
    await event(f, today, { kind: 'ship', orderId: order.orderId, orderLineId: lines[1].id, quantity: 2 });
    await event(f, today, { kind: 'close-carton', orderId: order.orderId, cartonId: null, quantity: 2 });
    await post(f, today, [{ skuId: sku, locationId: rack, qty: 3, pallet: `AP-${tag}`, line: '2' }], { type: 'RECEIPT', id: `RO-A-${tag}`, txnType: 'receive' });
    await post(f, today, [{ skuId: sku, locationId: rack, qty: 7, pallet: `CP-${tag}`, line: '1' }], { type: 'RECEIPT', id: `RO-C-${tag}`, txnType: 'receive' });
    await post(f, today, [{ skuId: sku, locationId: rack, qty: -7, pallet: `CP-${tag}`, line: '1' }], { type: 'RECEIPT', id: `RO-C-${tag}`, txnType: 'reverse' });
    await event(f, today, { kind: 'receive', docType: 'RO', docId: 901, cartonCode: 'C1', quantity: 1 });
    await event(f, today, { kind: 'receive', docType: 'RO', docId: 901, cartonCode: 'C3', quantity: 1 });
    await event(f, today, { kind: 'rma', docType: 'RMA', docId: 9 });
    await event(f, today, { kind: 'rma', docType: 'RMA', docId: 10 });
    await event(f, today, { kind: 'label', docType: 'SHIPMENT', docId: 13, amountMinor: 1000 });
    await event(f, today, { kind: 'void-label', docType: 'SHIPMENT', docId: 11 });
    await post(f, today, [{ skuId: kit, locationId: rack, qty: 1 }], { type: 'WO', id: `WO-${tag}`, txnType: 'kit_produce' });
    const after = await unbilled(f);
    const run2 = await runOfMonth(f);
    expect(run2.total).not.toBe(run1.total);
    expect(after).toEqual({ total: run2.total, byGroup: run2.byGroup });

    // Materialised again, then a final invoice of the month so far: nothing is unbilled until new activity lands.
    expect(await materialise(db(), t.database.dialect, f.cust, f.wh, today)).toBe(true);
    expect(await unbilled(f)).toEqual(after);
    const final = await runOfMonth(f, true);
    expect((await f.admin.post(`${B}/FinalizeInvoice`, { invoiceId: final.invoiceId })).statusCode).toBe(200);
    expect((await unbilled(f)).total).toBe(0);
    await event(f, today, { kind: 'label', docType: 'SHIPMENT', docId: 14, amountMinor: 400 });
    await event(f, today, { kind: 'ship', orderId: order.orderId, orderLineId: lines[1].id, quantity: 1 });
    const late = await unbilled(f);
    // The label's fee and cost plus 12.5%, and the order line shipped; the order's own charges were billed.
    expect(late).toEqual({ total: 25 + 450 + 5, byGroup: { Shipping: 475, Fulfilment: 5 } });
    expect(await materialise(db(), t.database.dialect, f.cust, f.wh, today)).toBe(true);
    expect(await unbilled(f)).toEqual(late);
  });

  it('bills receiving per carton from the cartons the receive scans name: each carton of an order once', async () => {
    const f = await floor(t);
    const card = await f.admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2024-01-01', rates: [{ chargeType: 'receiving_carton', rateMinor: 35 }] });
    expect(card.statusCode, card.body).toBe(200);
    const sku = await makeSku(t.database, f.cust, `CTN-${Math.random().toString(36).slice(2, 8)}`);
    const code = (await db().selectFrom('sku').select('sku_code').where('id', '=', sku).executeTakeFirstOrThrow()).sku_code;
    const dock = await f.place({ zone: 'DK', type: 'dock' });
    const ro = await f.admin.post('/Warehouse/Receiving/CreateReceivingOrder', {
      warehouseId: f.wh, customerId: f.cust, supplier: 'Cartons Ltd', expectedDeliveryDate: today, referenceNumber: 'PO-C', lines: [{ skuId: sku, expectedQuantity: 40 }],
    });
    expect(ro.statusCode, ro.body).toBe(200);
    const receivingOrderId = ro.json().data.receivingOrderId as number;
    // Cartons C-1 (two scans), C-2, and a scan naming none.
    for (const [carton, quantity] of [['C-1', 6], ['C-1', 4], ['C-2', 10], ['', 5]] as const) {
      const res = await f.admin.post('/Warehouse/Receiving/ReceiveItem', { receivingOrderId, scanCode: code, locationId: dock, quantity, ...(carton ? { carton } : {}) });
      expect(res.statusCode, res.body).toBe(200);
    }
    const receipts = await db().selectFrom('receiving_receipt').select('carton').where('order_id', '=', receivingOrderId).orderBy('id').execute();
    expect(receipts.map((r) => r.carton)).toEqual(['C-1', 'C-1', 'C-2', '']);
    const events = await db().selectFrom('floor_event').select('carton_code').where('doc_type', '=', 'RO').where('doc_id', '=', receivingOrderId).where('kind', '=', 'receive').orderBy('id').execute();
    expect(events.map((e) => e.carton_code)).toEqual(['C-1', 'C-1', 'C-2', null]);
    expect(await unbilled(f)).toEqual({ total: 70, byGroup: { Receiving: 70 } });
    const run = await runOfMonth(f, true);
    expect(run.total).toBe(2 * 35);
    const inv = (await f.admin.post(`${B}/GetInvoice`, { invoiceId: run.invoiceId })).json();
    expect(inv.lines.map((l: { chargeType: string; quantity: number }) => [l.chargeType, l.quantity])).toEqual([['receiving_carton', 2]]);
  });

  it('reads the rows after the mark by their ids (a primary-key range), not the client’s month by date (EXPLAIN)', async () => {
    const f = await floor(t);
    const last = await sql<{ txn: unknown; event: unknown }>`SELECT (SELECT MAX(id) FROM inventory_txn) AS txn, (SELECT MAX(id) FROM floor_event) AS event`.execute(db());
    const w = { after: { txn: Number(last.rows[0].txn ?? 0) + 1, event: Number(last.rows[0].event ?? 0) + 1, snapshot: 0 }, upTo: null };
    const s = { customerId: f.cust, warehouseId: f.wh, from: first, to: today };
    const d = t.database.dialect;
    // Labels (activity log) and kits built (ledger): candidates made of the window's own rows, no earlier row looked up.
    const q = sql`${windowRowsOf(w)}SELECT * FROM (${candidatesOf('shipping', s, d, w)}) a UNION ALL SELECT * FROM (${candidatesOf('kitting', s, d, w)}) b`.compile(db());
    const text = t.database.sqlite
      ? (t.database.sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail).join('\n')
      : await db().transaction().execute(async (tx) => {
        await tx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
        return ((await tx.executeQuery(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]))).rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
      });
    if (t.database.sqlite) expect(text.match(/USING INTEGER PRIMARY KEY \(rowid>\?\)/g), text).toHaveLength(2);
    else expect(text, text).toMatch(/inventory_txn_pkey[\s\S]*floor_event_pkey|floor_event_pkey[\s\S]*inventory_txn_pkey/);
    expect(text, text).not.toMatch(/inventory_txn_billing|floor_event_billing|floor_event_customer_day|floor_event_day/);
  });

  it('reads the manual charges by client, warehouse, source type and day (index billing_charge_manual, EXPLAIN)', async () => {
    // A client's month of derived charges (thousands) and a few accessorials, the tables analysed.
    const f = await floor(t);
    await sql`WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < 2999)
      INSERT INTO billing_charge (customer_id, warehouse_id, charge_type, qualifier, charge_key, source_type, source_id, source_doc, day, quantity, rate_minor, markup_bp, divisor, amount_minor)
      SELECT CAST(${f.cust} AS INTEGER), CAST(${f.wh} AS INTEGER), 'receiving_unit', '', 'txn:x' || CAST(j.n AS TEXT), CASE WHEN j.n % 1000 = 0 THEN 'manual' ELSE 'ledger' END,
        CAST(j.n AS TEXT), NULL, ${first}, 1, 10, 0, 1, 10 FROM j`.execute(db());
    await sql`ANALYZE billing_charge`.execute(db());
    const q = billingRepository.manualCharges(db(), { customerId: f.cust, warehouseId: f.wh, from: first, to: today }).compile();
    const text = t.database.sqlite
      ? (t.database.sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail).join('\n')
      : await db().transaction().execute(async (tx) => {
        // A test table of a few rows: PostgreSQL is told to avoid a sequential scan, so the index it would use shows.
        await tx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
        return ((await tx.executeQuery(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]))).rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
      });
    expect(text).toMatch(/billing_charge_manual/);
  });
});
