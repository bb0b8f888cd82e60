// The printed table and the JSON kept in bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ClusterFigures } from '../cluster.js';
import { formatCluster } from '../cluster.js';
import type { HubFigures } from '../hub.js';
import type { LoadFigures } from './load.js';
import { settings } from './settings.js';
import type { StartupFigures } from './startup.js';

export type Verdict = 'PASS' | 'FAIL' | 'info' | 'ERROR';

export interface CaseResult {
  engine: string;
  case: string;
  server: LoadFigures;
  bare: LoadFigures;
  ratio: number;
  /** The ratio in each round: a wide spread means other work on the machine disturbed the run. */
  roundRatios: number[];
  target: number | null;
  /** A latency target for the app instead of a ratio (the stock-on-hand list). */
  p99TargetMs?: number;
  /** Statements the app sends per request of the case (a slot's requests joined by +), from the capture. */
  statements?: string;
  verdict: Verdict;
  note?: string;
}

export interface BenchReport {
  at: string;
  /** loadAverage1m is taken before the bench starts: other work on the machine makes figures noisier. */
  machine: { node: string; cpus: number; cpuModel: string; loadAverage1m: number };
  settings: Record<string, unknown>;
  startup?: StartupFigures & { targetMs: number; verdict: Verdict };
  cases: CaseResult[];
  hub: (HubFigures & { targetP99Ms: number; verdict: Verdict })[];
  /** Issue 19: three nodes against one, and the hub across nodes (bench/cluster.ts). */
  cluster?: ClusterFigures;
  skipped: { engine: string; reason: string }[];
  errors: string[];
}

export function newReport(settings: Record<string, unknown>): BenchReport {
  const cpu = cpus();
  return {
    at: new Date().toISOString(),
    machine: { node: process.version, cpus: cpu.length, cpuModel: cpu[0]?.model ?? 'unknown', loadAverage1m: Math.round(loadavg()[0] * 100) / 100 },
    settings, cases: [], hub: [], skipped: [], errors: [],
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const lat = (f: LoadFigures) => `${fmt(f.p50)} / ${fmt(f.p99)}`;

export function formatTable(report: BenchReport): string {
  const head = ['engine', 'case', 'server req/s', 'bare req/s', 'ratio', 'stmts/req', 'rounds', 'server p50/p99 ms', 'bare p50/p99 ms', 'target', 'result'];
  const pct = (r: number) => `${fmt(r * 100)}%`;
  const spread = (rs: number[]) => (rs.length > 1 ? `${pct(Math.min(...rs))}–${pct(Math.max(...rs))}` : '-');
  // A case of one long request a run (the allocation batch) has rates below 1/s: show them with decimals.
  const rate = (r: number) => fmt(r, r < 10 ? 2 : 0);
  const rows = report.cases.map((c) => [
    c.engine, c.case, rate(c.server.reqPerSec), rate(c.bare.reqPerSec), pct(c.ratio), c.statements ?? '-', spread(c.roundRatios), lat(c.server), lat(c.bare),
    c.p99TargetMs != null ? `p99 ≤ ${fmt(c.p99TargetMs)} ms` : c.target == null ? '-' : `≥ ${fmt(c.target * 100)}%`, c.note ? `${c.verdict} (${c.note})` : c.verdict,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const m = report.machine;
  const out = [`${m.cpus} × ${m.cpuModel}, Node ${m.node}, load average ${m.loadAverage1m} at start`];
  if (rows.length) out.push('', line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line));
  for (const s of report.skipped) out.push(`${s.engine}: skipped — ${s.reason}`);
  if (report.startup) {
    const s = report.startup;
    out.push('', `startup (${s.entry}): median ${fmt(s.medianMs)} ms of [${s.runsMs.join(', ')}] — target ≤ ${fmt(s.targetMs)} ms: ${s.verdict}`);
  }
  if (report.hub.length) out.push('', 'hub (change committed → event received by each client):');
  for (const h of report.hub) {
    out.push(`  ${h.engine}: ${h.clients} clients, ${h.samples} receipts, ${h.lost} lost; p50 ${fmt(h.p50Ms)} ms, p99 ${fmt(h.p99Ms)} ms, max ${fmt(h.maxMs)} ms`
      + ` — target p99 ≤ ${fmt(h.targetP99Ms)} ms: ${h.verdict}; server memory per connection: RSS ${fmt(h.rssPerConnectionKb, 1)} KiB, JS heap ${fmt(h.heapPerConnectionKb, 1)} KiB`);
  }
  if (report.cluster) out.push('', formatCluster(report.cluster));
  for (const e of report.errors) out.push(`ERROR: ${e}`);
  return out.join('\n');
}

/**
 * bench/results/ is git-ignored. latest.json is the last run of every case; a run of some cases (BENCH_CASES) writes
 * latest-<cases>.json, so a quick run of one case does not overwrite the whole run's figures.
 */
export function writeReport(report: BenchReport): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${process.env.BENCH_CASES ? `latest-${settings.cases.join('-')}` : 'latest'}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
