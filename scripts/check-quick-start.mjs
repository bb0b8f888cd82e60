// Proves the README's quick start on a fresh clone of HEAD: `npm start` answers /ready and stops on SIGTERM,
// then does so again on the database, token secret and builds the first start left behind.
// node_modules is hard-linked from this checkout (same disk) or, failing that, installed with `npm ci`.
// Exits non-zero, with the server's output, at the first thing that does not hold.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const READY_TIMEOUT_MS = 150_000; // the first start builds the web app and the server
const STOP_TIMEOUT_MS = 20_000;

class CheckFailed extends Error {
  constructor(message, output = '') {
    super(message);
    this.output = output;
  }
}

function fail(message, output = '') {
  throw new CheckFailed(message, output);
}

function sh(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')}: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The installed node_modules folders of the checkout: the root's and each workspace's. */
function installedModuleDirs() {
  const dirs = ['node_modules'];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory() && existsSync(join(root, entry.name, 'node_modules'))) dirs.push(join(entry.name, 'node_modules'));
  }
  return dirs;
}

function install(clone) {
  if (existsSync(join(root, 'node_modules'))) {
    const linked = installedModuleDirs().every((d) => spawnSync('cp', ['-al', join(root, d), join(clone, d)]).status === 0);
    if (linked) return 'hard-linked node_modules';
    for (const d of installedModuleDirs()) rmSync(join(clone, d), { recursive: true, force: true });
  }
  sh('npm', ['ci', '--no-audit', '--no-fund'], clone);
  return 'npm ci';
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * One `npm start`: waits for /ready, runs `whileUp` against it, then SIGTERM to its process group (as Ctrl-C
 * would) and expects a clean exit.
 */
async function startAndStop(clone, env, label, whileUp) {
  const started = Date.now();
  const child = spawn('npm', ['start'], { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let gone = null;
  void exited.then((e) => (gone = e));

  const url = `http://127.0.0.1:${env.PORT}/ready`;
  let ready = false;
  while (!ready && !gone && Date.now() - started < READY_TIMEOUT_MS) {
    try {
      const res = await fetch(url);
      ready = res.status === 200 && (await res.json()).status === 'ready';
    } catch { /* not listening yet */ }
    if (!ready) await new Promise((r) => setTimeout(r, 250));
  }
  if (!ready) {
    if (!gone) process.kill(-child.pid, 'SIGKILL');
    fail(`${label}: ${gone ? `npm start exited (code ${gone.code}, signal ${gone.signal}) before /ready` : `no /ready within ${READY_TIMEOUT_MS / 1000} s`}`, output);
  }
  const readyMs = Date.now() - started;
  let result;
  try {
    result = await whileUp(`http://127.0.0.1:${env.PORT}`);
  } catch (err) {
    process.kill(-child.pid, 'SIGKILL');
    fail(`${label}: ${err.message}`, output);
  }

  // npm itself dies of the signal (code 143), as it does on Ctrl-C; what must hold is that the server says it
  // is shutting down and every process of the group is gone in time, with no failure on the way.
  process.kill(-child.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (groupAlive(child.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(child.pid)) {
    process.kill(-child.pid, 'SIGKILL');
    fail(`${label}: still running ${STOP_TIMEOUT_MS / 1000} s after SIGTERM`, output);
  }
  await exited;
  if (!output.includes('shutting down') || /shutdown failed|failed to start/.test(output)) {
    fail(`${label}: the server did not shut down cleanly on SIGTERM`, output);
  }
  console.log(`quick start check: ${label} answered /ready after ${(readyMs / 1000).toFixed(1)} s and stopped cleanly`);
  return { output, result };
}

async function signIn(base) {
  const res = await fetch(`${base}/Common/Auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'bolx-demo-admin' }),
  });
  if (res.status !== 200) throw new Error(`the README's admin / bolx-demo-admin sign-in answered ${res.status}`);
  return (await res.json()).accesstoken;
}

async function profileStatus(base, token) {
  return (await fetch(`${base}/Common/Auth/Profile`, { headers: { authorization: `Bearer ${token}` } })).status;
}

const work = mkdtempSync(join(tmpdir(), 'bolx-quick-start-'));
let exitCode = 0;
try {
  const clone = join(work, 'repo');
  const head = sh('git', ['rev-parse', 'HEAD'], root);
  sh('git', ['clone', '--quiet', '--no-checkout', root, clone], work);
  sh('git', ['checkout', '--quiet', '--detach', head], clone);
  console.log(`quick start check: clone of ${head.slice(0, 12)} in ${clone}; ${install(clone)}`);

  const env = { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: join(work, 'data'), LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'TOKEN_SECRET', 'DEMO_DATA', 'ADMIN_PASSWORD', 'WEB_DIST', 'PUBLIC_URL']) delete env[name];

  const first = await startAndStop(clone, env, 'first start (fresh clone, empty database)', signIn);
  if (!first.output.includes('demo data loaded')) fail('the first start did not load the demo data', first.output);
  if (!existsSync(join(env.DATA_DIR, 'bolx.db')) || !existsSync(join(env.DATA_DIR, 'token-secret'))) {
    fail(`the first start left no bolx.db or token-secret in ${env.DATA_DIR}`, first.output);
  }
  // The second start keeps the token secret: a token from the first one is still good.
  const second = await startAndStop(clone, env, 'second start (built app, existing database)', async (base) => {
    const status = await profileStatus(base, first.result);
    if (status !== 200) throw new Error(`a token from the first start answered ${status} (token secret not kept?)`);
    await signIn(base);
  });
  if (/Building the (web app|server)/.test(second.output)) fail('the second start rebuilt what the first one built', second.output);
  if (second.output.includes('demo data loaded')) fail('the second start loaded the demo data again', second.output);
  console.log('quick start check: passed');
} catch (err) {
  if (!(err instanceof CheckFailed)) throw err;
  if (err.output) process.stderr.write(`---- npm start output ----\n${err.output.slice(-6000)}\n--------------------------\n`);
  process.stderr.write(`quick start check FAILED: ${err.message}\n`);
  exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
