import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/database.js';
import { hasEnded, startProcess } from '../test/child-processes.js';

/**
 * A cluster as a 3PL runs one: several real server processes on one fresh PostgreSQL database, HAProxy in front
 * (haproxy.cfg, as it is in the repo). The nodes run a bundle of the server built for this suite (cluster/dist), so
 * a parallel `npm run build` is never disturbed and a node starts in a moment.
 */
const serverDir = new URL('..', import.meta.url).pathname;
const HAPROXY_CFG = new URL('./haproxy.cfg', import.meta.url).pathname;
const BUNDLE_DIR = 'cluster/dist';
export const ADMIN_PASSWORD = 'bolx-cluster-admin';
const READY_TIMEOUT_MS = 90_000;

/** Settings every node gets; the suite's own: a short job lock lease and a drain longer than HAProxy's check. */
export const NODE_ENV = {
  /** A killed node's job is taken over once its lock runs out. */
  JOB_LOCK_MS: '3000',
  /** HAProxy checks /ready every 500 ms and marks a node down after 2 failures: 2 s covers that. */
  SHUTDOWN_DRAIN_MS: '2000',
  /** Every upload is a background job, so a job is easy to start. */
  BACKGROUND_UPLOAD_BYTES: '1',
  DB_POOL_SIZE: '5',
};

/** What the suite needs and this machine lacks, or null: it is skipped with this message rather than failed. */
export async function missingPrerequisite(): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return 'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)';
  if (!haproxyPath()) return 'haproxy is not installed (apt-get install -y haproxy)';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return null;
  } catch (err) {
    return `PostgreSQL is not reachable at ${url}: ${(err as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function haproxyPath(): string | null {
  if (existsSync('/usr/sbin/haproxy')) return '/usr/sbin/haproxy';
  const which = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function isReady(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/ready`)).ok;
  } catch {
    return false;
  }
}

/**
 * Bundles the server found in `dir` (this checkout's by default; an older release's checkout for the rolling-upgrade
 * test) into its cluster/dist; answers the server folder a node of it runs in.
 */
export function bundleServer(dir = serverDir): string {
  const built = spawnSync(process.execPath, ['build.mjs', BUNDLE_DIR], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`could not bundle the server in ${dir}: ${built.stderr}`);
  return dir;
}

export interface ReleaseCheckout {
  /** Its server folder, for bundleServer and ClusterNode. */
  serverDir: string;
  remove(): void;
}

/**
 * The server of an earlier commit, to run beside this one (a rolling upgrade): its files from git (`git archive`,
 * so nothing is registered in the repository and a killed run leaves only a temp folder), and this checkout's
 * installed packages (linked, not copied: the lock file rarely differs from one release to the next) except the
 * workspaces, which are its own. Answers why it cannot, instead, when the commit is not in this clone (a shallow one).
 */
export function checkoutRelease(commit: string): ReleaseCheckout | string {
  const git = (args: string[]) => spawnSync('git', args, { cwd: serverDir, encoding: 'utf8' });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0) return `not a git checkout (${top.stderr.trim()})`;
  const root = top.stdout.trim();
  if (git(['cat-file', '-e', `${commit}^{commit}`]).status !== 0) {
    const shallow = git(['rev-parse', '--is-shallow-repository']).stdout.trim() === 'true';
    return `commit ${commit} is not in this clone${shallow ? ' (a shallow clone: git fetch --unshallow, or check out with fetch-depth 0)' : ''}`;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bolx-release-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const unpacked = spawnSync('sh', ['-c', `git archive --format=tar ${commit} package.json tsconfig.base.json contracts server | tar -x -C "${dir}"`], { cwd: root, encoding: 'utf8' });
  if (unpacked.status !== 0) {
    remove();
    throw new Error(`could not unpack ${commit}: ${unpacked.stderr}`);
  }
  // This checkout's build script: an older release's wrote only to dist/, not to the folder it is given.
  copyFileSync(join(serverDir, 'build.mjs'), join(dir, 'server', 'build.mjs'));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@bolx'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) if (entry !== '@bolx') symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  for (const workspace of ['contracts', 'server']) symlinkSync(`../../${workspace}`, join(modules, '@bolx', workspace));
  return { serverDir: join(dir, 'server'), remove };
}

/** One server process, on a fixed port so that HAProxy finds it again after a restart. */
export class ClusterNode {
  private child: ChildProcess | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  private log = '';
  readonly base: string;

  /** `dir`: the server folder whose bundle it runs (bundleServer). */
  constructor(readonly name: string, readonly port: number, private readonly env: Record<string, string>, private readonly dir = serverDir) {
    this.base = `http://127.0.0.1:${port}`;
  }

  get pid(): number | undefined {
    return this.child && !hasEnded(this.child) ? this.child.pid : undefined;
  }

  /** The node's output so far (shown when something fails). */
  output(): string {
    return this.log.slice(-4000);
  }

  async start(): Promise<void> {
    // startProcess: killed with the suite (or the bench) however it ends, so no node outlives it.
    const child = startProcess(process.execPath, [join(this.dir, BUNDLE_DIR, 'main.js')], { cwd: this.dir, env: { ...process.env, ...this.env, PORT: String(this.port) } });
    this.child = child;
    // Only the tail is kept: under the bench's load a node logs a line per request.
    const keep = (d: Buffer) => { this.log = (this.log + d.toString()).slice(-8000); };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await isReady(this.base))) {
      if (hasEnded(child) || Date.now() > deadline) throw new Error(`node ${this.name} did not become ready:\n${this.output()}`);
      await sleep(100);
    }
  }

  /** SIGTERM, as an orchestrator stops a node; resolves when the process has exited. */
  async stop(): Promise<void> {
    if (this.pid === undefined) return;
    this.child!.kill('SIGTERM');
    await this.exited;
  }

  /** kill -9: no shutdown at all. */
  async kill(): Promise<void> {
    if (this.pid === undefined) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }
}

export interface Cluster {
  /** HAProxy's address: what clients use (the node's own with a single node). */
  lb: string;
  nodes: ClusterNode[];
  /** HAProxy's process (none with a single node): the bench reads its CPU time. */
  haproxyPid: number | undefined;
  /** The suite's own connection to the cluster's database (to set data up and to check it). */
  database: Database;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** Nodes: 3 behind HAProxy (haproxy.cfg names three), or 1 on its own. */
  size?: 1 | 3;
  /** A database made and dropped by the caller (the bench's demo database); a fresh one otherwise, dropped on close. */
  databaseUrl?: string;
  /** Settings on top of NODE_ENV and the shared ones (say, DB_POOL_SIZE or LOG_LEVEL). */
  env?: Record<string, string>;
  /**
   * The server folder (bundled: bundleServer) of the first nodes, in order: an older release's for a rolling
   * upgrade; this checkout's for the rest. The first node starts alone, so an older release migrates first.
   */
  serverDirs?: string[];
}

/** Builds the bundle, makes a fresh database (or takes the one given), starts the nodes (the first migrates it alone) and HAProxy. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const { size = 3 } = options;
  bundleServer();
  let databaseUrl = options.databaseUrl;
  let dropDatabase = async () => undefined as void;
  if (!databaseUrl) {
    const name = `bolx_cluster_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    dropDatabase = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bolx-cluster-'));
  // One TOKEN_SECRET for all: a token signed by one node is honoured by the others.
  const shared = {
    DATABASE_URL: databaseUrl, TOKEN_SECRET: randomBytes(32).toString('hex'), ADMIN_PASSWORD, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...NODE_ENV, ...options.env,
  };
  const nodes: ClusterNode[] = [];
  for (let i = 1; i <= size; i++) nodes.push(new ClusterNode(`node${i}`, await freePort(), { ...shared, DATA_DIR: join(dataDir, `node${i}`) }, options.serverDirs?.[i - 1]));

  let haproxy: ChildProcess | undefined;
  const close = async () => {
    haproxy?.kill('SIGTERM');
    // Teardown needs no grace (the suite tests the graceful stop itself): the database is dropped next.
    await Promise.all(nodes.map((n) => n.kill()));
    await database.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const database = openDatabase({ databaseUrl, dataDir, poolSize: 4 });
  try {
    await nodes[0].start();
    await Promise.all(nodes.slice(1).map((n) => n.start()));
    if (size === 1) return { lb: nodes[0].base, nodes, haproxyPid: undefined, database, databaseUrl, close };
    const lbPort = await freePort();
    const env: Record<string, string> = { BOLX_LB_BIND: `127.0.0.1:${lbPort}` };
    nodes.forEach((n, i) => (env[`BOLX_NODE${i + 1}`] = `127.0.0.1:${n.port}`));
    haproxy = startProcess(haproxyPath()!, ['-db', '-f', HAPROXY_CFG], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let haproxyLog = '';
    haproxy.stderr!.on('data', (d) => (haproxyLog += d));
    const lb = `http://127.0.0.1:${lbPort}`;
    const deadline = Date.now() + 10_000;
    while (!(await isReady(lb))) {
      if (hasEnded(haproxy) || Date.now() > deadline) throw new Error(`HAProxy did not start:\n${haproxyLog}`);
      await sleep(100);
    }
    return { lb, nodes, haproxyPid: haproxy.pid, database, databaseUrl, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Waits until `check` answers something truthy; fails naming `what` after `ms`, with what `explain` then says
 * (the state of things, for a wait that fails only now and then).
 */
export async function until<T>(check: () => Promise<T> | T, ms: number, what: string, explain?: () => Promise<string>): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) {
      const state = explain ? await explain().catch((err) => `(could not say why: ${(err as Error).message})`) : '';
      throw new Error(`timed out after ${ms} ms waiting for ${what}${state ? `\n${state}` : ''}`);
    }
    await sleep(50);
  }
}

/**
 * What the server holds, every database's (a suite run before may have left something behind): each session
 * but this one — its database, state, what it waits on, for how long, its query — and the locks not granted.
 */
export async function serverActivity(): Promise<string> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const sessions = await client.query(`SELECT pid, datname, application_name, backend_type, state, wait_event_type, wait_event,
        now() - backend_start AS connected, now() - xact_start AS in_transaction, now() - state_change AS in_state, left(query, 200) AS query
      FROM pg_stat_activity WHERE pid <> pg_backend_pid() ORDER BY datname NULLS FIRST, pid`);
    const waiting = await client.query(`SELECT l.pid, l.locktype, l.mode, l.relation::regclass AS relation, l.transactionid, pg_blocking_pids(l.pid) AS blocked_by
      FROM pg_locks l WHERE NOT l.granted`);
    const advisory = await client.query(`SELECT pid, database, objid, mode FROM pg_locks WHERE locktype = 'advisory'`);
    const databases = await client.query('SELECT datname FROM pg_database WHERE NOT datistemplate ORDER BY 1');
    const rows = (r: pg.QueryResult) => r.rows.map((x) => JSON.stringify(x)).join('\n') || '(none)';
    return [`sessions:\n${rows(sessions)}`, `locks waited for:\n${rows(waiting)}`, `advisory locks:\n${rows(advisory)}`,
      `databases: ${databases.rows.map((d) => d.datname).join(', ')}`].join('\n');
  } finally {
    await client.end();
  }
}
