// Issue 19's bench: three API nodes behind HAProxy on one PostgreSQL against one node, on the same machine and the
// same database, for the read and the stock-write cases (req/s of each, the ratio, and where the CPU went: what
// limits the ratio on 2 cores); then the hub across the nodes (clients spread over the three, changes written
// through one; p99 receipt and nothing lost). The nodes are server/cluster's own (its bundle, its haproxy.cfg).
// `npm run bench` runs it as the case `cluster`; `npm run bench:cluster` runs it alone (BENCH_CASES=cluster), with
// the other knobs as they are (BENCH_SECONDS, BENCH_HUB_CLIENTS…; README, Benchmarks).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startCluster, type Cluster } from '../server/cluster/cluster.js';
import { hubSettings, measureHub, type HubFigures } from './hub.js';
import { measure, type Measured } from './lib/alternate.js';
import { readCase, replayCase } from './lib/cases.js';
import { runChildToEnd } from './lib/child.js';
import { onCleanup } from './lib/cleanup.js';
import { cpuSampler, formatCpu, type CpuShares } from './lib/cpu.js';
import { prepareDemoDatabase } from './lib/databases.js';
import { call, type LoadCase } from './lib/load.js';
import type { Verdict } from './lib/report.js';
import { settings } from './lib/settings.js';
import type { Captured } from './lib/trace.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

export interface ClusterCase {
  case: string;
  /** `server`: three nodes behind HAProxy; `bare`: one node on its own. */
  figures: Measured;
  /** Three nodes' req/s over one node's. */
  ratio: number;
  cpu: { one: CpuShares; three: CpuShares };
  /** What held the three nodes back, read from `cpu`. */
  limit: string;
  verdict: Verdict;
  note?: string;
}

export interface ClusterFigures {
  nodes: number;
  cases: ClusterCase[];
  /** `cpu`: where the CPU went during the measured events; `limit`: what that says holds the p99. */
  hub?: HubFigures & { targetP99Ms: number; verdict: Verdict; cpu?: CpuShares; limit?: string };
  errors: string[];
}

/** The mean of each group's share over the rounds of one side (the rounds are equally long). */
function meanShares(samples: CpuShares[]): CpuShares {
  const groups: Record<string, number> = {};
  for (const s of samples) for (const [k, v] of Object.entries(s.groups)) groups[k] = (groups[k] ?? 0) + v / samples.length;
  return { groups, machineBusy: samples.reduce((a, s) => a + s.machineBusy, 0) / (samples.length || 1) };
}

/**
 * What limits three nodes on this machine, from the CPU shares while they ran: all cores busy (and by whom), the
 * load generator's one thread saturated (the figures then include its own delay), or cores to spare, so the wait
 * is elsewhere: `elsewhere` says where (for requests, PostgreSQL's row locks and commits, the pool).
 */
export function limitOf(three: CpuShares, cores: number, elsewhere = 'the requests wait on PostgreSQL (row locks, commits) or the pools'): string {
  const top = Object.entries(three.groups).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(0)}%`).join(', ');
  const ours = Object.values(three.groups).reduce((a, b) => a + b, 0);
  if (three.machineBusy >= 90) {
    const others = Math.max(0, three.machineBusy * cores - ours);
    // On a shared machine: the figure is the other work's, not the cluster's.
    if (others > ours) return `CPU, mostly other work on the machine (${others.toFixed(0)}% of one core, against ${ours.toFixed(0)}% for ${top}): measure on a quiet machine`;
    return `CPU: all ${cores} cores busy (${top}${others >= 10 ? `, other work on the machine ${others.toFixed(0)}%` : ''}; % of one core)`;
  }
  const generator = three.groups['load generator'] ?? 0;
  if (generator >= 90) return `the load generator: its one thread ${generator.toFixed(0)}% busy (machine ${three.machineBusy.toFixed(0)}% busy: ${top})`;
  return `not CPU (machine ${three.machineBusy.toFixed(0)}% busy: ${top}): ${elsewhere}`;
}

/** The hub's p99 with cores to spare: the time an event's fan-out takes, not a queue for a core. */
const HUB_ELSEWHERE = 'each event\'s fan-out (its NOTIFY to the three nodes, then a frame to each of their sockets)';

/** The processes of each group, for the CPU sampler: the nodes, HAProxy, PostgreSQL. */
function processGroups(cluster: Cluster, pgClient: pg.Client): Record<string, () => Promise<number[]> | number[]> {
  return {
    nodes: () => cluster.nodes.map((n) => n.pid).filter((p): p is number => p !== undefined),
    haproxy: () => (cluster.haproxyPid ? [cluster.haproxyPid] : []),
    // This database's backends (parallel workers too)…
    postgres: async () => (await pgClient.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )).rows.map((r) => r.pid),
    // …apart from the server's own processes (WAL writer, checkpointer…), which also serve every other database.
    'postgres shared': async () => (await pgClient.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname IS NULL')).rows.map((r) => r.pid),
  };
}

async function measureCase(cluster: Cluster, pgClient: pg.Client, name: string, c: LoadCase): Promise<ClusterCase> {
  const samples = { server: [] as CpuShares[], bare: [] as CpuShares[] };
  const groups = processGroups(cluster, pgClient);
  const around = (side: 'server' | 'bare') => {
    const sampler = cpuSampler(groups);
    return async () => { samples[side].push(await sampler.stop()); };
  };
  // `app` is the three nodes through HAProxy, `bare` the first node on its own (the other two idle meanwhile).
  const figures = await measure('postgres', `${name}: 3 nodes vs 1`, { url: cluster.lb }, { url: cluster.nodes[0].base }, c, settings.connections, around);
  const ratio = figures.bare.reqPerSec > 0 ? figures.server.reqPerSec / figures.bare.reqPerSec : 0;
  const cpu = { one: meanShares(samples.bare), three: meanShares(samples.server) };
  const failures = figures.server.failures + figures.bare.failures;
  const statuses = Object.entries({ ...figures.bare.statuses, ...figures.server.statuses }).map(([code, n]) => `${n}× ${code}`).join(', ');
  return {
    case: name, figures, ratio, cpu, limit: limitOf(cpu.three, cpus().length),
    verdict: failures > 0 ? 'ERROR' : 'info', note: failures > 0 ? `${failures} failed requests${statuses ? `: ${statuses}` : ''}` : undefined,
  };
}

/**
 * The whole case: a demo database, the inventory requests set up on it (lib/inventory-capture.ts), three nodes and
 * HAProxy on it; the loads; the books reconciled; the hub across the nodes. Everything is cleaned up by the caller's
 * cleanupAll (each resource registers itself).
 */
export async function runClusterBench(): Promise<ClusterFigures> {
  const out: ClusterFigures = { nodes: 3, cases: [], errors: [] };
  log(`cluster: preparing a demo database on PostgreSQL`);
  const db = await prepareDemoDatabase('postgres', settings.pgUrl);
  if (db.pgSchema) throw new Error('cluster: the nodes need a database of their own (this PostgreSQL user may not create one)');
  // One secret for the nodes (TOKEN_SECRET, text) and the capture (bytes): the capture's token works on every node.
  const tokenSecret = randomBytes(32).toString('hex');
  const metricsToken = `metrics-${randomBytes(16).toString('hex')}`;
  const capturedFile = join(db.dataDir, 'captured.json');
  log(`cluster: setting up the stock-write requests (receiving orders, stock to move)`);
  await runChildToEnd('inventory capture', 'inventory-capture.ts', {
    ...db, poolSize: settings.poolSize, tokenSecretHex: Buffer.from(tokenSecret).toString('hex'), capturedFile, logLevel: 'silent',
  });
  const captured = JSON.parse(readFileSync(capturedFile, 'utf8')) as Captured;

  log(`cluster: starting 3 nodes (pool of ${settings.poolSize} each) and HAProxy`);
  const cluster = await startCluster({
    databaseUrl: db.databaseUrl,
    env: { TOKEN_SECRET: tokenSecret, METRICS_TOKEN: metricsToken, DB_POOL_SIZE: String(settings.poolSize), LOG_LEVEL: settings.appLogLevel },
  });
  const stopCluster = onCleanup('stop the cluster', () => cluster.close());
  const pgClient = new pg.Client({ connectionString: db.databaseUrl });
  await pgClient.connect();
  const endClient = onCleanup('close the CPU sampler connection', () => pgClient.end());
  try {
    const cases: [string, LoadCase][] = [
      ['GetWarehouseClient', readCase(captured.token)],
      ['ReceiveItem+Putaway tx', replayCase(captured, 'receive')],
      ['MoveItems tx', replayCase(captured, 'move')],
    ];
    for (const [name, c] of cases) {
      const result = await measureCase(cluster, pgClient, name, c);
      out.cases.push(result);
      log(formatClusterCase(result));
    }
    // Minutes of stock writes through four entry points at once: the ledger must still sum to the balances.
    const res = await call(cluster.lb, {
      method: 'GET', path: `/Warehouse/Inventory/Reconcile?warehouseId=${captured.warehouseId}&customerId=${captured.customerId}`,
      headers: { authorization: `Bearer ${captured.token}` },
    });
    const body = res.body as { balanced?: boolean; checkedBalances?: number };
    if (res.status !== 200 || body.balanced !== true) out.errors.push(`cluster: Reconcile after the stock writes: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    else log(`  Reconcile: ledger = balances over ${body.checkedBalances} balances`);

    log(`cluster: hub — ${hubSettings.clients} clients spread over the 3 nodes, ${hubSettings.events} changes written through node1`);
    let hubCpu: CpuShares | undefined;
    const measuring = () => {
      const sampler = cpuSampler(processGroups(cluster, pgClient));
      return async () => { hubCpu = await sampler.stop(); };
    };
    const hub = await measureHub('postgres', { writeBase: cluster.nodes[0].base, clientBases: cluster.nodes.map((n) => n.base), metricsToken, measuring });
    out.hub = {
      ...hub, targetP99Ms: hubSettings.p99TargetMs, verdict: hub.lost === 0 && hub.p99Ms <= hubSettings.p99TargetMs ? 'PASS' : 'FAIL',
      cpu: hubCpu, limit: hubCpu && limitOf(hubCpu, cpus().length, HUB_ELSEWHERE),
    };
    log(formatClusterHub(out.hub));
  } finally {
    await endClient();
    await stopCluster();
  }
  return out;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

export function formatClusterCase(c: ClusterCase): string {
  const { server: three, bare: one } = c.figures;
  const rounds = c.figures.roundRatios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ');
  return [
    `  ${c.case}: 1 node ${fmt(one.reqPerSec)} req/s (p50/p99 ${fmt(one.p50)}/${fmt(one.p99)} ms), 3 nodes ${fmt(three.reqPerSec)} req/s`
      + ` (p50/p99 ${fmt(three.p50)}/${fmt(three.p99)} ms): ratio ${(c.ratio * 100).toFixed(0)}% (rounds ${rounds}) — ${c.note ? `${c.verdict} (${c.note})` : c.verdict}`,
    `    1 node:  ${formatCpu(c.cpu.one)}`,
    `    3 nodes: ${formatCpu(c.cpu.three)}`,
    `    limit:   ${c.limit}`,
  ].join('\n');
}

export function formatClusterHub(h: NonNullable<ClusterFigures['hub']>): string {
  return [
    `  hub across 3 nodes: ${h.clients} clients, ${h.samples} receipts, ${h.lost} lost; p50 ${fmt(h.p50Ms)} ms, p99 ${fmt(h.p99Ms)} ms, max ${fmt(h.maxMs)} ms`
      + ` — target p99 ≤ ${fmt(h.targetP99Ms)} ms and none lost: ${h.verdict}`,
    ...(h.cpu ? [`    3 nodes: ${formatCpu(h.cpu)}`] : []),
    ...(h.limit ? [`    limit:   ${h.limit}`] : []),
  ].join('\n');
}

export function formatCluster(f: ClusterFigures): string {
  return [
    'cluster (3 nodes behind HAProxy against 1 node; same machine, same PostgreSQL database):',
    ...f.cases.map(formatClusterCase),
    ...(f.hub ? [formatClusterHub(f.hub)] : []),
    ...f.errors.map((e) => `  ERROR: ${e}`),
  ].join('\n');
}
