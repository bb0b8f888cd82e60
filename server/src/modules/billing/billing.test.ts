import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeAmount, type Rate } from '@bolx/contracts';
import { as, buildTestApp, login, makeSku, makeUser, type TestApp } from '../../../test/helpers.js';
import { floor, type Floor } from '../../../test/support/floor-fixtures.js';
import { pdfText, decoders } from '../../../test/support/pdf-readers.js';
import { systemActor } from '../../platform/actor.js';
import type { JobContext } from '../../platform/jobs/index.js';
import type { StockTxnType } from '@bolx/contracts';
import { inTransaction } from '../../platform/unit-of-work.js';
import { daysBetween } from './storage-snapshots.js';

let t: TestApp;
const B = '/Warehouse/Billing';
const db = () => t.database.db;
const actor = systemActor('billing test');

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ctxOf = (jobId: number, o: { attempt?: number; progress?: JobContext['progress'] } = {}): JobContext => ({
  jobId, attempt: o.attempt ?? 1, maxAttempts: 3, ownerUserId: null, warehouseId: null, customerId: null,
  progress: o.progress ?? (async () => {}), signal: new AbortController().signal,
});

/** Stock posted through the stock engine, then dated to a past business day (history for the snapshot and the run). */
async function postOn(day: string, legs: { skuId: number; locationId: number; qty: number; pallet?: string; line?: string }[], f: Floor, doc: { type: 'RECEIPT' | 'WO'; id: string; txnType: StockTxnType }) {
  const before = await db().selectFrom('inventory_txn').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow();
  await inTransaction(db(), (uow) => t.app.services.stock.post(uow, {
    documentType: doc.type, documentId: doc.id, reason: 'test', record: { after: { test: doc.id } },
    legs: legs.map((l) => ({ place: { warehouseId: f.wh, customerId: f.cust, skuId: l.skuId, locationId: l.locationId, lot: '', pallet: l.pallet ?? '' }, qty: l.qty, txnType: doc.txnType, documentLine: l.line })),
  }, actor));
  await db().updateTable('inventory_txn').set({ business_day: day, at: `${day}T12:00:00.000Z` }).where('id', '>', Number(before.m ?? 0)).execute();
}

async function event(f: Floor, day: string, e: Parameters<TestApp['app']['services']['floorEvents']['record']>[2][number]) {
  await inTransaction(db(), (uow) => t.app.services.floorEvents.record(uow, actor, [e], new Date(`${day}T10:00:00.000Z`)));
  void f;
}

const RATES_V1: Rate[] = [
  { chargeType: 'receiving_unit', qualifier: '', rateMinor: 10, markupBp: 0 },
  { chargeType: 'receiving_order', qualifier: '', rateMinor: 500, markupBp: 0 },
  { chargeType: 'receiving_line', qualifier: '', rateMinor: 100, markupBp: 0 },
  { chargeType: 'receiving_pallet', qualifier: '', rateMinor: 200, markupBp: 0 },
  { chargeType: 'order', qualifier: '', rateMinor: 150, markupBp: 0 },
  { chargeType: 'order_first_unit', qualifier: '', rateMinor: 50, markupBp: 0 },
  { chargeType: 'order_additional_unit', qualifier: '', rateMinor: 20, markupBp: 0 },
  { chargeType: 'order_line', qualifier: '', rateMinor: 5, markupBp: 0 },
  { chargeType: 'order_carton', qualifier: '', rateMinor: 30, markupBp: 0 },
  { chargeType: 'label_fee', qualifier: '', rateMinor: 25, markupBp: 0 },
  { chargeType: 'carrier_markup', qualifier: '', rateMinor: 0, markupBp: 1000 },
  { chargeType: 'return_rma', qualifier: '', rateMinor: 300, markupBp: 0 },
  { chargeType: 'return_unit', qualifier: '', rateMinor: 40, markupBp: 0 },
  { chargeType: 'return_disposition', qualifier: 'restock', rateMinor: 15, markupBp: 0 },
  { chargeType: 'kit_build', qualifier: '', rateMinor: 75, markupBp: 0 },
  { chargeType: 'storage_pallet_day', qualifier: '', rateMinor: 100, markupBp: 0 },
  { chargeType: 'storage_location_month', qualifier: 'rack', rateMinor: 3100, markupBp: 0 },
  { chargeType: 'storage_cbm_day', qualifier: '', rateMinor: 200, markupBp: 0 },
  { chargeType: 'storage_unit_month', qualifier: '', rateMinor: 31, markupBp: 0 },
  { chargeType: 'recurring_monthly', qualifier: 'Account fee', rateMinor: 5000, markupBp: 0 },
  { chargeType: 'monthly_minimum', qualifier: '', rateMinor: 30000, markupBp: 0 },
  { chargeType: 'labour_hour', qualifier: '', rateMinor: 3000, markupBp: 0 },
  { chargeType: 'accessorial', qualifier: 'Relabel', rateMinor: 50, markupBp: 0 },
];
/** From 16 March receiving costs 12 a unit instead of 10: a rate that changes mid-period. */
const RATES_V2 = RATES_V1.map((r) => (r.chargeType === 'receiving_unit' ? { ...r, rateMinor: 12 } : r));

/**
 * A month of a client's work, worked out by hand (warehouse in UTC, March 2025, 31 days):
 *   receiving: RO-A 2 Mar (10 units on pallet P1 + 5 units, 2 lines) 15×10 + 500 + 2×100 + 200 = 1050;
 *              RO-B 20 Mar (4 units, 1 line, rate 12 by then) 4×12 + 500 + 100 = 648                      → 1698
 *   storage:   pallet-days 30 × 100 = 3000; rack location-days 18×1 + 12×2 = 42 × 3100/31 = 4200;
 *              volume 15,000 cm³ (3/day) for 18 days, 19,000 cm³ (3.8 → 4/day) for 12 → 102;
 *              unit-days 3×15 + 15×18 + 12×22 = 579 at 31/31 a day → 579                                    → 7881
 *   fulfilment: 1 order 150 + first unit 50 + 3 more × 20 + 2 lines × 5 + 2 cartons × 30                     → 330
 *   shipping:  labels 25 + 1234×1.1 = 1357.4 → 1357, 25 + 1100; the second voided: −25 −1100                 → 1382
 *   returns:   RMA 300 + 2 units × 40 + 2 restocked × 15                                                     → 410
 *   kitting:   3 kits × 75                                                                                   → 225
 *   accessorial Relabel 10 × 50 = 500; labour 90 minutes at 30.00/h = 4500                                   → 5000
 *   recurring Account fee                                                                                   → 5000
 *   = 21926; the monthly minimum 30000 tops it up by 8074 → subtotal 30000, tax 20% 6000, total 36000.
 */
const EXPECTED = { receiving: 1698, storage: 7881, fulfilment: 330, shipping: 1382, returns: 410, kitting: 225, manual: 5000, recurring: 5000, minimum: 8074 };

async function month(f: Floor) {
  const admin = f.admin;
  expect((await admin.post(`${B}/SaveBillingAccount`, { customerId: f.cust, currency: 'EUR', taxRateBp: 2000, paymentTermsDays: 30 })).statusCode).toBe(200);
  const v1 = await admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2025-01-01', rates: RATES_V1 });
  expect(v1.statusCode, v1.body).toBe(200);
  const v2 = await admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2025-03-16', rates: RATES_V2 });
  expect(v2.statusCode, v2.body).toBe(200);

  const sku = await makeSku(t.database, f.cust, `BIL-${Math.random().toString(36).slice(2, 8)}`);
  await db().updateTable('sku').set({ length_cm: 10, width_cm: 10, height_cm: 10 }).where('id', '=', sku).execute();
  const kit = await makeSku(t.database, f.cust, `KIT-${Math.random().toString(36).slice(2, 8)}`);
  await db().updateTable('sku').set({ is_kit: 1 }).where('id', '=', kit).execute();
  const a = await f.place({ zone: 'BA', type: 'rack' });
  const b = await f.place({ zone: 'BB', type: 'rack' });
  const tag = Math.random().toString(36).slice(2, 7);
  await postOn('2025-03-02', [{ skuId: sku, locationId: a, qty: 10, pallet: `P1-${tag}`, line: '1' }, { skuId: sku, locationId: a, qty: 5, line: '2' }], f, { type: 'RECEIPT', id: `RO-A-${tag}`, txnType: 'receive' });
  await postOn('2025-03-05', [{ skuId: kit, locationId: a, qty: 3 }], f, { type: 'WO', id: `WO-${tag}`, txnType: 'kit_produce' });
  await postOn('2025-03-20', [{ skuId: sku, locationId: b, qty: 4, line: '1' }], f, { type: 'RECEIPT', id: `RO-B-${tag}`, txnType: 'receive' });

  const order = await f.order([{ skuId: sku, quantity: 3 }, { skuId: sku, quantity: 1 }], { allocate: false });
  const lines = await db().selectFrom('sales_order_line').select('id').where('order_id', '=', order.orderId).orderBy('id').execute();
  const base = { warehouseId: f.wh, customerId: f.cust };
  await event(f, '2025-03-10', { ...base, kind: 'close-carton', orderId: order.orderId, quantity: 3 });
  await event(f, '2025-03-10', { ...base, kind: 'close-carton', orderId: order.orderId, quantity: 1 });
  await event(f, '2025-03-10', { ...base, kind: 'ship', orderId: order.orderId, orderLineId: lines[0].id, quantity: 3 });
  await event(f, '2025-03-10', { ...base, kind: 'ship', orderId: order.orderId, orderLineId: lines[1].id, quantity: 1 });
  await event(f, '2025-03-10', { ...base, kind: 'label', docType: 'SHIPMENT', docId: 1, amountMinor: 1234 });
  await event(f, '2025-03-11', { ...base, kind: 'label', docType: 'SHIPMENT', docId: 2, amountMinor: 1000 });
  await event(f, '2025-03-12', { ...base, kind: 'void-label', docType: 'SHIPMENT', docId: 2 });
  await event(f, '2025-03-13', { ...base, kind: 'rma', docType: 'RMA', docId: 7 });
  await event(f, '2025-03-14', { ...base, kind: 'return-receive', docType: 'RMA', docId: 7, skuId: sku, quantity: 2 });
  await event(f, '2025-03-14', { ...base, kind: 'return-dispose', docType: 'RMA', docId: 7, skuId: sku, quantity: 2, detail: 'restock' });
  const acc = await admin.post(`${B}/AddAccessorial`, { ...base, day: '2025-03-15', chargeType: 'accessorial', qualifier: 'Relabel', description: 'Relabelled cartons', quantity: 10 });
  expect(acc.statusCode, acc.body).toBe(200);
  const lab = await admin.post(`${B}/AddAccessorial`, { ...base, day: '2025-03-15', chargeType: 'labour_hour', description: 'Sorting a mixed delivery', quantity: 90 });
  expect(lab.statusCode, lab.body).toBe(200);
  return { sku, kit, a, b, order, tag };
}

async function createRun(f: Floor, from = '2025-03-01', to = '2025-03-31', customerId = f.cust) {
  const res = await f.admin.post(`${B}/CreateBillingRun`, { customerId, warehouseId: f.wh, periodKind: 'monthly', periodFrom: from, periodTo: to });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data as { invoice: { invoiceId: number; runJobId: number }; job: { jobId: number } };
}
const work = (run: { invoice: { invoiceId: number }; job: { jobId: number } }, o?: Parameters<typeof ctxOf>[1]) => t.app.services.billing.work({ invoiceId: run.invoice.invoiceId }, ctxOf(run.job.jobId, o));
const detail = async (f: Floor, invoiceId: number) => (await f.admin.post(`${B}/GetInvoice`, { invoiceId })).json();
const byGroup = (inv: { lines: { group: string; chargeType: string; amountMinor: number }[] }) => {
  const m: Record<string, number> = {};
  for (const l of inv.lines) {
    const k = l.chargeType === 'monthly_minimum' ? 'minimum' : l.chargeType === 'accessorial' || l.chargeType === 'labour_hour' ? 'manual' : l.group.toLowerCase();
    m[k] = (m[k] ?? 0) + l.amountMinor;
  }
  return m;
};

describe('the one rounding rule', () => {
  it('rounds each charge half away from zero, once', () => {
    expect(chargeAmount(1, 1234, 1000, 1)).toBe(1357);
    expect(chargeAmount(1, 1235, 1000, 1)).toBe(1359); // 1358.5 → 1359
    expect(chargeAmount(-1, 1235, 1000, 1)).toBe(-1359);
    expect(chargeAmount(19_000, 200, 0, 1_000_000)).toBe(4);
    expect(chargeAmount(90, 3000, 0, 60)).toBe(4500);
  });
});

describe('a month billed', () => {
  let f: Floor;
  let run: Awaited<ReturnType<typeof createRun>>;
  beforeAll(async () => {
    f = await floor(t);
    await month(f);
  });

  it('runs as a background job with progress and bills every charge type as worked out by hand (rates changing mid-period)', async () => {
    run = await createRun(f);
    await t.app.services.jobs.start({ pollMs: 10, lockMs: 5000, concurrency: 1 });
    try {
      for (let i = 0; i < 500; i++) {
        const row = await db().selectFrom('invoice').select('run_status').where('id', '=', run.invoice.invoiceId).executeTakeFirstOrThrow();
        if (row.run_status === 'done' || row.run_status === 'failed') break;
        await new Promise((r) => setTimeout(r, 30));
      }
    } finally {
      await t.app.services.jobs.stop();
    }
    const job = await db().selectFrom('job').selectAll().where('id', '=', run.job.jobId).executeTakeFirstOrThrow();
    expect(job.status, job.error ?? '').toBe('succeeded');
    const inv = await detail(f, run.invoice.invoiceId);
    expect(inv.runStatus).toBe('done');
    expect(byGroup(inv)).toEqual(EXPECTED);
    expect(inv.subtotalMinor).toBe(30000);
    expect(inv.taxMinor).toBe(6000);
    expect(inv.totalMinor).toBe(36000);
    expect(inv.currency).toBe('EUR');
    const units = inv.lines.filter((l: { chargeType: string }) => l.chargeType === 'receiving_unit');
    expect(units.map((l: { rateMinor: number; quantity: number }) => [l.rateMinor, l.quantity]).sort()).toEqual([[10, 15], [12, 4]]);
    // Every line traces to its sources; the void credits the second label.
    const markup = inv.lines.filter((l: { chargeType: string }) => l.chargeType === 'carrier_markup');
    expect(markup.map((l: { amountMinor: number }) => l.amountMinor).sort((x: number, y: number) => x - y)).toEqual([-1100, 2457]);
    const credit = markup.find((l: { amountMinor: number }) => l.amountMinor < 0);
    const sources = (await f.admin.post(`${B}/GetLineSources`, { invoiceId: run.invoice.invoiceId, lineId: credit.lineId })).json();
    expect(sources.items).toHaveLength(1);
    expect(sources.items[0]).toMatchObject({ sourceType: 'event', amountMinor: -1100, link: { kind: 'event' } });
    expect(sources.items[0].reversesChargeId).toBeTruthy();
    const order = inv.lines.find((l: { chargeType: string }) => l.chargeType === 'order');
    const orderSources = (await f.admin.post(`${B}/GetLineSources`, { invoiceId: run.invoice.invoiceId, lineId: order.lineId })).json();
    expect(orderSources.items[0].link.kind).toBe('order');
  });

  it('bills nothing twice when run again, and a second run over the same month bills nothing', async () => {
    const again = await f.admin.post(`${B}/RerunInvoice`, { invoiceId: run.invoice.invoiceId });
    expect(again.statusCode, again.body).toBe(202);
    const rerun = again.json().data;
    await t.app.services.billing.work({ invoiceId: run.invoice.invoiceId }, ctxOf(rerun.job.jobId));
    expect(byGroup(await detail(f, run.invoice.invoiceId))).toEqual(EXPECTED);
    const other = await createRun(f);
    await work(other);
    const second = await detail(f, other.invoice.invoiceId);
    // Everything is on the first draft; only the minimum is worked out anew (the month's charges reach it already).
    expect(second.lines).toEqual([]);
    expect(second.totalMinor).toBe(0);
    await f.admin.post(`${B}/DiscardInvoice`, { invoiceId: other.invoice.invoiceId });
  });

  it('adjusts a draft with manual lines (a reason required: 400 and nothing written without), finalises once with a number, and locks it', async () => {
    const noReason = await f.admin.post(`${B}/AddManualLine`, { invoiceId: run.invoice.invoiceId, description: 'Goodwill', quantity: -1, rateMinor: 1000, reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toHaveProperty('reason');
    const line = await f.admin.post(`${B}/AddManualLine`, { invoiceId: run.invoice.invoiceId, description: 'Goodwill', quantity: -1, rateMinor: 1000, reason: 'Late dispatch on 10 March' });
    expect(line.statusCode, line.body).toBe(200);
    expect(line.json().data.lines.filter((l: { manual: boolean }) => l.manual)).toHaveLength(1);
    expect(line.json().data.subtotalMinor).toBe(29000);
    const done = await f.admin.post(`${B}/FinalizeInvoice`, { invoiceId: run.invoice.invoiceId });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'Final', invoiceNumber: 'INV-000001' });
    const twice = await f.admin.post(`${B}/FinalizeInvoice`, { invoiceId: run.invoice.invoiceId });
    expect(twice.statusCode).toBe(409);
    expect((await f.admin.post(`${B}/AddManualLine`, { invoiceId: run.invoice.invoiceId, description: 'More', quantity: 1, rateMinor: 1, reason: 'x' })).statusCode).toBe(409);
    const overlapping = await f.admin.post(`${B}/CreateBillingRun`, { customerId: f.cust, warehouseId: f.wh, periodKind: 'custom', periodFrom: '2025-03-20', periodTo: '2025-04-05' });
    expect(overlapping.statusCode).toBe(409);
    expect(await db().selectFrom('invoice').select('id').where('customer_id', '=', f.cust).where('period_from', '=', '2025-03-20').execute()).toHaveLength(0);
    // The versions this invoice used can no longer be edited.
    const cards = (await f.admin.post(`${B}/GetRateCards`, { filters: { customerId: f.cust, warehouseId: f.wh } })).json().items;
    const v1 = cards.find((c: { versionNo: number }) => c.versionNo === 1);
    expect(v1.used).toBe(true);
    const edit = await f.admin.post(`${B}/SaveRateCard`, { versionId: v1.versionId, customerId: f.cust, warehouseId: f.wh, effectiveFrom: v1.effectiveFrom, effectiveTo: v1.effectiveTo, rates: [] });
    expect(edit.statusCode).toBe(409);
  });

  it('reads back as a PDF (pdftotext) and a workbook (summary + every line’s sources)', async () => {
    const pdf = await f.admin.get(`${B}/InvoicePdf?invoiceId=${run.invoice.invoiceId}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    if (decoders) {
      const text = pdfText(pdf.rawPayload);
      for (const s of ['INVOICE', 'INV-000001', 'Receiving per unit', 'Storage', 'Fulfilment', 'Shipping', 'Subtotal', 'Tax 20%', '348.00 EUR', 'Goodwill', '2025-03-01 to 2025-03-31']) expect(text).toContain(s);
    }
    const xlsx = await f.admin.get(`${B}/InvoiceExcel?invoiceId=${run.invoice.invoiceId}`);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Summary', 'Sources']);
    const charges = await db().selectFrom('billing_charge').select('id').where('invoice_id', '=', run.invoice.invoiceId).execute();
    expect(book.getWorksheet('Sources')!.rowCount - 1).toBe(charges.length);
    const total = book.getWorksheet('Summary')!.getRows(1, 100)!.find((r) => r.getCell(1).value === 'Total');
    expect(total?.getCell(4).value).toBe(348);
  });

  it('credits a final invoice with a credit note (its own gap-free number); a line credited once', async () => {
    const inv = await detail(f, run.invoice.invoiceId);
    const kits = inv.lines.find((l: { chargeType: string }) => l.chargeType === 'kit_build');
    const note = await f.admin.post(`${B}/CreateCreditNote`, { invoiceId: run.invoice.invoiceId, reason: 'Kits were rebuilt at our fault', lineIds: [kits.lineId] });
    expect(note.statusCode, note.body).toBe(200);
    expect(note.json().data).toMatchObject({ kind: 'credit_note', status: 'Final', invoiceNumber: 'CN-000001', subtotalMinor: -225, taxMinor: -45, totalMinor: -270, creditsInvoiceNumber: 'INV-000001' });
    const again = await f.admin.post(`${B}/CreateCreditNote`, { invoiceId: run.invoice.invoiceId, reason: 'again', lineIds: [kits.lineId] });
    expect(again.statusCode).toBe(409);
    const noteLine = note.json().data.lines[0];
    const traced = (await f.admin.post(`${B}/GetLineSources`, { invoiceId: note.json().data.invoiceId, lineId: noteLine.lineId })).json();
    expect(traced.items.map((c: { amountMinor: number }) => c.amountMinor)).toEqual([225]);
  });

  it('shows a client account its own final invoices only; billing actions are refused to it', async () => {
    const mine = await makeUser(t.database, { role: 'Client', customerId: f.cust, modules: { Billing: 'read', BillingSummary: 'read' } });
    const client = as(t.app, await login(t.app, mine.username, mine.password));
    const list = (await client.post(`${B}/GetInvoices`, {})).json();
    expect(list.items.map((i: { status: string }) => i.status).every((s: string) => s === 'Final')).toBe(true);
    expect(list.items.length).toBe(2);
    const draft = await createRun(f, '2025-04-01', '2025-04-30');
    expect((await client.post(`${B}/GetInvoice`, { invoiceId: draft.invoice.invoiceId })).statusCode).toBe(404);
    expect((await client.get(`${B}/InvoicePdf?invoiceId=${run.invoice.invoiceId}`)).statusCode).toBe(200);
    expect((await client.post(`${B}/CreateBillingRun`, { customerId: f.cust, warehouseId: f.wh, periodFrom: '2025-05-01', periodTo: '2025-05-31' })).statusCode).toBe(403);
    expect((await client.post(`${B}/GetUnbilled`, {})).statusCode).toBe(403);
    const other = await makeUser(t.database, { role: 'Client', customerId: f.strict, modules: { Billing: 'read' } });
    const stranger = as(t.app, await login(t.app, other.username, other.password));
    expect((await stranger.post(`${B}/GetInvoices`, {})).json().items).toEqual([]);
    expect((await stranger.post(`${B}/GetInvoice`, { invoiceId: run.invoice.invoiceId })).statusCode).toBe(404);
    expect((await stranger.get(`${B}/InvoiceExcel?invoiceId=${run.invoice.invoiceId}`)).statusCode).toBe(404);
    const summary = await client.post(`${B}/GetBillingSummary`, { customerId: f.cust, periodFrom: '2025-03-01', periodTo: '2025-03-31' });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().current.totalMinor).toBe(29000 - 225);
    expect(summary.json().months.find((m: { month: string }) => m.month === '2025-03').amountMinor).toBe(29000 - 225);
  });

  it('audits an invoice: every line’s sources, the difference against the previous invoice, anomalies', async () => {
    // April: the card loses its fulfilment rates (activity with no rate); storage swings; stock stored unbilled is flagged.
    const april = await createRun(f, '2025-04-01', '2025-04-30');
    await work(april);
    expect((await f.admin.post(`${B}/FinalizeInvoice`, { invoiceId: april.invoice.invoiceId })).statusCode).toBe(200);
    const audit = await f.admin.post(`${B}/GetInvoiceAudit`, { invoiceId: april.invoice.invoiceId, swingPercent: 25 });
    expect(audit.statusCode, audit.body).toBe(200);
    const a = audit.json();
    expect(a.previous.invoiceNumber).toBe('INV-000001');
    const receiving = a.differences.find((d: { chargeType: string }) => d.chargeType === 'receiving_order');
    expect(receiving).toMatchObject({ previousMinor: 1000, currentMinor: 0, changeMinor: -1000, changePercent: -100 });
    expect(a.anomalies.some((x: { kind: string; chargeType: string }) => x.kind === 'swing' && x.chargeType === 'receiving_order')).toBe(true);
  });
});

describe('rate cards', () => {
  it('refuse overlaps, negative rates and unknown charge types, writing nothing; a new version ends the open one', async () => {
    const f = await floor(t);
    const base = { customerId: f.cust, warehouseId: f.wh };
    const v1 = await f.admin.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2025-01-01', effectiveTo: '2025-06-30', rates: [{ chargeType: 'order', rateMinor: 100 }] });
    expect(v1.statusCode, v1.body).toBe(200);
    const overlap = await f.admin.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2025-06-01', rates: [{ chargeType: 'order', rateMinor: 120 }] });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().message).toContain('overlaps version 1');
    const negative = await f.admin.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2025-07-01', rates: [{ chargeType: 'order', rateMinor: -5 }] });
    expect(negative.statusCode).toBe(400);
    expect(JSON.stringify(negative.json().details)).toContain('A rate must not be negative');
    const unknown = await f.admin.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2025-07-01', rates: [{ chargeType: 'teleport', rateMinor: 5 }] });
    expect(unknown.statusCode).toBe(400);
    expect(await db().selectFrom('rate_card_version').select('id').where('customer_id', '=', f.cust).execute()).toHaveLength(1);
    const v2 = await f.admin.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2025-07-01', rates: [{ chargeType: 'order', rateMinor: 130 }] });
    expect(v2.statusCode).toBe(200);
    const v3 = await f.admin.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2025-09-01', rates: [{ chargeType: 'order', rateMinor: 140 }] });
    expect(v3.statusCode).toBe(200);
    const cards = (await f.admin.post(`${B}/GetRateCards`, { filters: base, sort: { field: 'effectiveFrom', order: 'ascend' } })).json().items;
    expect(cards.map((c: { effectiveFrom: string; effectiveTo: string | null }) => [c.effectiveFrom, c.effectiveTo])).toEqual([['2025-01-01', '2025-06-30'], ['2025-07-01', '2025-08-31'], ['2025-09-01', null]]);
    // Staff without a billing role may read but not write.
    const s = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [f.wh], customerIds: [f.cust], modules: { Billing: 'write' } });
    const staff = as(t.app, await login(t.app, s.username, s.password));
    expect((await staff.post(`${B}/SaveRateCard`, { ...base, effectiveFrom: '2026-01-01', rates: [] })).statusCode).toBe(403);
    expect((await staff.post(`${B}/GetRateCards`, { filters: base })).statusCode).toBe(200);
  });
});

describe('storage snapshots', () => {
  it('take each day once; a day rebuilt from the ledger equals the one taken live', async () => {
    const f = await floor(t);
    const { sku } = await month(f);
    const snapshots = t.app.services.billing.snapshots;
    for (const day of daysBetween('2025-03-01', '2025-03-31')) {
      expect(await snapshots.figures(db(), f.wh, day, 'rebuilt'), day).toEqual(await snapshots.figures(db(), f.wh, day, 'live'));
    }
    const mine = (await snapshots.figures(db(), f.wh, '2025-03-20', 'live')).find((x) => x.customerId === f.cust);
    expect(mine).toEqual({ customerId: f.cust, units: 22, pallets: 1, volumeCm3: 19_000, locationsByType: { rack: 2 } });
    // Today's stock moves on: the past day still reads the same both ways.
    await postOn(new Date().toISOString().slice(0, 10), [{ skuId: sku, locationId: await f.place({ zone: 'BC' }), qty: 7 }], f, { type: 'RECEIPT', id: `RO-C-${Math.random()}`, txnType: 'receive' });
    expect(await snapshots.figures(db(), f.wh, '2025-03-20', 'rebuilt')).toEqual(await snapshots.figures(db(), f.wh, '2025-03-20', 'live'));
    expect(await snapshots.take(f.wh, '2025-03-20', 'live')).toBe(true);
    expect(await snapshots.take(f.wh, '2025-03-20', 'rebuilt')).toBe(false);
    const kept = await db().selectFrom('storage_snapshot').select('units').where('warehouse_id', '=', f.wh).where('day', '=', '2025-03-20').where('customer_id', '=', f.cust).execute();
    expect(kept.map((k) => Number(k.units))).toEqual([22]);
    // The schedule's catch-up: yesterday live, the days missed since the last one rebuilt.
    const caught = await snapshots.catchUp(f.wh);
    expect(caught.live).toBe(1);
    expect(caught.rebuilt).toBeGreaterThan(0);
    expect((await snapshots.catchUp(f.wh))).toEqual({ live: 0, rebuilt: 0 });
  });
});

describe('storage per location per month', () => {
  it('bills location-days, not the month’s peak: a location held 10 days of 30 costs a third of its monthly rate', async () => {
    const f = await floor(t);
    const v = await f.admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2025-01-01', rates: [{ chargeType: 'storage_location_month', qualifier: 'shelf', rateMinor: 3000 }] });
    expect(v.statusCode, v.body).toBe(200);
    // April's snapshots (30 days): two shelf locations held the client's stock on 1–10 April, one on 11–30 April.
    for (const day of daysBetween('2025-04-01', '2025-04-30')) {
      await db().insertInto('storage_snapshot_day').values({ warehouse_id: f.wh, day, source: 'live', taken_at: `${day}T04:00:00.000Z` }).execute();
      await db().insertInto('storage_snapshot').values({
        warehouse_id: f.wh, customer_id: f.cust, day, units: 0, pallets: 0, volume_cm3: 0, locations_json: JSON.stringify({ shelf: day <= '2025-04-10' ? 2 : 1 }),
      }).execute();
    }
    const run = await createRun(f, '2025-04-01', '2025-04-30');
    await work(run);
    const inv = await detail(f, run.invoice.invoiceId);
    const storage = inv.lines.filter((l: { chargeType: string }) => l.chargeType === 'storage_location_month');
    // 10 × 2 + 20 × 1 = 40 location-days at 3000 ÷ 30 a day = 4000 (the peak, 2 locations × 3000, would be 6000).
    expect(storage.map((l: { quantity: number; amountMinor: number; qualifier: string }) => [l.qualifier, l.quantity, l.amountMinor])).toEqual([['shelf', 40, 4000]]);
  });
});

describe('runs at once, and a run taken up again', () => {
  it('two runs over one month at the same time bill each source once', async () => {
    const f = await floor(t);
    await month(f);
    const one = await createRun(f);
    const two = await createRun(f, '2025-03-01', '2025-03-31');
    await Promise.all([work(one), work(two)]);
    const charges = await db().selectFrom('billing_charge').select(['charge_type', 'charge_key', 'invoice_id']).where('customer_id', '=', f.cust).execute();
    expect(new Set(charges.map((c) => `${c.charge_type}|${c.charge_key}`)).size).toBe(charges.length);
    const a = await detail(f, one.invoice.invoiceId);
    const b = await detail(f, two.invoice.invoiceId);
    const sum: Record<string, number> = {};
    for (const inv of [a, b]) for (const [k, v] of Object.entries(byGroup(inv))) sum[k] = (sum[k] ?? 0) + v;
    const { minimum: _m, ...activity } = EXPECTED;
    const { minimum: _s, ...billed } = sum;
    expect(billed).toEqual(activity);
  });

  it('a run stopped half way is taken up at its next step and ends with the same invoice', async () => {
    const f = await floor(t);
    await month(f);
    const run = await createRun(f);
    // The node stops as the fifth step (fulfilment) begins: the four before it are committed.
    await expect(work(run, { progress: async (_d, _t, message) => { if (message?.startsWith('Step 5 ')) throw new Error('node stopped'); } })).rejects.toThrow('node stopped');
    const half = await db().selectFrom('invoice').select(['run_step', 'run_status']).where('id', '=', run.invoice.invoiceId).executeTakeFirstOrThrow();
    expect(half).toMatchObject({ run_status: 'queued' });
    expect(Number(half.run_step)).toBe(4);
    await work(run, { attempt: 2 });
    const inv = await detail(f, run.invoice.invoiceId);
    expect(byGroup(inv)).toEqual(EXPECTED);
    expect(inv.totalMinor).toBe(36000);
  });

  it('finalising many drafts at once numbers them without gaps', async () => {
    const f = await floor(t);
    await f.admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2024-01-01', rates: [{ chargeType: 'recurring_monthly', qualifier: 'Fee', rateMinor: 100 }] });
    const runs = [];
    for (const m of ['01', '02', '03', '04', '05', '06']) {
      const r = await createRun(f, `2024-${m}-01`, `2024-${m}-28`);
      await work(r);
      runs.push(r);
    }
    const answers = await Promise.all(runs.map((r) => f.admin.post(`${B}/FinalizeInvoice`, { invoiceId: r.invoice.invoiceId })));
    expect(answers.map((a) => a.statusCode)).toEqual(runs.map(() => 200));
    expect(answers.map((a) => a.json().data.invoiceNumber).sort()).toEqual(['INV-000001', 'INV-000002', 'INV-000003', 'INV-000004', 'INV-000005', 'INV-000006']);
  });

  it('the live unbilled view says what this month’s invoice would say today', async () => {
    const f = await floor(t);
    const today = new Date().toISOString().slice(0, 10);
    await f.admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2024-01-01', rates: [{ chargeType: 'receiving_unit', rateMinor: 10 }, { chargeType: 'accessorial', qualifier: '', rateMinor: 250 }] });
    const sku = await makeSku(t.database, f.cust);
    await postOn(today, [{ skuId: sku, locationId: await f.place({ zone: 'UB' }), qty: 6 }], f, { type: 'RECEIPT', id: `RO-U-${Math.random()}`, txnType: 'receive' });
    await f.admin.post(`${B}/AddAccessorial`, { customerId: f.cust, warehouseId: f.wh, day: today, chargeType: 'accessorial', description: 'Photos', quantity: 2 });
    const res = await f.admin.post(`${B}/GetUnbilled`, { warehouseId: f.wh, customerId: f.cust });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items[0]).toMatchObject({ customerId: f.cust, totalMinor: 60 + 500, byGroup: [{ group: 'Receiving', amountMinor: 60 }, { group: 'Accessorial', amountMinor: 500 }] });
  });

  it('the live unbilled view rounds charge by charge as the run does, and leaves out what a final invoice billed', async () => {
    const f = await floor(t);
    const today = new Date().toISOString().slice(0, 10);
    const first = `${today.slice(0, 8)}01`;
    const card = await f.admin.post(`${B}/SaveRateCard`, { customerId: f.cust, warehouseId: f.wh, effectiveFrom: '2024-01-01', rates: [
      { chargeType: 'receiving_unit', rateMinor: 10 }, { chargeType: 'label_fee', rateMinor: 25 }, { chargeType: 'carrier_markup', rateMinor: 0, markupBp: 1250 }] });
    expect(card.statusCode, card.body).toBe(200);
    await postOn(today, [{ skuId: await makeSku(t.database, f.cust), locationId: await f.place({ zone: 'UR' }), qty: 6 }], f, { type: 'RECEIPT', id: `RO-R-${Math.random()}`, txnType: 'receive' });
    // Two labels of one cost (counted together in the accrual) and one of another: 333 × 1.125 = 374.625 → 375 each, 517 × 1.125 = 581.625 → 582.
    for (const [docId, cost] of [[1, 333], [2, 333], [3, 517]]) await event(f, today, { kind: 'label', warehouseId: f.wh, customerId: f.cust, docType: 'SHIPMENT', docId, amountMinor: cost });
    const shipping = 3 * 25 + 2 * chargeAmount(1, 333, 1250, 1) + chargeAmount(1, 517, 1250, 1);
    expect(shipping).toBe(75 + 750 + 582);
    const unbilled = async () => (await f.admin.post(`${B}/GetUnbilled`, { warehouseId: f.wh, customerId: f.cust })).json().items[0];
    expect(await unbilled()).toMatchObject({ totalMinor: 60 + shipping, byGroup: [{ group: 'Receiving', amountMinor: 60 }, { group: 'Shipping', amountMinor: shipping }] });

    // The run bills the same; once final, only what came after it is unbilled.
    const run = await createRun(f, first, today);
    await work(run);
    expect((await detail(f, run.invoice.invoiceId)).totalMinor).toBe(60 + shipping);
    expect((await f.admin.post(`${B}/FinalizeInvoice`, { invoiceId: run.invoice.invoiceId })).statusCode).toBe(200);
    await event(f, today, { kind: 'label', warehouseId: f.wh, customerId: f.cust, docType: 'SHIPMENT', docId: 4, amountMinor: 1000 });
    expect(await unbilled()).toMatchObject({ totalMinor: 25 + 1125, byGroup: [{ group: 'Shipping', amountMinor: 25 + 1125 }] });
  });
});
