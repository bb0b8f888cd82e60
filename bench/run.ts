// `npm run bench`: the real app against a bare node:http server running the same SQL through the same driver,
// on SQLite and on PostgreSQL, plus startup time. Ratios are taken within one run on one machine, so they
// mean something where absolute req/s would not. Settings: lib/settings.ts (BENCH_* variables).
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { cleanupAll, guardRun, onCleanup, stopping } from './lib/cleanup.js';
import { startChild, type ChildConfig, type RunningChild } from './lib/child.js';
import { pgReachable, prepareDemoDatabase } from './lib/databases.js';
import { call, combine, runLoad, type LoadCase, type LoadFigures } from './lib/load.js';
import { formatTable, newReport, writeReport, type BenchReport } from './lib/report.js';
import { settings } from './lib/settings.js';
import type { Engine } from './lib/sql-capture.js';
import { measureStartup } from './lib/startup.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

const loginCase: LoadCase = {
  method: 'POST',
  path: '/Common/Auth/login',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(settings.user),
};
const readCase = (token: string): LoadCase => ({
  method: 'GET',
  path: '/Common/UserModule/GetWarehouseClient',
  headers: { authorization: `Bearer ${token}` },
});

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

interface Measured { server: LoadFigures; bare: LoadFigures; roundRatios: number[] }

async function measure(name: string, app: RunningChild, bare: RunningChild, c: LoadCase): Promise<Measured> {
  const { rounds, connections } = settings;
  const roundSeconds = settings.seconds / rounds;
  log(`  ${name}: warm-up ${settings.warmupSeconds} s each, then ${rounds} × ${roundSeconds} s each, alternating (${connections} connections)`);
  await runLoad(bare.url, c, settings.warmupSeconds, connections);
  await runLoad(app.url, c, settings.warmupSeconds, connections);
  const figures = { server: [] as LoadFigures[], bare: [] as LoadFigures[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['bare', 'server'] as const) : (['server', 'bare'] as const);
    for (const side of order) figures[side].push(await runLoad((side === 'bare' ? bare : app).url, c, roundSeconds, connections));
  }
  const roundRatios = figures.server.map((f, i) => f.reqPerSec / (figures.bare[i].reqPerSec || Infinity));
  return { server: combine(figures.server), bare: combine(figures.bare), roundRatios };
}

function record(report: BenchReport, engine: Engine, name: string, figures: Measured, target: number | null): void {
  const ratio = figures.bare.reqPerSec > 0 ? figures.server.reqPerSec / figures.bare.reqPerSec : 0;
  const failures = figures.server.failures + figures.bare.failures;
  const verdict = failures > 0 ? 'ERROR' : target == null ? 'info' : ratio >= target ? 'PASS' : 'FAIL';
  report.cases.push({ engine, case: name, ...figures, ratio, target, verdict, note: failures > 0 ? `${failures} failed requests` : undefined });
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
  const base: Omit<ChildConfig, 'logLevel'> = { ...db, poolSize: settings.poolSize, tokenSecretHex: randomBytes(32).toString('hex') };
  const app = await startChild('app', 'app-server.ts', { ...base, logLevel: settings.appLogLevel });
  const stopApp = onCleanup(`stop the ${engine} app`, () => app.stop());
  const bare = await startChild('bare', 'bare-server.ts', { ...base, logLevel: 'silent' });
  const stopBare = onCleanup(`stop the ${engine} bare server`, () => bare.stop());
  try {
    const token = await checkEquivalent(app, bare);
    log(`${engine}: app on :${app.port}, bare on :${bare.port}; answers match`);
    if (settings.cases.includes('read')) {
      record(report, engine, 'GetWarehouseClient', await measure('GetWarehouseClient', app, bare, readCase(token)), settings.targets.readRatio);
    }
    if (settings.cases.includes('login')) record(report, engine, 'login', await measure('login', app, bare, loginCase), null);
  } finally {
    await stopBare();
    await stopApp();
  }
}

async function main(): Promise<number> {
  guardRun(settings.timeoutSeconds);
  const report = newReport({ ...settings, user: settings.user.username });
  try {
    const unknown = settings.cases.filter((c) => !['read', 'login', 'startup'].includes(c));
    if (unknown.length) throw new Error(`BENCH_CASES: unknown case(s) ${unknown.join(', ')} (known: read, login, startup)`);
    if (settings.cases.includes('startup')) {
      const startup = await measureStartup(settings.startupRuns, log);
      const ok = startup.medianMs <= settings.targets.startupMs;
      report.startup = { ...startup, targetMs: settings.targets.startupMs, verdict: ok ? 'PASS' : 'FAIL' };
    }
    const loadCases = settings.cases.some((c) => c === 'read' || c === 'login');
    for (const engine of loadCases ? settings.engines : []) {
      if (stopping()) break;
      if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`BENCH_ENGINES: unknown engine "${engine}"`);
      // One engine failing (say, PostgreSQL down in CI) still leaves the other's figures in the report.
      await benchEngine(report, engine).catch((err: unknown) => {
        report.errors.push(`${engine}: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
  } catch (err) {
    report.errors.push(err instanceof Error ? err.message : String(err));
  } finally {
    await cleanupAll();
  }
  log('');
  log(formatTable(report));
  log(`\nresults: ${writeReport(report)}`);
  const bad = report.errors.length > 0 || report.startup?.verdict === 'FAIL' || report.cases.some((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR');
  return bad ? 1 : 0;
}

process.exit(await main());
