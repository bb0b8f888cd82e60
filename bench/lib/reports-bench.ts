// Child process, run once per engine: issue 17's benchmark — every report over one year of one warehouse holding
// 1,000,000 ledger rows and 100,000 orders (settings.reports; smaller sizes for a quick run) answers within
// settings.targets.reportP99Ms at p99 (or runs as a job).
//   seed:   a client of its own in the demo's NJ1 with, spread over the last 365 days: its orders (3 lines each, each
//           released and shipped in the status history, some backordered), a pick per line and a pack per order in
//           the activity log, shifts for the demo's users, receiving orders received and put away hours later, audit
//           rows, and its ledger (balances × rows, some idle for months: dead stock). Raw INSERT … SELECT, as the
//           other seeds.
//   each report: POST …/GetReport with the last 12 months of NJ1, a warm-up then `runs` times (p99 of those); against
//           a raw count over the rows the report reads (its main table, the same year), in the same run.
import { writeFileSync } from 'node:fs';
import { sql, type RawBuilder } from 'kysely';
import { REPORTS, REPORT_AREAS, type ReportKey } from '@bolx/contracts';
import { addDays, businessDay } from '../../server/src/platform/business-day.js';
import { makeCustomer } from '../../server/test/helpers.js';
import { refreshReportRollups } from '../../server/src/modules/reports/report-rollups.js';
import { openCaptureApp } from './capture-app.js';
import type { OrderFigures } from './orders-bench.js';
import { settings } from './settings.js';

const phase = (what: string) => process.stderr.write(`  reports bench: ${what} (${new Date().toISOString().slice(11, 19)})\n`);

export interface ReportsBenchResult { cases: (OrderFigures & { report: string })[]; seedSeconds: number; sizes: string }

const { orders: ORDERS, ledgerRows: LEDGER_ROWS, runs: RUNS } = settings.reports;
const SKUS = 1000;
const BALANCES = Math.max(1, Math.round(LEDGER_ROWS / 50));
const ROWS_PER_BALANCE = Math.max(1, Math.round(LEDGER_ROWS / BALANCES));
const RECEIVING_ORDERS = Math.max(10, Math.round(ORDERS / 50));
const RO_LINES = 5;
const AUDIT_ROWS = Math.max(1000, ORDERS * 2);
const DAYS = 365;

const { capturedFile, app, database, db } = await openCaptureApp('reports-bench');
const postgres = !!database.pool;
const login = await app.inject({ method: 'POST', url: '/Common/Auth/login', payload: { username: 'admin', password: 'bolx-demo-admin' } });
const token = String(login.json().accesstoken);

const warehouse = await db.selectFrom('warehouse').select(['id', 'timezone']).where('code', '=', 'NJ1').executeTakeFirstOrThrow();
const today = businessDay(warehouse.timezone, new Date());
const first = addDays(today, -(DAYS - 1));
const startSec = Date.parse(`${first}T00:00:00.000Z`) / 1000;
const customerId = await makeCustomer(database, [warehouse.id], 'Bench Reports Client');
const stamp = new Date().toISOString();
const chunks = async <T>(rows: T[], insert: (part: T[]) => Promise<unknown>) => { for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500)); };
await chunks(Array.from({ length: SKUS }, (_, i) => ({
  customer_id: customerId, sku_code: `BENCH-RP-${String(i).padStart(4, '0')}`, description: `Bench report item ${i}`, uom: 'EA', upc: null, is_kit: 0, is_active: 1,
  weight_kg: null, length_cm: 10, width_cm: 10, height_cm: 10, created_at: stamp, updated_at: stamp,
})), (part) => db.insertInto('sku').values(part).execute());
const skuIds = (await db.selectFrom('sku').select('id').where('customer_id', '=', customerId).orderBy('id').execute()).map((s) => s.id);
if (skuIds[skuIds.length - 1] - skuIds[0] + 1 !== SKUS) throw new Error('reports-bench: the bench SKUs are not numbered one after another');
const sku0 = skuIds[0];
const locations = (await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('type', 'in', ['rack', 'shelf']).orderBy('id').execute()).map((l) => l.id);
const dock = (await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('type', 'not in', ['rack', 'shelf']).orderBy('id').executeTakeFirstOrThrow()).id;
const users = (await db.selectFrom('app_user').select(['id', 'username']).orderBy('id').limit(8).execute());
/** An integer parameter typed (PostgreSQL takes an untyped one in a SELECT list for text). */
const int = (v: number) => sql`CAST(${v} AS INTEGER)`;
const userOf = (n: RawBuilder<unknown>) => sql`CASE (${n}) % ${users.length} ${sql.join(users.map((u, i) => sql`WHEN ${i} THEN ${int(u.id)}`), sql` `)} END`;

// Instants as each engine keeps them: ISO text on SQLite, timestamptz on PostgreSQL.
type Sql = RawBuilder<unknown>;
const at = (seconds: Sql) => postgres ? sql`to_timestamp(${startSec} + (${seconds}))` : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${startSec} + (${seconds}), 'unixepoch')`;
const dayOf = (seconds: Sql) => postgres ? sql`to_char(to_timestamp(${startSec} + (${seconds})) AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : sql`strftime('%Y-%m-%d', ${startSec} + (${seconds}), 'unixepoch')`;
const msOf = (seconds: Sql) => sql`(CAST(${startSec} AS BIGINT) + (${seconds})) * 1000`;
const series = (count: number) => sql`WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < ${count - 1})`;
/** Order n's creation, in seconds from the first day: its day, between 13:00 and 21:00 UTC (the warehouse's working day). */
const orderSec = sql`(j.n * ${DAYS}) / ${ORDERS} * 86400 + 46800 + (j.n * 7919) % 28800`;
/** The order's seconds again from its number (so_number 'BRP-n'), for the rows that follow it. */
const nOf = sql`CAST(substr(o.so_number, 5) AS INTEGER)`;
const orderSecOf = sql`(${nOf} * ${DAYS}) / ${ORDERS} * 86400 + 46800 + (${nOf} * 7919) % 28800`;

const seedStarted = performance.now();
phase(`seeding ${ORDERS.toLocaleString('en-US')} orders and ${(BALANCES * ROWS_PER_BALANCE).toLocaleString('en-US')} ledger rows over ${first} to ${today}`);
await db.transaction().execute(async (tx) => {
  if (postgres) await sql`SET LOCAL session_replication_role = replica`.execute(tx);
  // Orders: 1 in 100 still open (New), the rest shipped; requested to ship two days after they came in.
  await sql`${series(ORDERS)}
    INSERT INTO sales_order (so_number, warehouse_id, customer_id, order_type, reference_number, order_date, requested_ship_date, priority, carrier_service, status, source, created_at, updated_at, shipped_at)
    SELECT 'BRP-' || CAST(j.n AS TEXT), ${int(warehouse.id)}, ${int(customerId)}, 'Sales', 'BRP-REF-' || CAST(j.n AS TEXT), ${dayOf(orderSec)}, ${dayOf(sql`${orderSec} + 2 * 86400`)}, 5,
      CASE j.n % 3 WHEN 0 THEN 'Ground' WHEN 1 THEN '2Day' ELSE 'Overnight' END,
      CASE WHEN j.n % 100 = 99 THEN 'New' ELSE 'Shipped' END, 'api', ${at(orderSec)}, ${at(orderSec)},
      CASE WHEN j.n % 100 = 99 THEN NULL ELSE ${at(sql`${orderSec} + 3600 * (4 + j.n % 70)`)} END
    FROM j`.execute(tx);
  await sql`WITH k(n) AS (SELECT 0 UNION ALL SELECT 1 UNION ALL SELECT 2)
    INSERT INTO sales_order_line (order_id, line_no, sku_id, quantity, units_per_package, lot, allocated_qty, shipped_qty, picked_qty, packed_qty)
    SELECT o.id, k.n + 1, ${int(sku0)} + (o.id * 7 + k.n) % ${int(SKUS)}, 1 + (o.id + k.n) % 5, 1, '', 0, 0, 0, 0
    FROM sales_order o CROSS JOIN k WHERE o.customer_id = ${customerId}`.execute(tx);
  // The status history: released an hour after it came in, shipped 4 to 73 hours after; 1 in 50 backordered first.
  const history = (to: string, from: string, offset: Sql, where: Sql) => sql`
    INSERT INTO document_status_history (kind, document_id, from_status, to_status, at, user_id, username, reason)
    SELECT 'SALES_ORDER', o.id, ${from}, ${to}, ${at(sql`${orderSecOf} + ${offset}`)}, NULL, 'bench', NULL
    FROM sales_order o WHERE o.customer_id = ${customerId} AND ${where}`.execute(tx);
  await history('Backordered', 'New', sql`600`, sql`${nOf} % 50 = 0`);
  await history('Released', 'New', sql`3600`, sql`${nOf} % 100 <> 99`);
  await history('Shipped', 'Packed', sql`3600 * (4 + ${nOf} % 70)`, sql`${nOf} % 100 <> 99`);
  // The activity log: a pick per line (two hours in, 30 s apart) and a pack per order, by the demo's users.
  await sql`INSERT INTO floor_event (kind, warehouse_id, customer_id, user_id, order_id, order_line_id, sku_id, location_id, quantity, at, at_ms, business_day, seconds_since_previous)
    SELECT 'pick', o.warehouse_id, o.customer_id, ${userOf(sql`o.id`)}, o.id, l.id, l.sku_id, ${int(locations[0])}, l.quantity,
      ${at(sql`${orderSecOf} + 7200 + 30 * l.line_no`)}, ${msOf(sql`${orderSecOf} + 7200 + 30 * l.line_no`)}, ${dayOf(sql`${orderSecOf} + 7200`)}, 30
    FROM sales_order_line l INNER JOIN sales_order o ON o.id = l.order_id WHERE o.customer_id = ${customerId} AND ${nOf} % 100 <> 99`.execute(tx);
  await sql`INSERT INTO floor_event (kind, warehouse_id, customer_id, user_id, order_id, quantity, at, at_ms, business_day, seconds_since_previous)
    SELECT 'pack', o.warehouse_id, o.customer_id, ${userOf(sql`o.id + 1`)}, o.id, 3, ${at(sql`${orderSecOf} + 9000`)}, ${msOf(sql`${orderSecOf} + 9000`)}, ${dayOf(sql`${orderSecOf} + 9000`)}, 60
    FROM sales_order o WHERE o.customer_id = ${customerId} AND ${nOf} % 100 <> 99`.execute(tx);
  // A shift a day for each of the users: 13:00 to 21:00 UTC.
  await sql`${series(DAYS * users.length)}
    INSERT INTO labour_shift (user_id, warehouse_id, business_day, clock_in, clock_in_ms, clock_out, clock_out_ms)
    SELECT ${userOf(sql`j.n`)}, ${int(warehouse.id)}, ${dayOf(sql`(j.n / ${users.length}) * 86400`)},
      ${at(sql`(j.n / ${users.length}) * 86400 + 46800`)}, ${msOf(sql`(j.n / ${users.length}) * 86400 + 46800`)},
      ${at(sql`(j.n / ${users.length}) * 86400 + 75600`)}, ${msOf(sql`(j.n / ${users.length}) * 86400 + 75600`)} FROM j`.execute(tx);
  // Receiving: orders of 5 lines, received at the dock and put away 2 to 30 hours later.
  const roSec = sql`(j.n * ${DAYS}) / ${RECEIVING_ORDERS} * 86400 + 50400`;
  await sql`${series(RECEIVING_ORDERS)}
    INSERT INTO receiving_order (ro_number, warehouse_id, customer_id, supplier, reference_number, expected_date, status, created_at, updated_at, received_at, finalized_at, closed_at)
    SELECT 'BRR-' || CAST(j.n AS TEXT), ${int(warehouse.id)}, ${int(customerId)}, 'Bench supplier', '', ${dayOf(roSec)}, 'Closed', ${at(roSec)}, ${at(roSec)}, ${at(roSec)}, ${at(roSec)}, ${at(roSec)} FROM j`.execute(tx);
  await sql`WITH k(n) AS (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5)
    INSERT INTO receiving_order_line (order_id, line_no, sku_id, expected_qty, received_qty, damaged_qty, putaway_qty, lot, expiry_date)
    SELECT o.id, k.n, ${int(sku0)} + (o.id * ${int(RO_LINES)} + k.n) % ${int(SKUS)}, 20, 20, 0, 20, '', NULL FROM receiving_order o CROSS JOIN k WHERE o.customer_id = ${customerId}`.execute(tx);
  const roSecOf = sql`(CAST(substr(o.ro_number, 5) AS INTEGER) * ${DAYS}) / ${RECEIVING_ORDERS} * 86400 + 50400`;
  await sql`INSERT INTO receiving_receipt (order_id, line_id, warehouse_id, customer_id, sku_id, location_id, lot, expiry_date, pallet, quantity, damaged_qty, damaged_location_id, document_id, user_id, username, at)
    SELECT o.id, l.id, o.warehouse_id, o.customer_id, l.sku_id, ${int(dock)}, '', NULL, '', 20, 0, NULL, 'BRR-' || CAST(l.id AS TEXT), NULL, 'bench', ${at(sql`${roSecOf} + 60 * l.line_no`)}
    FROM receiving_order_line l INNER JOIN receiving_order o ON o.id = l.order_id WHERE o.customer_id = ${customerId}`.execute(tx);
  await sql`INSERT INTO receiving_putaway (order_id, line_id, from_location_id, to_location_id, lot, pallet, quantity, document_id, user_id, username, at)
    SELECT o.id, l.id, ${int(dock)}, ${int(locations[1 % locations.length])}, '', '', 20, 'BRP-' || CAST(l.id AS TEXT), NULL, 'bench', ${at(sql`${roSecOf} + 3600 * (2 + o.id % 29) + 60 * l.line_no`)}
    FROM receiving_order_line l INNER JOIN receiving_order o ON o.id = l.order_id WHERE o.customer_id = ${customerId}`.execute(tx);
  // The audit log: changes through the year, in the warehouse and for the client.
  await sql`${series(AUDIT_ROWS)}
    INSERT INTO audit_log (at, user_id, username, action, entity, entity_id, warehouse_id, customer_id, before_json, after_json, request_id, ip)
    SELECT ${at(sql`(j.n * ${DAYS}) / ${AUDIT_ROWS} * 86400 + (j.n * 7919) % 86400`)}, NULL, 'bench', 'Update', 'sales_order', CAST(j.n AS TEXT), ${int(warehouse.id)}, ${int(customerId)}, NULL, '{}', NULL, NULL FROM j`.execute(tx);
  // The ledger: balances of the client, each moved ROWS_PER_BALANCE times over the year; one in four stopped moving
  // 9 months ago (dead stock). Each row brings its expiry and receipt time (the SQLite balance trigger looks up nothing).
  await chunks(Array.from({ length: BALANCES }, (_, b) => ({
    warehouse_id: warehouse.id, customer_id: customerId, sku_id: skuIds[b % SKUS], location_id: locations[(b * 7919) % locations.length],
    lot: `BRPL-${b}`, pallet: '', expiry_date: '2099-12-31', on_hand: 0, allocated: 0, updated_at: stamp, received_at: stamp,
  })), (part) => tx.insertInto('inventory_balance').values(part).execute());
  const onHand = 100 + Array.from({ length: ROWS_PER_BALANCE - 1 }, (_, i) => ((i + 1) % 2 === 1 ? -3 : 2)).reduce((a, b) => a + b, 0);
  if (postgres) await sql`UPDATE inventory_balance SET on_hand = ${onHand} WHERE customer_id = ${customerId}`.execute(tx);
  const txnSec = sql`(j.n * (CASE WHEN b.id % 4 = 0 THEN ${int(DAYS - 273)} ELSE ${int(DAYS)} END)) / ${ROWS_PER_BALANCE} * 86400 + 50400 + (b.id % 600) * 10`;
  await sql`${series(ROWS_PER_BALANCE)}
    INSERT INTO inventory_txn (at, business_day, warehouse_id, customer_id, sku_id, location_id, lot, pallet, qty_change, txn_type, reason, document_type, document_id, document_line, user_id, expiry_date, received_at)
    SELECT ${at(txnSec)}, ${dayOf(txnSec)}, b.warehouse_id, b.customer_id, b.sku_id, b.location_id, b.lot, b.pallet,
      CASE WHEN j.n = 0 THEN 100 WHEN j.n % 2 = 1 THEN -3 ELSE 2 END, CASE WHEN j.n = 0 THEN 'receive' WHEN j.n % 2 = 1 THEN 'move_out' ELSE 'move_in' END,
      NULL, 'BENCH', b.lot, NULL, NULL, b.expiry_date, b.received_at
    FROM inventory_balance b CROSS JOIN j WHERE b.customer_id = ${customerId} ORDER BY b.id, j.n`.execute(tx);
});
if (postgres) await sql`VACUUM ANALYZE`.execute(db);
else await sql`ANALYZE`.execute(db);
const seedSeconds = (performance.now() - seedStarted) / 1000;
phase(`seeded in ${seedSeconds.toFixed(0)} s`);
// The reports' rollups as their quarter-hourly job keeps them in a running warehouse (the reports read the events after them too).
const rollupStarted = performance.now();
await refreshReportRollups(db, database.dialect);
phase(`report rollups built in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s`);
// A copy of the seeded SQLite database to study the reports' plans on (BENCH_REPORTS_KEEP=/path/file.db).
if (!postgres && process.env.BENCH_REPORTS_KEEP) await sql`VACUUM INTO ${process.env.BENCH_REPORTS_KEEP}`.execute(db);

const timed = async (work: () => Promise<unknown>) => { const t = performance.now(); await work(); return performance.now() - t; };
const lo = `${first}T00:00:00.000Z`;
/** The raw baseline of each report: a count over the rows it reads (its main table, the same year and warehouse). */
const raw: Record<ReportKey, Sql> = (() => {
  const orders = sql`SELECT count(*) FROM sales_order WHERE warehouse_id = ${warehouse.id} AND created_at >= ${lo}`;
  const shipped = sql`SELECT count(*) FROM document_status_history WHERE kind = 'SALES_ORDER' AND to_status = 'Shipped' AND at >= ${lo}`;
  const events = sql`SELECT count(*), sum(quantity) FROM floor_event WHERE warehouse_id = ${warehouse.id} AND business_day >= ${first}`;
  const balances = sql`SELECT count(*) FROM inventory_balance WHERE warehouse_id = ${warehouse.id} AND on_hand > 0`;
  return {
    'orders-per-day': orders, 'fulfilment-time': shipped, 'on-time-shipping': shipped, 'order-profile': orders,
    productivity: events, 'productivity-trend': events, 'labour-time': events, 'labour-cost': events,
    'location-utilisation': balances, 'empty-locations': balances, 'sku-velocity': events,
    'dead-stock': sql`SELECT count(*), max(at) FROM inventory_txn WHERE warehouse_id = ${warehouse.id}`,
    'audit-log': sql`SELECT count(*) FROM audit_log WHERE at >= ${lo}`,
    'dock-to-stock': sql`SELECT count(*) FROM receiving_putaway WHERE at >= ${lo}`,
    'stock-on-hand': balances, availability: balances, 'stock-aging': balances,
    'stock-as-of': sql`SELECT count(*), sum(qty_change) FROM inventory_txn WHERE warehouse_id = ${warehouse.id}`,
    'receipts-per-day': sql`SELECT count(*) FROM receiving_receipt WHERE at >= ${lo}`,
    'receiving-status': sql`SELECT count(*) FROM receiving_order WHERE warehouse_id = ${warehouse.id}`,
    'receipt-accuracy': sql`SELECT count(*) FROM receiving_order_line`,
  };
})();

const cases: ReportsBenchResult['cases'] = [];
/** BENCH_REPORTS_ONLY=a,b: only those reports (a quick look at a few). */
const only = (process.env.BENCH_REPORTS_ONLY ?? '').split(',').filter(Boolean);
for (const report of (Object.keys(REPORTS) as ReportKey[]).filter((r) => only.length === 0 || only.includes(r))) {
  const area = REPORTS[report].area;
  const body = JSON.stringify({ report, filters: { warehouseId: warehouse.id, preset: 'last12Months' } });
  const request = async () => {
    const res = await app.inject({ method: 'POST', url: `/Warehouse/${area}/GetReport`, payload: body, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`reports-bench: ${report} answered ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json() as { rows: unknown[] };
  };
  const rows = (await request()).rows.length; // warm
  const figures = { report, appMs: [] as number[], rawMs: [] as number[], statements: 0, note: '' };
  // CPU time of this process too (the app runs in it; SQLite in its thread): on a shared machine the wall time
  // also holds the waits for a core.
  const cpuMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage();
    figures.appMs.push(await timed(request));
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    figures.rawMs.push(await timed(() => raw[report].execute(db)));
  }
  figures.note = `${REPORT_AREAS[area].title}: ${rows.toLocaleString('en-US')} rows; runs ${figures.appMs.map((ms) => ms.toFixed(0)).join(', ')} ms (CPU ${cpuMs.map((ms) => ms.toFixed(0)).join(', ')} ms)`;
  phase(`${report}: ${figures.note}`);
  cases.push(figures);
}

const sizes = `${(ORDERS / 1000).toLocaleString('en-US')}k orders, ${(BALANCES * ROWS_PER_BALANCE / 1e6).toLocaleString('en-US')}M ledger rows, ${first} to ${today}`;
writeFileSync(capturedFile, JSON.stringify({ cases, seedSeconds, sizes } satisfies ReportsBenchResult));
await app.close();
await database.close();
process.send?.({ done: true });
process.exit(0);
