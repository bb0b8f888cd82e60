// Each server under test runs in its own process, so it gets a core of its own while autocannon drives it
// from the parent, and so one server's garbage never lands in the other's figures.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Engine } from './sql-capture.js';

/** What a server child needs to open the prepared database; passed as JSON in BENCH_CHILD. */
export interface ChildConfig {
  engine: Engine;
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
  poolSize: number;
  /** Shared by both servers, so a token from one verifies on the other. */
  tokenSecretHex: string;
  logLevel: string;
  /** Where a capture child (inventory-capture.ts, masterdata-capture.ts) writes its requests and traces. */
  capturedFile?: string;
  /** The capture files whose traces the bare server replays. */
  replayFiles?: string[];
}

/** The app child's METRICS_TOKEN, derived from the config the parent already holds (the hub bench reads /metrics). */
export const metricsTokenOf = (tokenSecretHex: string): string => `metrics-${tokenSecretHex.slice(0, 32)}`;

export function readChildConfig(): ChildConfig {
  const raw = process.env.BENCH_CHILD;
  if (!raw) throw new Error('BENCH_CHILD is not set: this file is started by bench/run.ts');
  return JSON.parse(raw) as ChildConfig;
}

/** Child side: report the port, and die with the parent (a dropped IPC channel means the bench is gone). */
export function announceReady(port: number, close: () => Promise<void>): void {
  process.on('disconnect', () => process.exit(0));
  const stop = () => void close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.send?.({ ready: port });
}

export interface RunningChild {
  name: string;
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Parent side: fork `lib/<entry>.ts` under tsx and wait for its port (or its failure). */
export function startChild(name: string, entry: string, config: ChildConfig, readyTimeoutMs = 60_000): Promise<RunningChild> {
  const file = fileURLToPath(new URL(`./${entry}`, import.meta.url));
  const child = fork(file, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_CHILD: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'], // the app's request log goes nowhere; errors are kept
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${name} did not start in ${readyTimeoutMs} ms\n${stderr}`)); }, readyTimeoutMs);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited (${code}) before it was ready\n${stderr}`)); });
    child.on('message', (msg: { ready?: number }) => {
      if (typeof msg?.ready !== 'number') return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const port = msg.ready;
      resolve({ name, port, url: `http://127.0.0.1:${port}`, stop: () => stopProcess(child) });
    });
  });
}

/** Parent side: fork `lib/<entry>.ts` for a job that ends by itself (it sends `{ done: true }` when it has). */
export function runChildToEnd(name: string, entry: string, config: ChildConfig, timeoutMs = 180_000): Promise<void> {
  const file = fileURLToPath(new URL(`./${entry}`, import.meta.url));
  // BENCH_CPU_PROF_DIR: a V8 CPU profile of each such job (node --cpu-prof), for finding where its time goes.
  const prof = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const child = fork(file, [], { execArgv: ['--import', 'tsx', ...prof], env: { ...process.env, BENCH_CHILD: JSON.stringify(config) }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  let done = false;
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  child.on('message', (msg: { done?: boolean }) => { if (msg?.done) done = true; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${name} did not finish in ${timeoutMs} ms\n${stderr}`)); }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (done && code === 0) resolve();
      else reject(new Error(`${name} exited (${code})\n${stderr}`));
    });
  });
}

/** SIGTERM, then SIGKILL if it has not gone in `graceMs`. */
export function stopProcess(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  });
}
