// `npm run bench`: the real app against a bare node:http server running the same SQL through the same driver,
// on SQLite and on PostgreSQL, plus startup time, the stock-on-hand list over a large ledger and the real-time
// hub under 500 clients, the SKU and user lists over 100,000 SKUs and 10,000 users, and the orders' allocation batch and
// single order create+allocate, the floor's ship confirm, pickers at once and pick list PDF, a month's billing run and accrual, and every report over a year (issue 17). Ratios are taken
// within one run on one machine, so they mean something where absolute req/s would not. Settings: lib/settings.ts (BENCH_* variables).
// Also issue 19's cluster case (cluster.ts): three nodes behind HAProxy against one, and the hub across nodes.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { haproxyPath } from '../server/cluster/cluster.js';
import { runClusterBench } from './cluster.js';
import { formatHubFigures, hubSettings, runHubBench } from './hub.js';
import { cleanupAll, guardRun, onCleanup, stopping } from './lib/cleanup.js';
import { runChildToEnd, startChild, type ChildConfig, type RunningChild } from './lib/child.js';
import { pgReachable, prepareDemoDatabase } from './lib/databases.js';
import { measure, type Measured } from './lib/alternate.js';
import { loginCase, readCase, replayCase } from './lib/cases.js';
import { call, type LoadCase, type LoadFigures } from './lib/load.js';
import { formatTable, newReport, writeReport, type BenchReport } from './lib/report.js';
import { settings } from './lib/settings.js';
import type { Engine } from './lib/sql-capture.js';
import { measureStartup } from './lib/startup.js';
import { seedMasterdata } from './lib/masterdata-seed.js';
import { seedLargeLedger } from './lib/stock-seed.js';
import type { FloorBenchResult } from './lib/floor-bench.js';
import type { BillingBenchResult } from './lib/billing-bench.js';
import type { ReportsBenchResult } from './lib/reports-bench.js';
import type { OrderFigures, OrdersBenchResult } from './lib/orders-bench.js';
import { traceKey, type Captured, type CapturedRequests } from './lib/trace.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function loginToken(server: RunningChild): Promise<string> {
  const res = await call(server.url, loginCase);
  const token = (res.body as { accesstoken?: unknown } | null)?.accesstoken;
  if (res.status !== 200 || typeof token !== 'string') throw new Error(`${server.name}: login answered ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}

/** Before measuring: both servers must give the same answer, or the comparison means nothing. */
async function checkEquivalent(app: RunningChild, bare: RunningChild): Promise<string> {
  const appToken = await loginToken(app);
  const bareToken = await loginToken(bare);
  const fromApp = await call(app.url, readCase(appToken));
  const fromBare = await call(bare.url, readCase(appToken));
  if (fromApp.status !== 200 || !isDeepStrictEqual(fromApp.body, fromBare.body)) {
    throw new Error(`GetWarehouseClient differs: app ${fromApp.status} ${JSON.stringify(fromApp.body)} vs bare ${fromBare.status} ${JSON.stringify(fromBare.body)}`);
  }
  // The bare login wrote a real session: the app must accept its token.
  const crossCheck = await call(app.url, readCase(bareToken));
  if (crossCheck.status !== 200) throw new Error(`the app refused a token from the bare login: ${crossCheck.status}`);
  return appToken;
}

/**
 * The statements one request of a captured case sends (its trace), per request of a slot: "15 + 18" for a
 * receipt then its putaway. A ratio against a replay of the same statements cannot see a statement that should
 * not be there; this can.
 */
function statementsOf<K extends string>(captured: CapturedRequests<K>, name: K): string {
  return captured.cases[name].slots[0].map((r) => String(captured.traces[traceKey(r.method, r.path, r.body)]?.length ?? '?')).join(' + ');
}

/**
 * One request at a time, alternating bare and app, each request once (the receive-as-expected orders can be
 * received only once): the app's and the bare server's times per request.
 */
async function measureOnce(name: string, app: RunningChild, bare: RunningChild, c: LoadCase): Promise<Measured> {
  const slots = c.slots ?? [];
  log(`  ${name}: ${slots.length} requests on each server, one at a time, alternating`);
  const times = { server: [] as number[], bare: [] as number[] };
  let failures = 0;
  for (const [r] of slots) {
    for (const side of ['bare', 'server'] as const) {
      const started = performance.now();
      const res = await call((side === 'bare' ? bare : app).url, { ...c, path: r.path, body: r.body });
      times[side].push(performance.now() - started);
      if (res.status !== 200) { failures++; log(`    ${side}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`); }
    }
  }
  return { server: timesFigures(times.server, failures), bare: timesFigures(times.bare, 0), roundRatios: times.server.map((t, i) => times.bare[i] / t) };
}

/** Figures of work measured one at a time (ms each): the rate is that of the median, p99 the slowest. */
function timesFigures(ms: number[], failures: number): LoadFigures {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { reqPerSec: sorted.length ? 1000 / at(0.5) : 0, p50: at(0.5), p99: sorted[sorted.length - 1] ?? 0, requests: sorted.length, failures };
}

/**
 * Issue 12's order figures (lib/orders-bench.ts), on the database the load cases left: the batch allocation in
 * seconds against its target, and one order's create+allocate as a ratio to the replay of its statements.
 */
async function benchOrders(report: BenchReport, engine: Engine, base: Omit<ChildConfig, 'logLevel'>, file: string): Promise<void> {
  const o = settings.orders;
  log(`${engine}: orders — allocating ${o.batchOrders.toLocaleString('en-US')} orders × ${o.batchLines} lines (${o.orderRounds} rounds), then ${o.orderRuns} single orders; each against a raw replay of its statements`);
  await runChildToEnd('orders bench', 'orders-bench.ts', { ...base, capturedFile: file, logLevel: 'silent' }, 600_000);
  const { batch, single } = JSON.parse(readFileSync(file, 'utf8')) as OrdersBenchResult;
  const pairs = (f: OrderFigures): Measured => ({ server: timesFigures(f.appMs, 0), bare: timesFigures(f.rawMs, 0), roundRatios: f.appMs.map((t, i) => f.rawMs[i] / t) });
  record(report, engine, `AllocateOrders ${(o.batchOrders * o.batchLines).toLocaleString('en-US')} lines`, pairs(batch), null, settings.targets.allocationBatchMs, batch.note, String(batch.statements));
  record(report, engine, 'CreateOrder+AllocateOrders', pairs(single), settings.targets.orderRatio, undefined, single.note, String(single.statements));
}

/**
 * Issue 13's floor figures (lib/floor-bench.ts), after the orders case: a large order's ship confirm (seconds and
 * statements) and its whole released→shipped flow, pickers at once (picks/s), a large pick list PDF (seconds);
 * each against a raw replay of the statements the app sent.
 */
async function benchFloor(report: BenchReport, engine: Engine, base: Omit<ChildConfig, 'logLevel'>, file: string): Promise<void> {
  const f = settings.floor;
  const t = settings.targets;
  log(`${engine}: floor — a ${f.shipLines}-line order released to shipped, ${f.pickers} pickers × ${f.pickLines} stops at once, their pick lists printed; each against a raw replay of its statements`);
  await runChildToEnd('floor bench', 'floor-bench.ts', { ...base, capturedFile: file, logLevel: 'silent' }, 900_000);
  const { ship, flow, picks, print } = JSON.parse(readFileSync(file, 'utf8')) as FloorBenchResult;
  const pairs = (r: OrderFigures): Measured => ({ server: timesFigures(r.appMs, 0), bare: timesFigures(r.rawMs, 0), roundRatios: r.appMs.map((ms, i) => r.rawMs[i] / ms) });
  record(report, engine, `ConfirmShipment ${f.shipLines} lines`, pairs(ship), null, t.shipConfirmMs, ship.note, String(ship.statements));
  const shipCase = report.cases[report.cases.length - 1];
  if (ship.statements > t.shipConfirmStatements && shipCase.verdict === 'PASS') {
    shipCase.verdict = 'FAIL';
    shipCase.note = `${ship.statements} statements, more than ${t.shipConfirmStatements}; ${ship.note}`;
  }
  record(report, engine, `released→shipped ${f.shipLines} lines`, pairs(flow), null, undefined, flow.note, String(flow.statements));
  // A rate of picks, not of runs: the figures' req/s are picks per second, p50/p99 the run's ms per pick.
  const rate = (ms: number): LoadFigures => ({ reqPerSec: (picks.units ?? 0) / (ms / 1000), p50: ms / (picks.units || 1), p99: ms / (picks.units || 1), requests: picks.units ?? 0, failures: 0 });
  record(report, engine, `ConfirmPick, ${f.pickers} pickers`, { server: rate(picks.appMs[0]), bare: rate(picks.rawMs[0]), roundRatios: [picks.rawMs[0] / picks.appMs[0]] }, null, undefined, picks.note, String(picks.statements));
  const pickCase = report.cases[report.cases.length - 1];
  if (pickCase.verdict === 'info') pickCase.verdict = pickCase.server.reqPerSec >= t.picksPerSecond ? 'PASS' : 'FAIL';
  pickCase.note = `target ≥ ${t.picksPerSecond} picks/s; ${picks.note}`;
  record(report, engine, `PickLists PDF ${(f.pickers * f.pickLines).toLocaleString('en-US')} lines`, pairs(print), null, t.pickListMs, print.note, String(print.statements));
}

/**
 * Issue 16's billing figures (lib/billing-bench.ts), last: a month's billing run over 1M ledger rows (seconds) and
 * the live unbilled accrual (ms), each against a raw read/copy of the same rows in the same run.
 */
async function benchBilling(report: BenchReport, engine: Engine, base: Omit<ChildConfig, 'logLevel'>, file: string): Promise<void> {
  log(`${engine}: billing — a month's run for one client over ${(settings.billing.balances * settings.billing.rowsPerBalance).toLocaleString('en-US')} ledger rows and 105k events, then its live accrual; each against a raw copy/read of the same rows`);
  await runChildToEnd('billing bench', 'billing-bench.ts', { ...base, capturedFile: file, logLevel: 'silent' }, 900_000);
  const { run, accrual } = JSON.parse(readFileSync(file, 'utf8')) as BillingBenchResult;
  const pairs = (f: OrderFigures): Measured => ({ server: timesFigures(f.appMs, 0), bare: timesFigures(f.rawMs, 0), roundRatios: f.appMs.map((ms, i) => f.rawMs[i] / ms) });
  record(report, engine, `Billing run, ${(settings.billing.balances * settings.billing.rowsPerBalance / 1e6).toLocaleString('en-US')}M ledger rows`, pairs(run), null, settings.targets.billingRunMs, run.note);
  record(report, engine, 'GetUnbilled (live accrual)', pairs(accrual), null, settings.targets.billingAccrualMs, accrual.note);
}

/**
 * Issue 17's figures (lib/reports-bench.ts): every report over a year of one warehouse (100k orders, 1M ledger rows),
 * p99 of its runs against the ≤ 1 s target, each beside a raw count of the rows it reads in the same run.
 */
async function benchReports(report: BenchReport, engine: Engine, base: Omit<ChildConfig, 'logLevel'>, file: string): Promise<void> {
  const r = settings.reports;
  log(`${engine}: reports — every report over a year of ${r.orders.toLocaleString('en-US')} orders and ${r.ledgerRows.toLocaleString('en-US')} ledger rows, ${r.runs} runs each; against a raw count of the rows each reads`);
  await runChildToEnd('reports bench', 'reports-bench.ts', { ...base, capturedFile: file, logLevel: 'silent' }, 1_800_000);
  const { cases, seedSeconds, sizes } = JSON.parse(readFileSync(file, 'utf8')) as ReportsBenchResult;
  for (const c of cases) {
    const pairs: Measured = { server: timesFigures(c.appMs, 0), bare: timesFigures(c.rawMs, 0), roundRatios: c.appMs.map((ms, i) => c.rawMs[i] / ms) };
    record(report, engine, `Report ${c.report}`, pairs, null, settings.targets.reportP99Ms, `${c.note}; ${sizes}, seeded in ${seedSeconds.toFixed(0)} s`);
  }
}

/** `target` is a ratio to the bare server; `p99TargetMs` (the stock list) a latency the app must keep instead. */
function record(report: BenchReport, engine: Engine, name: string, figures: Measured, target: number | null, p99TargetMs?: number, note?: string, statements?: string): void {
  const ratio = figures.bare.reqPerSec > 0 ? figures.server.reqPerSec / figures.bare.reqPerSec : 0;
  const failures = figures.server.failures + figures.bare.failures;
  const met = p99TargetMs != null ? figures.server.p99 <= p99TargetMs : target == null ? null : ratio >= target;
  const verdict = failures > 0 ? 'ERROR' : met == null ? 'info' : met ? 'PASS' : 'FAIL';
  const statuses = (side: string, f: LoadFigures) => Object.entries(f.statuses ?? {}).map(([code, count]) => `${side} ${count}× ${code}`);
  const failed = [...statuses('app', figures.server), ...statuses('bare', figures.bare)].join(', ');
  report.cases.push({ engine, case: name, ...figures, ratio, target, p99TargetMs, statements, verdict, note: failures > 0 ? `${failures} failed requests${failed ? `: ${failed}` : ''}` : note });
}

async function benchEngine(report: BenchReport, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    const why = await pgReachable(settings.pgUrl);
    if (why) {
      if (settings.ci) throw new Error(`PostgreSQL at ${settings.pgUrl} is unreachable (${why}); in CI that is a failure`);
      log(`postgres: SKIPPED — PostgreSQL at ${settings.pgUrl} is unreachable (${why})`);
      report.skipped.push({ engine, reason: `unreachable: ${why}` });
      return;
    }
  }
  log(`${engine}: preparing a demo database`);
  const db = await prepareDemoDatabase(engine, settings.pgUrl);
  const inventory = ['receive', 'move', 'soh', 'asexpected'].some((c) => settings.cases.includes(c));
  const masterdata = settings.cases.includes('masterdata');
  const files = { inventory: join(db.dataDir, 'captured.json'), masterdata: join(db.dataDir, 'masterdata.json') };
  const base: Omit<ChildConfig, 'logLevel'> = {
    ...db, poolSize: settings.poolSize, tokenSecretHex: randomBytes(32).toString('hex'),
    replayFiles: [...(inventory ? [files.inventory] : []), ...(masterdata ? [files.masterdata] : [])],
  };
  let captured: Captured | undefined;
  if (inventory) {
    log(`${engine}: capturing the app's statements for the inventory requests`);
    await runChildToEnd('inventory capture', 'inventory-capture.ts', { ...base, capturedFile: files.inventory, logLevel: 'silent' });
    captured = JSON.parse(readFileSync(files.inventory, 'utf8')) as Captured;
  }
  let lists: CapturedRequests | undefined;
  if (masterdata) {
    log(`${engine}: masterdata — seeding ${settings.masterdataSkus.toLocaleString('en-US')} SKUs and ${settings.masterdataUsers.toLocaleString('en-US')} users`);
    const seeded = await seedMasterdata(db, settings.masterdataSkus, settings.masterdataUsers);
    log(`  seeded in ${seeded.seconds.toFixed(1)} s; capturing the app's statements for the list requests`);
    await runChildToEnd('masterdata capture', 'masterdata-capture.ts', { ...base, capturedFile: files.masterdata, logLevel: 'silent' });
    lists = JSON.parse(readFileSync(files.masterdata, 'utf8')) as CapturedRequests;
    for (const note of lists.notes ?? []) log(`  ${note}`);
  }
  const app = await startChild('app', 'app-server.ts', { ...base, logLevel: settings.appLogLevel });
  const stopApp = onCleanup(`stop the ${engine} app`, () => app.stop());
  const bare = await startChild('bare', 'bare-server.ts', { ...base, logLevel: 'silent' });
  const stopBare = onCleanup(`stop the ${engine} bare server`, () => bare.stop());
  try {
    const token = await checkEquivalent(app, bare);
    log(`${engine}: app on :${app.port}, bare on :${bare.port}; answers match`);
    if (settings.cases.includes('read')) {
      record(report, engine, 'GetWarehouseClient', await measure(engine, 'GetWarehouseClient', app, bare, readCase(token)), settings.targets.readRatio);
    }
    if (settings.cases.includes('login')) record(report, engine, 'login', await measure(engine, 'login', app, bare, loginCase), null);
    // Each request of these is one database transaction, so req/s is transactions per second.
    if (captured && settings.cases.includes('receive')) {
      record(report, engine, 'ReceiveItem+Putaway tx', await measure(engine, 'ReceiveItem then Putaway', app, bare, replayCase(captured, 'receive')), settings.targets.inventoryRatio,
        undefined, undefined, statementsOf(captured, 'receive'));
    }
    if (captured && settings.cases.includes('move')) {
      record(report, engine, 'MoveItems tx', await measure(engine, 'MoveItems there and back', app, bare, replayCase(captured, 'move')), settings.targets.inventoryRatio,
        undefined, undefined, statementsOf(captured, 'move'));
    }
    if (captured && settings.cases.includes('asexpected') && captured.cases.asexpected.slots.length) {
      // Created to closed: every line received, put away to its first suggestion and the order finalized, in one request.
      record(report, engine, `ReceiveAsExpected ${settings.asExpectedLines} lines`, await measureOnce('ReceiveAsExpected', app, bare, replayCase(captured, 'asexpected')),
        null, settings.targets.asExpectedMs, `${settings.asExpectedLines} lines put away and closed, one at a time; ratio of medians`, statementsOf(captured, 'asexpected'));
    }
    if (captured && settings.cases.includes('soh')) {
      log(`  GetStockOnHand: seeding ${settings.sohLedgerRows.toLocaleString('en-US')} ledger rows over ${settings.sohBalances.toLocaleString('en-US')} balances`);
      const seeded = await seedLargeLedger(db, settings.sohLedgerRows, settings.sohBalances);
      log(`  seeded in ${seeded.seconds.toFixed(1)} s`);
      const note = `${(seeded.ledgerRows / 1e6).toLocaleString('en-US')}M ledger rows, ${settings.sohConnections} connections`;
      record(report, engine, 'GetStockOnHand', await measure(engine, 'GetStockOnHand', app, bare, replayCase(captured, 'soh'), settings.sohConnections),
        null, settings.targets.sohP99Ms, note, statementsOf(captured, 'soh'));
    }
    if (lists) {
      // One case per list and request shape: a search and a first page cost very differently.
      const note = `${(settings.masterdataSkus / 1000).toLocaleString('en-US')}k SKUs, ${(settings.masterdataUsers / 1000).toLocaleString('en-US')}k users, ${settings.masterdataConnections} connections`;
      for (const name of Object.keys(lists.cases)) {
        record(report, engine, name, await measure(engine, name, app, bare, replayCase(lists, name), settings.masterdataConnections),
          null, settings.targets.masterdataP99Ms, note);
      }
    }
    // Both servers changed the same stock for minutes (and the seed added a ledger): the ledger must still sum
    // to the balances, or the baseline's replay was not the app's work.
    if (captured) {
      const res = await call(app.url, {
        method: 'GET', path: `/Warehouse/Inventory/Reconcile?warehouseId=${captured.warehouseId}&customerId=${captured.customerId}`,
        headers: { authorization: `Bearer ${captured.token}` },
      });
      const body = res.body as { balanced?: boolean; checkedBalances?: number; differences?: unknown[] };
      if (res.status !== 200 || body.balanced !== true) report.errors.push(`${engine}: Reconcile after the inventory cases: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      else log(`  Reconcile: ledger = balances over ${body.checkedBalances} balances`);
    }
  } finally {
    await stopBare();
    await stopApp();
  }
  // Last: it adds SKUs, stock and orders the other cases' figures should not see.
  if (settings.cases.includes('orders') && !stopping()) await benchOrders(report, engine, base, join(db.dataDir, 'orders.json'));
  if (settings.cases.includes('floor') && !stopping()) await benchFloor(report, engine, base, join(db.dataDir, 'floor.json'));
  if (settings.cases.includes('billing') && !stopping()) await benchBilling(report, engine, base, join(db.dataDir, 'billing.json'));
  if (settings.cases.includes('reports') && !stopping()) await benchReports(report, engine, base, join(db.dataDir, 'reports.json'));
}

/** Issue 19's case (cluster.ts): PostgreSQL and HAProxy only; either missing skips it, or fails it in CI. */
async function benchCluster(report: BenchReport): Promise<void> {
  const why = (await pgReachable(settings.pgUrl)) ?? (haproxyPath() ? null : 'haproxy is not installed (apt-get install -y haproxy)');
  if (why) {
    if (settings.ci) throw new Error(`cluster: cannot run (${why}); in CI that is a failure`);
    log(`cluster: SKIPPED — ${why}`);
    report.skipped.push({ engine: 'postgres', reason: `cluster: ${why}` });
    return;
  }
  report.cluster = await runClusterBench();
}

async function main(): Promise<number> {
  guardRun(settings.timeoutSeconds);
  const report = newReport({ ...settings, user: settings.user.username });
  try {
    const known = ['read', 'login', 'startup', 'receive', 'move', 'soh', 'asexpected', 'masterdata', 'orders', 'floor', 'billing', 'reports', 'hub', 'cluster'];
    const unknown = settings.cases.filter((c) => !known.includes(c));
    if (unknown.length) throw new Error(`BENCH_CASES: unknown case(s) ${unknown.join(', ')} (known: ${known.join(', ')})`);
    if (settings.cases.includes('startup')) {
      const startup = await measureStartup(settings.startupRuns, log);
      const ok = startup.medianMs <= settings.targets.startupMs;
      report.startup = { ...startup, targetMs: settings.targets.startupMs, verdict: ok ? 'PASS' : 'FAIL' };
    }
    const loadCases = settings.cases.some((c) => ['read', 'login', 'receive', 'move', 'soh', 'asexpected', 'masterdata', 'orders', 'floor', 'billing', 'reports'].includes(c));
    for (const engine of settings.engines) {
      if (stopping()) break;
      if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`BENCH_ENGINES: unknown engine "${engine}"`);
      // One engine failing (say, PostgreSQL down in CI) still leaves the other's figures in the report.
      const failed = (err: unknown) => { report.errors.push(`${engine}: ${err instanceof Error ? err.message : String(err)}`); };
      if (loadCases) await benchEngine(report, engine).catch(failed);
      if (settings.cases.includes('hub') && !stopping() && !report.skipped.some((s) => s.engine === engine)) {
        const why = engine === 'postgres' && !loadCases ? await pgReachable(settings.pgUrl) : null;
        if (why) { report.skipped.push({ engine, reason: `unreachable: ${why}` }); continue; }
        log(`${engine}: hub — ${hubSettings.clients} official SignalR clients, ${hubSettings.events} events each to every client`);
        await runHubBench(engine).then((f) => {
          report.hub.push({ ...f, targetP99Ms: hubSettings.p99TargetMs, verdict: f.lost === 0 && f.p99Ms <= hubSettings.p99TargetMs ? 'PASS' : 'FAIL' });
          log(formatHubFigures(f));
        }, failed);
      }
    }
    if (settings.cases.includes('cluster') && !stopping()) await benchCluster(report);
  } catch (err) {
    report.errors.push(err instanceof Error ? err.message : String(err));
  } finally {
    await cleanupAll();
  }
  log('');
  log(formatTable(report));
  log(`\nresults: ${writeReport(report)}`);
  const bad = report.errors.length > 0 || report.startup?.verdict === 'FAIL' || report.hub.some((h) => h.verdict === 'FAIL')
    || report.cluster?.hub?.verdict === 'FAIL' || !!report.cluster?.errors.length || !!report.cluster?.cases.some((c) => c.verdict === 'ERROR')
    || report.cases.some((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR');
  return bad ? 1 : 0;
}

process.exit(await main());
