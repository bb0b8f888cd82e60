// Child process, run once per engine after the orders case: issue 13's floor figures, each against a raw replay
// of the statements the app sent for the same work, in the same run (trace.ts's recorder and replayer).
//   ship:    one order of `shipLines` lines from released to shipped through the real routes — CreateWave
//            (discrete), AssignTotes, ConfirmPick per stop, OpenPack, OpenCarton/PackItem/CloseCarton (a carton
//            per `linesPerCarton` lines), ConfirmShipment; the ship confirm and the whole flow timed apart.
//   picks:   `pickers` pickers confirming their own jobs' stops at once (a loop each over app.inject): picks/s.
//   print:   POST /Warehouse/BatchPrint/PickLists of those jobs before they are picked (`pickers` × `pickLines` lines).
// The replays start from the database as it was before the app's run (db-snapshot.ts), so they do the same work.
// Diagnostics of the pickers' run, each into the file it names: BENCH_PICKS_PROFILE (V8 CPU profile of this process),
// BENCH_PICKS_PERF (`perf record` of the whole machine), BENCH_PLANS (PostgreSQL's plans), BENCH_STATEMENT_TIMES
// (the replay's ms per pick by statement).
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import { openCaptureApp } from './capture-app.js';
import { cpuSampler, perfTo, profileTo } from './cpu.js';
import { readChildConfig } from './child.js';
import { takeSnapshot } from './db-snapshot.js';
import { writePlans } from './plans.js';
import { openRawDb, withStatementTimes } from './raw-db.js';
import { refreshPlannerStatistics } from '../../server/src/db/prepare.js';
import { settings } from './settings.js';
import { recordStatements, replayer, traceUnits, type Trace } from './trace.js';

export interface FloorFigures {
  /** Per measured run, ms: the app's and the replay's. */
  appMs: number[];
  rawMs: number[];
  statements: number;
  /** Units of work done in one run (picks confirmed, lines printed), for a rate. */
  units?: number;
  note: string;
}
export interface FloorBenchResult { ship: FloorFigures; flow: FloorFigures; picks: FloorFigures; print: FloorFigures }

const cfg = readChildConfig();
const { capturedFile, app, database, db, inject } = await openCaptureApp('floor-bench');
const token = String((await inject('/Common/Auth/login', settings.user)).accesstoken);
const { shipLines, linesPerCarton, pickers, pickLines, printRuns } = settings.floor;
const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`floor-bench: ${url} answered ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
};

// ----- fixtures: a SKU per order line, each in a pick face of its own, totes, a pack station, a carton type -----
const warehouse = await db.selectFrom('warehouse').select(['id']).where('code', '=', 'NJ1').executeTakeFirstOrThrow();
const { customer_id: customerId } = await db.selectFrom('customer_warehouse').select('customer_id')
  .where('warehouse_id', '=', warehouse.id).orderBy('customer_id').executeTakeFirstOrThrow();
const stamp = new Date().toISOString();
const chunks = async <T>(rows: T[], insert: (part: T[]) => Promise<unknown>) => { for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500)); };
const skuCount = shipLines + pickers * pickLines;
await chunks(Array.from({ length: skuCount }, (_, i) => ({
  customer_id: customerId, sku_code: `BENCH-FL-${String(i).padStart(5, '0')}`, description: `Bench floor item ${i}`, uom: 'EA', upc: null, is_kit: 0, is_active: 1,
  weight_kg: null, length_cm: null, width_cm: null, height_cm: null, created_at: stamp, updated_at: stamp,
})), (part) => db.insertInto('sku').values(part).execute());
const skus = await db.selectFrom('sku').select(['id', 'sku_code']).where('customer_id', '=', customerId).where('sku_code', 'like', 'BENCH-FL-%').orderBy('id').execute();
// Pick faces along aisles (so a job's stops have a walking order), one SKU each.
await chunks(skus.map((_, i) => ({
  warehouse_id: warehouse.id, code: `FL-${String(i).padStart(5, '0')}`, type: 'shelf', zone: 'FL', aisle: String(Math.floor(i / 100)).padStart(2, '0'),
  rack: String(Math.floor(i / 10) % 10), level: '1', bin: String(i % 10), capacity: 0, is_active: 1, is_pickable: 1, created_at: stamp, updated_at: stamp,
})), (part) => db.insertInto('location').values(part).execute());
await db.insertInto('location').values([
  ...Array.from({ length: pickers + 1 }, (_, i) => ({ warehouse_id: warehouse.id, code: `FL-TOTE-${i}`, type: 'tote', zone: null, aisle: null, rack: null, level: null, bin: null, capacity: 0, is_active: 1, is_pickable: 0, created_at: stamp, updated_at: stamp })),
  { warehouse_id: warehouse.id, code: 'FL-PACK', type: 'staging', zone: null, aisle: null, rack: null, level: null, bin: null, capacity: 0, is_active: 1, is_pickable: 0, created_at: stamp, updated_at: stamp },
]).execute();
const faces = new Map((await db.selectFrom('location').select(['id', 'code']).where('warehouse_id', '=', warehouse.id).where('code', 'like', 'FL-%').execute()).map((l) => [l.code, Number(l.id)]));
const station = faces.get('FL-PACK')!;
await chunks(skus.map((s, i) => ({
  warehouse_id: warehouse.id, customer_id: customerId, sku_id: s.id, location_id: faces.get(`FL-${String(i).padStart(5, '0')}`)!, lot: '', pallet: '',
  at: stamp, qty_change: 1000, txn_type: 'adjust', reason: 'bench stock', document_type: 'BENCH', document_id: 'bench-floor-stock', user_id: null,
})), (part) => db.insertInto('inventory_txn').values(part).execute());
const { id: cartonTypeId } = await db.insertInto('carton_type').values({
  warehouse_id: warehouse.id, code: 'BENCH-FL', name: 'Bench floor box', length_cm: 60, width_cm: 40, height_cm: 40, tare_weight_kg: 0.5, max_weight_kg: null, created_at: stamp, updated_at: stamp,
}).returning('id').executeTakeFirstOrThrow();
// A live PostgreSQL would have analysed tables that grew this much (autovacuum, also after inserts): measure the
// plans it would make, not those for the demo's tiny tables.
await refreshPlannerStatistics(database);

/** An order through the real routes, allocated: lines over skus[from, from + lines), 1–5 units each. */
async function allocatedOrder(reference: string, from: number, lines: number): Promise<number> {
  const created = await inject('/Warehouse/Order/CreateOrder', {
    warehouseId: warehouse.id, customerId, orderType: 'Sales', referenceNumber: reference, orderDate: stamp.slice(0, 10), shipToName: 'Bench Customer',
    lines: Array.from({ length: lines }, (_, j) => ({ skuId: skus[from + j].id, quantity: 1 + (j % 5) })),
  }, token);
  const orderId = (created.data as { orderId: number }).orderId;
  const allocated = await inject('/Warehouse/Order/AllocateOrders', { orderIds: [orderId] }, token);
  if ((allocated.summary as { allocated?: number }).allocated !== 1) throw new Error(`floor-bench: ${reference} not allocated whole: ${JSON.stringify(allocated.summary)}`);
  return orderId;
}
interface Stop { seq: number; locationCode: string; skuCode: string; quantity: number }
/** Released in a discrete wave: a job per order, each with a tote; answers the jobs in the orders' order. */
async function release(orderIds: number[], toteFrom: number): Promise<{ jobId: number; orderId: number }[]> {
  const wave = await inject('/Warehouse/Wave/CreateWave', { warehouseId: warehouse.id, orderIds, strategy: 'discrete' }, token);
  const waveId = (wave.data as { wave: { waveId: number } }).wave.waveId;
  const jobs = await inject('/Warehouse/PickJob/GetJobs', { filters: { waveId }, pageNumber: 1, pageSize: 100 }, token);
  const items = jobs.items as { jobId: number; orderIds?: number[] }[];
  if (items.length !== orderIds.length) throw new Error(`floor-bench: ${items.length} jobs for ${orderIds.length} orders`);
  const out: { jobId: number; orderId: number }[] = [];
  for (const [i, { jobId }] of items.entries()) {
    await inject('/Warehouse/PickJob/AssignTotes', { jobId, totes: [{ slot: 1, toteCode: `FL-TOTE-${toteFrom + i}` }] }, token);
    const job = await get(`/Warehouse/PickJob/GetJob?jobId=${jobId}`);
    out.push({ jobId, orderId: (job.totes as { orderId: number }[])[0].orderId });
  }
  return out;
}
const stopsOf = async (jobId: number) => (await get(`/Warehouse/PickJob/GetJob?jobId=${jobId}`)).stops as Stop[];
/** A pick as the handheld sends it: with its scan's Idempotency-Key (new for each pass over the same stops). */
let pass = 0;
const confirm = (jobId: number, s: Stop) => inject('/Warehouse/PickJob/ConfirmPick', { jobId, stopSeq: s.seq, locationCode: s.locationCode, itemCode: s.skuCode, quantity: s.quantity }, token,
  { 'idempotency-key': `bench-pick-${stamp}-${pass}-${jobId}-${s.seq}` });

const recorder = recordStatements(database.sqlite);
const settle = () => new Promise((r) => setTimeout(r, 20)); // after-commit work lands in its request's trace
const timed = async (work: () => Promise<unknown>) => { const t = performance.now(); await work(); return performance.now() - t; };
/** `workers` loops, each taking the next unit of `units` in turn. */
async function replayConcurrently(units: Trace[], workers: number, raw: Awaited<ReturnType<typeof openRawDb>>) {
  const replays = units.map((u) => replayer(u));
  let next = 0;
  await Promise.all(Array.from({ length: workers }, async () => { while (next < replays.length) await replays[next++](raw); }));
}

// ----- the pickers' jobs, and their pick lists printed -----
const pickOrders: number[] = [];
for (let k = 0; k < pickers; k++) pickOrders.push(await allocatedOrder(`BENCH-FL-PICK-${k}-${stamp}`, shipLines + k * pickLines, pickLines));
const pickJobs = await release(pickOrders, 1);
const print: FloorFigures = { appMs: [], rawMs: [], statements: 0, units: pickers * pickLines, note: '' };
{
  const raw = openRawDb(cfg);
  for (let run = 0; run <= printRuns; run++) {
    recorder.take();
    const appMs = await timed(async () => {
      const res = await app.inject({ method: 'POST', url: '/Warehouse/BatchPrint/PickLists', payload: { jobIds: pickJobs.map((j) => j.jobId) }, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200 || res.rawPayload.subarray(0, 5).toString() !== '%PDF-') throw new Error(`floor-bench: PickLists answered ${res.statusCode} ${res.body.slice(0, 300)}`);
    });
    await settle();
    const trace = recorder.take();
    const rawMs = await timed(() => replayer(trace)(raw));
    if (run === 0) continue; // the first pair warms both sides
    print.appMs.push(appMs);
    print.rawMs.push(rawMs);
    print.statements = trace.length;
  }
  await raw.close();
}
print.note = `${pickers} jobs × ${pickLines} lines in one PDF, ${printRuns} runs; ratio of medians`;

// ----- the pickers at once -----
const stopsByJob = await Promise.all(pickJobs.map((j) => stopsOf(j.jobId)));
let cpuNote = '';
const picks: FloorFigures = { appMs: [], rawMs: [], statements: 0, units: stopsByJob.reduce((n, s) => n + s.length, 0), note: '' };
{
  const before = await takeSnapshot(database, cfg, 'picks');
  recorder.take();
  // Where a pick's CPU goes: this process (the app, in-process, and the pickers' loops) and PostgreSQL's backends.
  const sampler = cpuSampler({
    ...(database.pool ? {
      postgres: async () => (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(db)).rows.map((r) => r.pid),
      'postgres shared': async () => (await sql<{ pid: number }>`select pid from pg_stat_activity where datname is null`.execute(db)).rows.map((r) => r.pid),
    } : {}),
  });
  const profiler = await profileTo(process.env.BENCH_PICKS_PROFILE);
  const perf = await perfTo(process.env.BENCH_PICKS_PERF);
  picks.appMs.push(await timed(() => Promise.all(pickJobs.map(async ({ jobId }, k) => { for (const s of stopsByJob[k]) await confirm(jobId, s); }))));
  const cpu = await sampler.stop();
  await profiler.stop();
  await perf.stop();
  await writePlans(database.pool, process.env.BENCH_PLANS);
  const perPick = (share: number) => (share / 100) * picks.appMs[0] / picks.units!;
  // The most this machine could give at these costs, all its cores busy: what a pick's CPU must come down to.
  const msPerPick = Object.values(cpu.groups).reduce((sum, share) => sum + perPick(share), 0);
  cpuNote = `CPU per pick: ${Object.entries(cpu.groups).map(([name, share]) => `${name === 'load generator' ? 'Node' : name} ${perPick(share).toFixed(2)} ms`).join(', ')}; machine ${cpu.machineBusy.toFixed(0)}% busy`
    + `; ceiling ${availableParallelism()} cores ÷ ${msPerPick.toFixed(2)} ms = ${Math.round((availableParallelism() * 1000) / msPerPick)} picks/s`;
  await settle();
  let trace = recorder.take();
  if (before.restore) {
    // PostgreSQL: concurrent picks draw the tote balances' ids in an order no replay can repeat, and later
    // statements name those ids. So the trace to replay is of the same picks made again one at a time, untimed.
    await before.restore();
    pass++;
    recorder.take();
    for (const [k, { jobId }] of pickJobs.entries()) for (const s of stopsByJob[k]) await confirm(jobId, s);
    await settle();
    trace = recorder.take();
  }
  picks.statements = Math.round(trace.length / picks.units!);
  const raw = await before.replayDb();
  const units = traceUnits(trace);
  // In turn, on one connection: the app's picks insert balance rows (the tote's) whose ids later statements name,
  // and concurrent units would draw those ids in another order. So the baseline has no concurrency of its own.
  // Diagnostics (BENCH_STATEMENT_TIMES=file): each replayed statement timed, ms per pick by text, into the file.
  const times = new Map<string, { n: number; ms: number }>();
  const timesFile = process.env.BENCH_STATEMENT_TIMES;
  picks.rawMs.push(await timed(() => replayConcurrently(units, 1, timesFile ? withStatementTimes(raw, times) : raw)));
  if (timesFile) {
    writeFileSync(timesFile, [...times].sort((x, y) => y[1].ms - x[1].ms)
      .map(([text, t]) => `${(t.ms / picks.units!).toFixed(3)} ms/pick  n=${t.n}  ${text.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n'));
  }
  await raw.close();
}
picks.note = `${pickers} pickers at once (a ConfirmPick loop each), ${picks.units} stops; stmts are per pick; replay: the same transactions in turn on one connection; ${cpuNote}`;

// ----- one order, released to shipped -----
const shipOrder = await allocatedOrder(`BENCH-FL-SHIP-${stamp}`, 0, shipLines);
const before = await takeSnapshot(database, cfg, 'ship');
recorder.take();
const codeOf = new Map(skus.map((s) => [s.id, s.sku_code]));
const lines = await db.selectFrom('sales_order_line').select(['sku_id', 'quantity']).where('order_id', '=', shipOrder).orderBy('line_no').execute();
const toShipMs = await timed(async () => {
  const [{ jobId }] = await release([shipOrder], 0);
  for (const s of await stopsOf(jobId)) await confirm(jobId, s);
  await inject('/Warehouse/Pack/OpenPack', { warehouseId: warehouse.id, code: 'FL-TOTE-0' }, token);
  for (let i = 0; i < lines.length; i += linesPerCarton) {
    const opened = await inject('/Warehouse/Pack/OpenCarton', { orderId: shipOrder, cartonTypeId: Number(cartonTypeId) }, token);
    const cartonId = (opened.order as { cartons: { cartonId: number }[] }).cartons.at(-1)!.cartonId;
    for (const line of lines.slice(i, i + linesPerCarton)) await inject('/Warehouse/Pack/PackItem', { cartonId, code: codeOf.get(line.sku_id), quantity: Number(line.quantity) }, token);
    await inject('/Warehouse/Pack/CloseCarton', { cartonId, weightKg: 12.5, locationId: station }, token);
  }
});
await settle();
const flowTrace = recorder.take();
const shipMs = await timed(async () => {
  const shipped = await inject('/Warehouse/Ship/ConfirmShipment', { warehouseId: warehouse.id, orderIds: [shipOrder] }, token);
  if ((shipped.data as { shipped: unknown[] }).shipped.length !== 1) throw new Error(`floor-bench: not shipped: ${JSON.stringify(shipped.data).slice(0, 300)}`);
});
await settle();
const shipTrace = recorder.take();
const flowMs = toShipMs + shipMs;
const status = (await db.selectFrom('sales_order').select('status').where('id', '=', shipOrder).executeTakeFirstOrThrow()).status;
if (status !== 'Shipped') throw new Error(`floor-bench: the order is ${status} after the flow`);
const raw = await before.replayDb();
const rawFlowMs = await timed(() => replayer(flowTrace)(raw));
const rawShipMs = await timed(() => replayer(shipTrace)(raw));
await raw.close();
const cartons = Math.ceil(shipLines / linesPerCarton);
const ship: FloorFigures = { appMs: [shipMs], rawMs: [rawShipMs], statements: shipTrace.length, note: `${shipLines} lines in ${cartons} cartons, one ConfirmShipment` };
const flow: FloorFigures = {
  appMs: [flowMs], rawMs: [rawFlowMs + rawShipMs], statements: flowTrace.length + shipTrace.length,
  note: `CreateWave, AssignTotes, ${shipLines} ConfirmPick, OpenPack, ${cartons} × (OpenCarton, ${linesPerCarton} PackItem, CloseCarton), ConfirmShipment; app incl. its reads of the job`,
};

const result: FloorBenchResult = { ship, flow, picks, print };
writeFileSync(capturedFile, JSON.stringify(result));
await app.close();
await database.close();
process.send?.({ done: true });
process.exit(0);
