import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAdmin } from './helpers.js';

/**
 * Two server nodes — two real processes (src/main.ts) — on one PostgreSQL database: an event committed on one
 * node reaches a hub client connected to the other, through LISTEN/NOTIFY. PostgreSQL only: with SQLite there is
 * one node by design, so there is nothing to share.
 */
const url = process.env.TEST_DATABASE_URL;
const serverDir = new URL('..', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const admin = (statement: string) => pgAdmin(url!, statement);

interface Node { name: string; base: string; child: ChildProcess; exited: Promise<unknown>; output: () => string }

async function startNode(name: string, databaseUrl: string, secret: string, dataDir: string): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env, DATABASE_URL: databaseUrl, TOKEN_SECRET: secret, ADMIN_PASSWORD: 'bolx-nodes-admin', DATA_DIR: dataDir,
      HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn',
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/ready`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, base, child, exited, output: () => output };
}

function addWarehouse(base: string, token: string, warehouseCode: string, warehouseName: string) {
  return fetch(`${base}/Warehouse/Warehouse/AddWarehouse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ warehouseCode, warehouseName, city: 'Reno', state: 'NV', zip: '89502', country: 'United States', timezone: 'UTC', capacity: 5 }),
  });
}

describe.skipIf(!url)('hub across server nodes (PostgreSQL)', () => {
  const database = `bolx_nodes_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bolx-nodes-'));
  const secret = randomBytes(32).toString('hex');
  const nodes: Node[] = [];
  let hub: HubConnection | undefined;
  let accesstoken: string;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    const databaseUrl = new URL(url!);
    databaseUrl.pathname = `/${database}`;
    // One after the other: the first node migrates and seeds the empty database.
    nodes.push(await startNode('A', databaseUrl.toString(), secret, join(dataDir, 'a')));
    nodes.push(await startNode('B', databaseUrl.toString(), secret, join(dataDir, 'b')));
  });

  afterAll(async () => {
    await hub?.stop();
    for (const n of nodes) n.child.kill('SIGTERM');
    await Promise.all(nodes.map((n) => n.exited));
    await admin(`DROP DATABASE IF EXISTS ${database}`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers an event committed on node A to a client connected to node B', async () => {
    const [a, b] = nodes;
    const loginRes = await fetch(`${a.base}/Common/Auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bolx-nodes-admin' }),
    });
    expect(loginRes.status).toBe(200);
    ({ accesstoken } = (await loginRes.json()) as { accesstoken: string });

    hub = new HubConnectionBuilder()
      .withUrl(`${b.base}/hubs/wms`, {
        skipNegotiation: true, transport: HttpTransportType.WebSockets, accessTokenFactory: () => accesstoken,
      })
      .withAutomaticReconnect([0, 2000, 10000, 30000])
      .configureLogging(LogLevel.None)
      .build();
    const received = new Promise<{ subEvent: string; payload: { warehouseId: number } }>((resolve) => hub!.on('ReceiveWareHousedata', resolve));
    await hub.start();

    const addRes = await addWarehouse(a.base, accesstoken, 'NODEA1', 'Committed on A');
    expect(addRes.status).toBe(200);
    const { data } = (await addRes.json()) as { data: { warehouseId: number } };
    const event = await Promise.race([received, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event on node B')), 5000))]);
    expect(event).toMatchObject({ subEvent: 'AddWarehouse', payload: { warehouseId: data.warehouseId, warehouseName: 'Committed on A' } });
  });

  it('keeps delivering after the nodes lose their listening connections (PostgreSQL restarted, connection cut)', async () => {
    const [a] = nodes;
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND query LIKE 'LISTEN %'`);
    const received = new Promise<{ payload: { warehouseName: string } }>((resolve) => hub!.on('ReceiveWareHousedata', (e) => {
      if (e.payload.warehouseName === 'After the cut') resolve(e);
    }));
    const addRes = await addWarehouse(a.base, accesstoken, 'NODEA2', 'After the cut');
    expect(addRes.status).toBe(200);
    // Committed while node B may not be listening yet: it catches up when it listens again.
    await Promise.race([received, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event on node B after the cut')), 10_000))]);
    expect(nodes.every((n) => n.child.exitCode === null)).toBe(true);
  });
});
