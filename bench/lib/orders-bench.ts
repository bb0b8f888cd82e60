// Child process, run once per engine after the load cases: issue 12's two order figures, each against a raw
// replay of the statements the app sent for the same work, in the same run (trace.ts's recorder and replayer).
//   batch:  AllocateOrders of 1,000 orders × 5 lines over 2,000 SKUs (the route and its service, one request);
//           its target is seconds, the replay says how much of them is the app's own work.
//   single: one order's CreateOrder then AllocateOrders (both through the routes), against the replay of the
//           statements those two requests sent.
// Between the app's run and its replay the app gives the stock back (UnallocateOrders, not timed), so the replay
// reserves the same units from the same balances instead of finding them taken.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { openCaptureApp } from './capture-app.js';
import { readChildConfig } from './child.js';
import { openRawDb } from './raw-db.js';
import { refreshPlannerStatistics } from '../../server/src/db/prepare.js';
import { settings } from './settings.js';
import { recordStatements, replayer, type Trace } from './trace.js';

export interface OrderFigures {
  /** Per measured run, ms: the app's and the replay's, in the same order. */
  appMs: number[];
  rawMs: number[];
  /** Statements the app sent for one run (the batch: for all its orders). */
  statements: number;
  note: string;
}
export interface OrdersBenchResult { batch: OrderFigures; single: OrderFigures }

const cfg = readChildConfig();
const { capturedFile, app, database, db, inject } = await openCaptureApp('orders-bench');
const token = String((await inject('/Common/Auth/login', settings.user)).accesstoken);
const raw = openRawDb(cfg);

// ----- fixtures: 2,000 SKUs of the manager's first client, plenty of stock for each in pickable locations -----
const warehouse = await db.selectFrom('warehouse').select(['id']).where('code', '=', 'NJ1').executeTakeFirstOrThrow();
const { customer_id: customerId } = await db.selectFrom('customer_warehouse').select('customer_id')
  .where('warehouse_id', '=', warehouse.id).orderBy('customer_id').executeTakeFirstOrThrow();
const { batchOrders, batchLines, batchSkus, orderRuns, orderRounds } = settings.orders;
const stamp = new Date().toISOString();
const chunks = async <T>(rows: T[], insert: (part: T[]) => Promise<unknown>) => { for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500)); };
await chunks(Array.from({ length: batchSkus }, (_, i) => ({
  customer_id: customerId, sku_code: `BENCH-OR-${String(i).padStart(5, '0')}`, description: `Bench order item ${i}`, uom: 'EA', upc: null, is_kit: 0, is_active: 1,
  weight_kg: null, length_cm: null, width_cm: null, height_cm: null, created_at: stamp, updated_at: stamp,
})), (part) => db.insertInto('sku').values(part).execute());
const skus = (await db.selectFrom('sku').select('id').where('customer_id', '=', customerId).where('sku_code', 'like', 'BENCH-OR-%').orderBy('id').execute()).map((s) => s.id);
const faces = Math.ceil(batchSkus / 10);
await chunks(Array.from({ length: faces }, (_, i) => ({
  warehouse_id: warehouse.id, code: `OR-${String(i).padStart(5, '0')}`, type: 'shelf', zone: 'OR', aisle: null, rack: null, level: null, bin: null,
  capacity: 0, is_active: 1, is_pickable: 1, created_at: stamp, updated_at: stamp,
})), (part) => db.insertInto('location').values(part).execute());
const locations = (await db.selectFrom('location').select('id').where('warehouse_id', '=', warehouse.id).where('code', 'like', 'OR-%').orderBy('id').execute()).map((l) => l.id);
// Two places per SKU (ten SKUs a pick face), each with its ledger row (which makes its balance: migration 0014's trigger).
await chunks(skus.flatMap((skuId, i) => [0, 1].map((k) => ({
  warehouse_id: warehouse.id, customer_id: customerId, sku_id: skuId, location_id: locations[(i + k * 7) % locations.length], lot: '', pallet: `BENCH-OR-${k}`,
  at: stamp, qty_change: 1_000_000, txn_type: 'adjust', reason: 'bench stock', document_type: 'BENCH', document_id: 'bench-order-stock', user_id: null,
}))), (part) => db.insertInto('inventory_txn').values(part).execute());
// A live PostgreSQL would have analysed tables that grew this much (autovacuum, also after inserts): measure the
// plans it would make, not those for the demo's tiny tables.
await refreshPlannerStatistics(database);

const orderBody = (reference: string, lines: { skuId: number; quantity: number }[]) => ({
  warehouseId: warehouse.id, customerId, orderType: 'Sales', referenceNumber: reference, orderDate: stamp.slice(0, 10), shipToName: 'Bench Customer', lines,
});
const linesOf = (k: number) => Array.from({ length: batchLines }, (_, j) => ({ skuId: skus[(k * batchLines + j) % skus.length], quantity: 1 + ((k + j) % 5) }));
const orderIdOf = (res: Record<string, unknown>) => (res.data as { orderId: number }).orderId;
const unallocate = (orderIds: number[]) => inject('/Warehouse/Order/UnallocateOrders', { orderIds }, token);

const recorder = recordStatements(database.sqlite);
const settle = () => new Promise((r) => setTimeout(r, 20)); // after-commit work lands in its request's trace
const timed = async (work: () => Promise<unknown>) => { const t = performance.now(); await work(); return performance.now() - t; };

// ----- the batch: allocate, give back, replay; `orderRounds` times -----
const batchIds: number[] = [];
for (let k = 0; k < batchOrders; k++) batchIds.push(orderIdOf(await inject('/Warehouse/Order/CreateOrder', orderBody(`BENCH-BATCH-${k}`, linesOf(k)), token)));
const batch: OrderFigures = { appMs: [], rawMs: [], statements: 0, note: '' };
for (let round = 0; round < orderRounds; round++) {
  recorder.take();
  let summary: { allocated?: number } = {};
  batch.appMs.push(await timed(async () => { summary = (await inject('/Warehouse/Order/AllocateOrders', { orderIds: batchIds }, token)).summary as typeof summary; }));
  await settle();
  const trace = recorder.take();
  if (summary.allocated !== batchOrders) throw new Error(`orders-bench: ${summary.allocated} of ${batchOrders} orders allocated whole: ${JSON.stringify(summary)}`);
  batch.statements = trace.length;
  await unallocate(batchIds);
  const replay = replayer(trace);
  batch.rawMs.push(await timed(() => replay(raw)));
  await unallocate(batchIds); // what the replay reserved, given back for the next round
}
batch.note = `${batchOrders.toLocaleString('en-US')} orders × ${batchLines} lines over ${batchSkus.toLocaleString('en-US')} SKUs, one AllocateOrders; ${orderRounds} rounds`;

// ----- one order at a time: CreateOrder + AllocateOrders, then the replay of their statements -----
// The replay inserts an order again: the reference (a UUID) is made fresh by the replayer, and the app's order
// gives way (its number renamed, its lines renumbered, its stock given back) so the replay's rows fit beside it.
const single: OrderFigures = { appMs: [], rawMs: [], statements: 0, note: '' };
let perRequest = '';
for (let run = 0; run <= orderRuns; run++) {
  recorder.take();
  let orderId = 0;
  let created: Trace = [];
  const appMs = await timed(async () => {
    orderId = orderIdOf(await inject('/Warehouse/Order/CreateOrder', orderBody(`BENCH-1-${randomUUID()}`, linesOf(batchOrders + run)), token));
    created = recorder.take(); // not a statement: a copy of what was recorded, so the two requests are counted apart
    await inject('/Warehouse/Order/AllocateOrders', { orderIds: [orderId] }, token);
  });
  await settle();
  const allocated = recorder.take();
  const trace: Trace = [...created, ...allocated];
  perRequest = `CreateOrder ${created.length} + AllocateOrders ${allocated.length} statements`;
  await unallocate([orderId]);
  await db.updateTable('sales_order').set({ so_number: `BENCH-MOVED-${orderId}` }).where('id', '=', orderId).execute();
  await db.updateTable('sales_order_line').set((eb) => ({ line_no: eb('line_no', '+', 1000) })).where('order_id', '=', orderId).execute();
  const replay = replayer(trace);
  const rawMs = await timed(() => replay(raw));
  if (run === 0) continue; // the first pair warms both sides' statement caches
  single.appMs.push(appMs);
  single.rawMs.push(rawMs);
  single.statements = trace.length;
}
single.note = `${orderRuns} orders of ${batchLines} lines, one at a time (app through app.inject, no socket; raw: the same statements replayed through the same driver, `
  + `nothing else); ${perRequest}; ratio of medians`;

const result: OrdersBenchResult = { batch, single };
writeFileSync(capturedFile, JSON.stringify(result));
await raw.close();
await app.close();
await database.close();
process.send?.({ done: true });
process.exit(0);
