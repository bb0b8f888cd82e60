import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Server processes (and HAProxy) started by the reliability and cluster suites and the cluster bench: each is
 * killed when the process that started it ends — its 'exit', SIGINT, SIGTERM, the suite's last hook
 * (teardown-started-processes.ts) — and, where util-linux's setpriv exists, by the kernel when that process dies
 * without a chance to (kill -9 of the test worker): a parent-death signal. No node outlives its suite.
 */
const started = new Set<ChildProcess>();

/** setpriv, when this machine has it (Linux): it sets the parent-death signal, then runs the command in its place. */
const SETPRIV = (() => {
  if (process.platform !== 'linux') return null;
  const found = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
})();

/** Starts `command` as spawn does, and holds it for the hooks below. */
export function startProcess(command: string, args: string[], options: SpawnOptions): ChildProcess {
  // setpriv execs the command: the child's pid is the command's, so kill() and /proc reach it.
  const child = SETPRIV ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args], options) : spawn(command, args, options);
  started.add(child);
  // A spawn that failed (no such command) has no pid: startedRunning() skips it, and its 'error' still reaches the caller.
  child.once('exit', () => started.delete(child));
  return child;
}

/** Whether `child` has ended: an exit code, or the signal that killed it (a kill -9 leaves exitCode null). */
export function hasEnded(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, is not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc (not Linux), or no such process.
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** The pids of the processes started here that still run. */
export function startedRunning(): number[] {
  return [...started].map((c) => c.pid).filter((pid): pid is number => pid !== undefined && isRunning(pid));
}

/** kill -9 to every process started here that still runs; synchronous, so it also works in an 'exit' listener. Answers their pids. */
export function killStarted(): number[] {
  const pids = startedRunning();
  for (const child of started) child.kill('SIGKILL');
  return pids;
}

process.once('exit', () => { killStarted(); });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killStarted();
    // A listener replaces the signal's default (to end the process): restore it unless someone else handles it
    // (the bench cleans up and exits on its own).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}
