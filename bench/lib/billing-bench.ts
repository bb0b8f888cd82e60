// Child process, run once per engine after the load cases: issue 16's two billing figures, each against a raw
// baseline over the same rows in the same run.
//   run:     a month's billing run (BillingService.work, every step) for one client with 1,000,000 ledger rows in
//            the month (20,000 balances × 50 rows: a receipt each, then moves; settings.billing), 105,000 floor
//            events (labels, RMAs, units returned) and the month's 30 daily snapshots of those 20,000 balances taken
//            already (as the schedule takes them). The month is the latest 30-day calendar month that has ended, so
//            the sizes are the issue's whatever day the bench runs. Baseline: a raw INSERT…SELECT of the month's ledger
//            and event rows of the client into an unindexed table — reading and writing what the run reads, without
//            rating or the once-only key.
//   accrual: POST /Warehouse/Billing/GetUnbilled for that client: this month so far, which holds another
//            1,000,000 ledger rows and 105,000 events of the same balances (and its snapshots up to yesterday);
//            against a raw SELECT of counts and sums over the same rows.
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { businessDay } from '../../server/src/platform/business-day.js';
import { makeCustomer } from '../../server/test/helpers.js';
import { openCaptureApp } from './capture-app.js';
import type { OrderFigures } from './orders-bench.js';
import { settings } from './settings.js';
import { materialise } from '../../server/src/modules/billing/accrual.js';

const phase = (what: string) => process.stderr.write(`  billing bench: ${what} (${new Date().toISOString().slice(11, 19)})\n`);

export interface BillingBenchResult { run: OrderFigures; accrual: OrderFigures }

const { balances: BALANCES, rowsPerBalance: ROWS_PER_BALANCE } = settings.billing;
const LABELS = 50_000;
const RETURNS = 50_000;
const RMAS = 5_000;
const RUNS = 2;
const ACCRUALS = 10;
/** What one balance's rows of a month sum to: a receipt of 100, then moves of 3 out and 2 in, alternating. */
const MONTH_SUM = 100 + Array.from({ length: ROWS_PER_BALANCE - 1 }, (_, i) => ((i + 1) % 2 === 1 ? -3 : 2)).reduce((a, b) => a + b, 0);

const { capturedFile, app, database, db } = await openCaptureApp('billing-bench');
const postgres = !!database.pool;
async function post(path: string, body: unknown, token: string) {
  const res = await app.inject({ method: 'POST', url: path, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
  if (res.statusCode >= 300) throw new Error(`billing-bench: ${path} answered ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, any>;
}
const login = await app.inject({ method: 'POST', url: '/Common/Auth/login', payload: { username: 'admin', password: 'bolx-demo-admin' } });
const token = String(login.json().accesstoken);

// ----- the two months: the run's (the latest ended month of 30 days) and the accrual's (this one, so far) -----
const warehouse = await db.selectFrom('warehouse').select(['id', 'timezone']).where('code', '=', 'NJ1').executeTakeFirstOrThrow();
const today = businessDay(warehouse.timezone, new Date());
const monthStart = (y: number, m: number) => new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
let back = 1;
const daysOf = (k: number) => (Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - k, 1) - Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - k, 1)) / 86_400_000;
while (daysOf(back) !== 30) back++;
const from = monthStart(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - back);
const to = `${from.slice(0, 8)}30`;
const accrualFrom = `${today.slice(0, 8)}01`;
const daysSoFar = Number(today.slice(8));
const customerId = await makeCustomer(database, [warehouse.id], 'Bench Billing Client');
const stamp = new Date().toISOString();
const chunks = async <T>(rows: T[], insert: (part: T[]) => Promise<unknown>) => { for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500)); };
await chunks(Array.from({ length: 1000 }, (_, i) => ({
  customer_id: customerId, sku_code: `BENCH-BL-${String(i).padStart(4, '0')}`, description: `Bench billing item ${i}`, uom: 'EA', upc: null, is_kit: 0, is_active: 1,
  weight_kg: null, length_cm: 10, width_cm: 10, height_cm: 10, created_at: stamp, updated_at: stamp,
})), (part) => db.insertInto('sku').values(part).execute());
const skus = (await db.selectFrom('sku').select('id').where('customer_id', '=', customerId).orderBy('id').execute()).map((s) => s.id);
const locations = await db.selectFrom('location').select(['id', 'type']).where('warehouse_id', '=', warehouse.id).where('type', 'in', ['rack', 'shelf']).orderBy('id').execute();
const seedStarted = performance.now();
phase(`seeding 2 × ${(BALANCES * ROWS_PER_BALANCE).toLocaleString('en-US')} ledger rows (${from} to ${to}, and ${accrualFrom} to ${today})`);
const plusDays = (start: string, offset: RawSql) => postgres
  ? sql`to_char(CAST(${start} AS date) + CAST(${offset} AS integer), 'YYYY-MM-DD')` : sql`date(${start}, '+' || (${offset}) || ' days')`;
await db.transaction().execute(async (tx) => {
  await chunks(Array.from({ length: BALANCES }, (_, b) => ({
    warehouse_id: warehouse.id, customer_id: customerId, sku_id: skus[b % skus.length], location_id: locations[(b * 7919) % locations.length].id,
    lot: `BILL-${b}`, pallet: b % 4 === 0 ? `BPLT-${Math.floor(b / 4)}` : '', expiry_date: '2099-12-31', on_hand: 0, allocated: 0, updated_at: stamp, received_at: stamp,
  })), (part) => tx.insertInto('inventory_balance').values(part).execute());
  // On PostgreSQL the per-row trigger would update each balance 100 times (a dead tuple each); the rows are
  // well-formed, so the seed skips triggers and sets the sums they would have made (as stock-seed.ts does).
  if (postgres) {
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    await sql`UPDATE inventory_balance SET on_hand = ${2 * MONTH_SUM} WHERE customer_id = ${customerId}`.execute(tx);
  }
  // Row j of a balance: the first ROWS_PER_BALANCE in the run's month, the next in this month, each month's days in
  // order. Row n of a month: n = 0 a receipt of 100 (10 balances a receiving order, one line each), then moves out 3
  // and in 2. Each row brings its expiry and receipt time, so the balance trigger (SQLite) looks up no source rows.
  const n = sql`(d.n % ${ROWS_PER_BALANCE})`;
  const day = sql`CASE WHEN j.n < ${ROWS_PER_BALANCE} THEN ${plusDays(from, sql`(j.n * 30) / ${ROWS_PER_BALANCE}`)}
    ELSE ${plusDays(accrualFrom, sql`((j.n - ${ROWS_PER_BALANCE}) * ${daysSoFar}) / ${ROWS_PER_BALANCE}`)} END`;
  const at = postgres ? sql`CAST(d.day || 'T12:00:00Z' AS timestamptz)` : sql`d.day || 'T12:00:00.000Z'`;
  await sql`
    WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < ${2 * ROWS_PER_BALANCE - 1}),
      d AS (SELECT j.n AS n, ${day} AS day FROM j)
    INSERT INTO inventory_txn (at, business_day, warehouse_id, customer_id, sku_id, location_id, lot, pallet, qty_change, txn_type, reason, document_type, document_id, document_line, user_id, expiry_date, received_at)
    SELECT ${at}, d.day, b.warehouse_id, b.customer_id, b.sku_id, b.location_id, b.lot, b.pallet,
      CASE WHEN ${n} = 0 THEN 100 WHEN ${n} % 2 = 1 THEN -3 ELSE 2 END,
      CASE WHEN ${n} = 0 THEN 'receive' WHEN ${n} % 2 = 1 THEN 'move_out' ELSE 'move_in' END, NULL,
      CASE WHEN ${n} = 0 THEN 'RECEIPT' ELSE 'BENCH' END,
      CASE WHEN ${n} = 0 THEN 'BENCH-RO-' || substr(d.day, 1, 7) || '-' || CAST(b.id / 10 AS TEXT) ELSE b.lot END,
      CASE WHEN ${n} = 0 THEN CAST(b.id AS TEXT) ELSE NULL END, NULL, b.expiry_date, b.received_at
    FROM inventory_balance b CROSS JOIN d WHERE b.customer_id = ${customerId} ORDER BY b.id, d.n`.execute(tx);
  // Labels with a carrier cost, RMAs opened, units returned: one event each, spread over each month.
  const events = (kind: string, count: number, docType: string, quantity: number, amount: RawSql, start: string, days: number, firstDoc: number) => sql`
    WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < ${count - 1})
    INSERT INTO floor_event (kind, warehouse_id, customer_id, quantity, doc_type, doc_id, amount_minor, at, at_ms, business_day)
    SELECT ${kind}, CAST(${warehouse.id} AS INTEGER), CAST(${customerId} AS INTEGER), CAST(${quantity} AS INTEGER), ${docType}, j.n + ${firstDoc}, ${amount},
      CAST(${stamp} AS ${sql.raw(postgres ? 'timestamptz' : 'TEXT')}), CAST(${Date.now()} AS BIGINT), ${plusDays(start, sql`(j.n * ${days}) / ${count}`)} FROM j`.execute(tx);
  for (const [start, days, firstDoc] of [[from, 30, 1], [accrualFrom, daysSoFar, 1_000_001]] as const) {
    await events('label', LABELS, 'SHIPMENT', 1, sql`500 + j.n % 700`, start, days, firstDoc);
    await events('rma', RMAS, 'RMA', 0, sql`NULL`, start, days, firstDoc);
    await events('return-receive', RETURNS, 'RMA', 2, sql`NULL`, start, days, firstDoc);
  }
  // The snapshots, as the daily schedule takes them: one row a day for the client (its 20,000 balances summed).
  const snapshotDays = [...Array.from({ length: 30 }, (_, d) => `${from.slice(0, 8)}${String(d + 1).padStart(2, '0')}`),
    ...Array.from({ length: daysSoFar - 1 }, (_, d) => `${accrualFrom.slice(0, 8)}${String(d + 1).padStart(2, '0')}`)];
  const byType = (type: string) => new Set(Array.from({ length: BALANCES }, (_, b) => locations[(b * 7919) % locations.length]).filter((l) => l.type === type).map((l) => l.id)).size;
  const locationsJson = JSON.stringify({ rack: byType('rack'), shelf: byType('shelf') });
  for (const day of snapshotDays) {
    await tx.insertInto('storage_snapshot_day').values({ warehouse_id: warehouse.id, day, source: 'rebuilt', taken_at: stamp }).onConflict((oc) => oc.doNothing()).execute();
    await tx.insertInto('storage_snapshot').values({
      warehouse_id: warehouse.id, customer_id: customerId, day, units: BALANCES * MONTH_SUM, pallets: BALANCES / 4, volume_cm3: BALANCES * MONTH_SUM * 1000, locations_json: locationsJson,
    }).execute();
  }
});
type RawSql = ReturnType<typeof sql>;
if (postgres) await sql`VACUUM ANALYZE`.execute(db);
const seedSeconds = (performance.now() - seedStarted) / 1000;
phase(`seeded in ${seedSeconds.toFixed(0)} s; running`);

const rates = [
  ['receiving_unit', 5], ['receiving_order', 500], ['receiving_line', 50], ['receiving_pallet', 200], ['label_fee', 25], ['return_rma', 300], ['return_unit', 40],
  ['storage_pallet_day', 100], ['storage_location_month', 3100], ['storage_cbm_day', 200], ['storage_unit_month', 31],
].map(([chargeType, rateMinor]) => ({ chargeType, qualifier: '', rateMinor, markupBp: 0 }));
rates.push({ chargeType: 'carrier_markup', qualifier: '', rateMinor: 0, markupBp: 1500 });
await post('/Warehouse/Billing/SaveRateCard', { customerId, warehouseId: warehouse.id, effectiveFrom: '2000-01-01', rates }, token);

const timed = async (work: () => Promise<unknown>) => { const t = performance.now(); await work(); return performance.now() - t; };
const scopeOf = (first: string, last: string) => sql`warehouse_id = ${warehouse.id} AND customer_id = ${customerId} AND business_day >= ${first} AND business_day <= ${last}`;
const scope = scopeOf(from, to);

// ----- the run: created (not timed), worked (timed), discarded (not timed); the raw copy between, alternating -----
await sql`CREATE TABLE bench_raw_activity (id bigint, day varchar(10), quantity bigint, kind varchar(32))`.execute(db);
const rawCopy = async () => {
  await sql`INSERT INTO bench_raw_activity (id, day, quantity, kind) SELECT id, business_day, qty_change, txn_type FROM inventory_txn WHERE ${scope}`.execute(db);
  await sql`INSERT INTO bench_raw_activity (id, day, quantity, kind) SELECT id, business_day, quantity, kind FROM floor_event WHERE ${scope}`.execute(db);
};
const run: OrderFigures = { appMs: [], rawMs: [], statements: 0, note: '' };
let charges = 0;
let total = 0;
for (let round = 0; round < RUNS; round++) {
  const created = await post('/Warehouse/Billing/CreateBillingRun', { customerId, warehouseId: warehouse.id, periodKind: 'monthly', periodFrom: from, periodTo: to }, token);
  const { invoice, job } = created.data as { invoice: { invoiceId: number }; job: { jobId: number } };
  // Each step's time, from the run's own progress reports (a step reports as it starts).
  const steps: string[] = [];
  let last: { what: string; at: number } | null = null;
  const lap = (what: string) => {
    const now = performance.now();
    if (last) steps.push(`${last.what.replace(/^Step \d+ of \d+: /, '')} ${((now - last.at) / 1000).toFixed(2)}`);
    last = { what, at: now };
  };
  const ctx = {
    jobId: job.jobId, attempt: 1, maxAttempts: 1, ownerUserId: null, warehouseId: null, customerId: null, signal: new AbortController().signal,
    progress: async (_done: number, _total: number, what?: string) => { if (what?.startsWith('Step') || what === 'Draft ready') lap(what); },
  };
  run.appMs.push(await timed(() => app.services.billing.work({ invoiceId: invoice.invoiceId }, ctx)));
  phase(`run ${round + 1}: ${(run.appMs[round] / 1000).toFixed(2)} s — steps (s): ${steps.join(', ')}`);
  const made = await db.selectFrom('billing_charge').select((eb) => eb.fn.countAll<number>().as('n')).where('invoice_id', '=', invoice.invoiceId).executeTakeFirstOrThrow();
  charges = Number(made.n);
  total = Number((await db.selectFrom('invoice').select('total_minor').where('id', '=', invoice.invoiceId).executeTakeFirstOrThrow()).total_minor);
  await post('/Warehouse/Billing/DiscardInvoice', { invoiceId: invoice.invoiceId }, token);
  run.rawMs.push(await timed(rawCopy));
  await sql`DELETE FROM bench_raw_activity`.execute(db);
}
const activity = BALANCES * ROWS_PER_BALANCE + LABELS + RMAS + RETURNS;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (ms: number, target: number) => `${ms <= target ? 'PASS' : 'FAIL'} against ≤ ${target.toLocaleString('en-US')} ms`;
run.note = `${(BALANCES * ROWS_PER_BALANCE / 1e6).toLocaleString('en-US')}M ledger rows + ${((LABELS + RMAS + RETURNS) / 1000).toFixed(0)}k events + 30 snapshots of ${BALANCES.toLocaleString('en-US')} balances (${from} to ${to}) → ${charges.toLocaleString('en-US')} charges (total ${total}); median ${(median(run.appMs) / 1000).toFixed(2)} s, raw ${(median(run.rawMs) / 1000).toFixed(2)} s = INSERT…SELECT of the ${activity.toLocaleString('en-US')} rows; seeded in ${seedSeconds.toFixed(0)} s`;
phase(`runs took ${run.appMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s (${verdict(Math.max(...run.appMs), settings.targets.billingRunMs)}); raw copies ${run.rawMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);

// ----- the live accrual (this month so far), against a raw read of the same rows -----
// The quarter-hourly schedule's refresh of the accrual's materialisation (timed apart), then the rows that land
// after it: DELTA_BALANCES balances' worth of today's rows (a receipt each, then moves) and DELTA_EVENTS labels,
// RMAs and units returned — far more than a quarter of an hour brings at this client's rate — which the accrual
// reads on top of the materialised counts.
const DELTA_BALANCES = 200;
const DELTA_EVENTS = 500;
const refreshMs = await timed(() => materialise(db, database.dialect, customerId, warehouse.id, today));
phase(`accrual materialised in ${(refreshMs / 1000).toFixed(2)} s; adding ${(DELTA_BALANCES * ROWS_PER_BALANCE).toLocaleString('en-US')} ledger rows and ${(2 * DELTA_EVENTS + DELTA_EVENTS / 10).toLocaleString('en-US')} events after it`);
await db.transaction().execute(async (tx) => {
  if (postgres) await sql`SET LOCAL session_replication_role = replica`.execute(tx);
  const n = sql`(j.n % ${ROWS_PER_BALANCE})`;
  const at = postgres ? sql`CAST(${today} || 'T12:00:00Z' AS timestamptz)` : sql`${today} || 'T12:00:00.000Z'`;
  await sql`
    WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < ${ROWS_PER_BALANCE - 1}),
      b AS (SELECT * FROM inventory_balance WHERE customer_id = ${customerId} ORDER BY id LIMIT ${DELTA_BALANCES})
    INSERT INTO inventory_txn (at, business_day, warehouse_id, customer_id, sku_id, location_id, lot, pallet, qty_change, txn_type, reason, document_type, document_id, document_line, user_id, expiry_date, received_at)
    SELECT ${at}, ${today}, b.warehouse_id, b.customer_id, b.sku_id, b.location_id, b.lot, b.pallet,
      CASE WHEN ${n} = 0 THEN 100 WHEN ${n} % 2 = 1 THEN -3 ELSE 2 END,
      CASE WHEN ${n} = 0 THEN 'receive' WHEN ${n} % 2 = 1 THEN 'move_out' ELSE 'move_in' END, NULL,
      CASE WHEN ${n} = 0 THEN 'RECEIPT' ELSE 'BENCH' END,
      CASE WHEN ${n} = 0 THEN 'BENCH-RO-DELTA-' || CAST(b.id / 10 AS TEXT) ELSE b.lot END,
      CASE WHEN ${n} = 0 THEN CAST(b.id AS TEXT) ELSE NULL END, NULL, b.expiry_date, b.received_at
    FROM b CROSS JOIN j ORDER BY b.id, j.n`.execute(tx);
  if (postgres) await sql`UPDATE inventory_balance SET on_hand = on_hand + ${MONTH_SUM} WHERE id IN (SELECT id FROM inventory_balance WHERE customer_id = ${customerId} ORDER BY id LIMIT ${DELTA_BALANCES})`.execute(tx);
  for (const [kind, count, quantity, amount] of [['label', DELTA_EVENTS, 1, sql`700 + j.n % 300`], ['rma', DELTA_EVENTS / 10, 0, sql`NULL`], ['return-receive', DELTA_EVENTS, 2, sql`NULL`]] as const) {
    await sql`
      WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < ${count - 1})
      INSERT INTO floor_event (kind, warehouse_id, customer_id, quantity, doc_type, doc_id, amount_minor, at, at_ms, business_day)
      SELECT ${kind}, CAST(${warehouse.id} AS INTEGER), CAST(${customerId} AS INTEGER), CAST(${quantity} AS INTEGER), ${kind === 'label' ? 'SHIPMENT' : 'RMA'}, j.n + 2000001, ${amount},
        CAST(${stamp} AS ${sql.raw(postgres ? 'timestamptz' : 'TEXT')}), CAST(${Date.now()} AS BIGINT), ${today} FROM j`.execute(tx);
  }
});
if (postgres) await sql`ANALYZE inventory_txn`.execute(db);
const accrualScope = scopeOf(accrualFrom, today);
const accrual: OrderFigures = { appMs: [], rawMs: [], statements: 0, note: '' };
await post('/Warehouse/Billing/GetUnbilled', { customerId, warehouseId: warehouse.id }, token); // warm
for (let i = 0; i < ACCRUALS; i++) {
  accrual.appMs.push(await timed(() => post('/Warehouse/Billing/GetUnbilled', { customerId, warehouseId: warehouse.id }, token)));
  accrual.rawMs.push(await timed(async () => {
    await sql`SELECT txn_type, COUNT(*), SUM(qty_change) FROM inventory_txn WHERE ${accrualScope} GROUP BY txn_type`.execute(db);
    await sql`SELECT kind, COUNT(*), SUM(quantity) FROM floor_event WHERE ${accrualScope} GROUP BY kind`.execute(db);
  }));
}
accrual.note = `this month so far (${accrualFrom} to ${today}) for that client, from the quarter-hourly materialisation (refreshed in ${(refreshMs / 1000).toFixed(2)} s) plus ${(DELTA_BALANCES * ROWS_PER_BALANCE).toLocaleString('en-US')} ledger rows and ${(2 * DELTA_EVENTS + DELTA_EVENTS / 10).toLocaleString('en-US')} events after it: median ${median(accrual.appMs).toFixed(0)} ms; raw ${median(accrual.rawMs).toFixed(0)} ms = counts and sums over the same ${activity.toLocaleString('en-US')} rows`;

await sql`DROP TABLE bench_raw_activity`.execute(db);
phase(`accruals took ${accrual.appMs.map((ms) => ms.toFixed(0)).join(', ')} ms (${verdict(Math.max(...accrual.appMs), settings.targets.billingAccrualMs)}); raw reads ${accrual.rawMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
writeFileSync(capturedFile, JSON.stringify({ run, accrual } satisfies BillingBenchResult));
await app.close();
await database.close();
process.send?.({ done: true });
process.exit(0);
