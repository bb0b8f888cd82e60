// Where a load's CPU went, from /proc (Linux): each group of processes' share of one core over the measured time,
// and how busy the whole machine was. On 2 cores this says what limits a case: the nodes, PostgreSQL, HAProxy
// or the load generator (the bench's own process), or other work on the machine.
import { readFileSync, writeFileSync } from 'node:fs';

/** utime + stime of a process in seconds (0 once it is gone). */
function processSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** USER_HZ: 100 on every Linux the bench runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/** Busy and total jiffies of the whole machine (all cores). */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - cpu[3] - (cpu[4] ?? 0), total }; // idle and iowait are not busy
}

export interface CpuShares {
  /** Per group: percent of one core over the measured time (200 = both cores of a 2-core machine). */
  groups: Record<string, number>;
  /** The whole machine's busy share, percent of all its cores (other engineers' work included). */
  machineBusy: number;
}

/**
 * Starts measuring; `groups` answers each group's processes when asked (at start and at the end, so a process
 * that came meanwhile is counted from its start). The bench's own process is the group `load generator`.
 */
export function cpuSampler(groups: Record<string, () => Promise<number[]> | number[]>): { stop(): Promise<CpuShares> } {
  const available = (() => { try { readFileSync('/proc/stat'); return true; } catch { return false; } })();
  const started = performance.now();
  const self = process.cpuUsage();
  const machine = available ? machineTicks() : { busy: 0, total: 0 };
  const before = new Map<string, Map<number, number>>();
  const snapshot = async (name: string) => new Map((await groups[name]()).map((pid) => [pid, processSeconds(pid)] as const));
  const ready = Promise.all(Object.keys(groups).map(async (name) => before.set(name, await snapshot(name))));
  return {
    async stop() {
      await ready;
      const seconds = (performance.now() - started) / 1000;
      const out: Record<string, number> = {};
      for (const name of Object.keys(groups)) {
        const after = await snapshot(name);
        let used = 0;
        for (const [pid, s] of after) used += s - (before.get(name)!.get(pid) ?? 0);
        out[name] = (used / seconds) * 100;
      }
      const me = process.cpuUsage(self);
      out['load generator'] = ((me.user + me.system) / 1e6 / seconds) * 100;
      const end = available ? machineTicks() : { busy: 0, total: 0 };
      const machineBusy = end.total > machine.total ? ((end.busy - machine.busy) / (end.total - machine.total)) * 100 : NaN;
      return { groups: out, machineBusy };
    },
  };
}

export function formatCpu(c: CpuShares): string {
  const parts = Object.entries(c.groups).map(([name, pct]) => `${name} ${pct.toFixed(0)}%`);
  return `CPU (% of one core): ${parts.join(', ')}; machine ${c.machineBusy.toFixed(0)}% busy`;
}

/**
 * Diagnostics: a V8 CPU profile of this process from now until stop(), written to `file` (none when unset) — the
 * pickers' phase alone, where BENCH_CPU_PROF_DIR profiles the whole child.
 */
export async function profileTo(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { async stop() {} };
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * Diagnostics: `perf record` of the whole machine (every process, PostgreSQL's backends too) into `file` until stopped;
 * nothing without a file. Read it with `perf report -i file --comm postgres --sort sym`.
 */
export async function perfTo(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { async stop() {} };
  const { spawn } = await import('node:child_process');
  const perf = spawn('perf', ['record', '-a', '-F', '1999', '-o', file], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    async stop() {
      const exited = new Promise((resolve) => perf.once('exit', resolve));
      perf.kill('SIGINT');
      await exited;
    },
  };
}
