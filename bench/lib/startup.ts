// "npm start on an existing database ready in ≤ 3 s": the server's entry point is started on a database that
// already holds the demo data, and timed from spawn until GET /health answers 200.
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadConfig } from '../../server/src/config.js';
import { startProcess } from '../../server/test/child-processes.js';
import { onCleanup } from './cleanup.js';
import { stopProcess } from './child.js';
import { prepareDemoDatabase, tempDir } from './databases.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface StartupFigures {
  entry: string;
  runsMs: number[];
  medianMs: number;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * What `npm start` runs: server/dist/main.js. When that is missing or older than its sources, `npm start` would
 * rebuild it first, so we bundle the same way (server/build.mjs's options) into a temp dir and time that —
 * timing the sources under tsx would add on-the-fly transpiling that `npm start` never does.
 */
async function entryPoint(): Promise<{ args: string[]; label: string }> {
  const dist = join(root, 'server/dist/main.js');
  const sources = [join(root, 'server/src'), join(root, 'contracts/src')];
  if (existsSync(dist) && sources.every((s) => newestMtime(s) <= statSync(dist).mtimeMs)) {
    return { args: ['--enable-source-maps', dist], label: 'server/dist/main.js' };
  }
  const outdir = tempDir('bolx-bench-dist-');
  symlinkSync(join(root, 'node_modules'), join(outdir, 'node_modules'), 'dir'); // for the external packages
  const pkg = JSON.parse(readFileSync(join(root, 'server/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  await build({
    entryPoints: [join(root, 'server/src/main.ts')], outdir, entryNames: '[name]', bundle: true, platform: 'node',
    target: 'node20', format: 'esm', sourcemap: true, logLevel: 'warning',
    external: Object.keys(pkg.dependencies).filter((d) => d !== '@bolx/contracts'),
  });
  const why = existsSync(dist) ? 'server/dist is older than its sources' : 'server/dist is not built';
  return { args: ['--enable-source-maps', join(outdir, 'main.js')], label: `a fresh bundle of server/src (${why})` };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function timeOneStart(args: string[], dataDir: string, limitMs: number): Promise<number> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: '1' };
  delete env.DATABASE_URL;
  const started = performance.now();
  // Started as the suites start their servers: it dies with the bench, even a bench killed with kill -9.
  const child = startProcess(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stop = onCleanup('stop the startup server', () => stopProcess(child));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2000); });
  try {
    while (performance.now() - started < limitMs) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) during startup\n${stderr}`);
      if (await healthy(`http://127.0.0.1:${port}/health`)) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`the server was not ready after ${limitMs} ms\n${stderr}`);
  } finally {
    await stop();
  }
}

export async function measureStartup(runs: number, log: (line: string) => void): Promise<StartupFigures> {
  const db = await prepareDemoDatabase('sqlite', '');
  loadConfig({}, { dataDir: db.dataDir }); // makes the token secret now, as the first `npm start` would have
  const { args, label } = await entryPoint();
  log(`startup: ${label}, existing SQLite database with demo data, ${runs} runs`);
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    runsMs.push(Math.round(await timeOneStart(args, db.dataDir, 30_000)));
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { entry: label, runsMs, medianMs: sorted[Math.floor(sorted.length / 2)] };
}
