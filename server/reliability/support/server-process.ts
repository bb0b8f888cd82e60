import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { hasEnded, startProcess } from '../../test/child-processes.js';

/**
 * A real server process (src/main.ts under tsx, as `npm run dev` runs it) on a database of its own: a fresh SQLite
 * file, or a fresh PostgreSQL database when TEST_DATABASE_URL is set. It can be killed with SIGKILL and started
 * again on the same database, port and token secret, so sessions survive.
 */
export interface ServerProcess {
  url: string;
  start(): Promise<void>;
  /** kill -9: no shutdown, requests in flight cut. */
  kill(): Promise<void>;
  /** The same database, opened by the test (fixtures, checks). */
  open(): Database;
  output(): string;
  dispose(): Promise<void>;
}

const READY_TIMEOUT_MS = 90_000;
const serverDir = new URL('../..', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(statement); } finally { await client.end(); }
}

export async function serverProcess(opts: { adminPassword: string }): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolx-chaos-'));
  const port = await freePort();
  const baseUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  if (baseUrl) {
    dbName = `chaos_${randomBytes(5).toString('hex')}`;
    await admin(baseUrl, `CREATE DATABASE ${dbName}`);
    const u = new URL(baseUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, TOKEN_SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD: opts.adminPassword, LOG_LEVEL: 'warn', DEMO_DATA: 'false', WEB_DIST: join(dataDir, 'no-web'), NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  let child: ChildProcess | null = null;
  let out = '';
  const opened: Database[] = [];
  const url = `http://127.0.0.1:${port}`;
  const kill = async () => {
    const c = child;
    if (!c || hasEnded(c)) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
    child = null;
  };

  return {
    url,
    async start() {
      const started = Date.now();
      child = startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
      child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
      let exited = false;
      child.once('exit', () => (exited = true));
      while (Date.now() - started < READY_TIMEOUT_MS && !exited) {
        try {
          const res = await fetch(`${url}/ready`);
          if (res.status === 200) return;
        } catch { /* not listening yet */ }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`the server did not answer /ready${exited ? ' (it exited)' : ''}:\n${out}`);
    },
    kill,
    open() {
      const database = openDatabase({ databaseUrl, dataDir, poolSize: 2 });
      opened.push(database);
      return database;
    },
    output: () => out,
    async dispose() {
      await kill();
      for (const d of opened) await d.close();
      if (baseUrl && dbName) await admin(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
