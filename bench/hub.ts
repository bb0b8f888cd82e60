// The real-time hub under load: many official @microsoft/signalr clients connected to the real app (its own
// process, on the demo database), a warehouse updated through the API again and again, and for every client
// the time from the change to its receipt. Also the server's memory per open connection.
// `npx tsx bench/hub.ts` runs it on its own (BENCH_HUB_CLIENTS, BENCH_HUB_EVENTS, BENCH_ENGINES);
// `npm run bench` runs it through `runHubBench` (case `hub`).
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { cleanupAll, guardRun, onCleanup } from './lib/cleanup.js';
import { metricsTokenOf, startChild } from './lib/child.js';
import { pgReachable, prepareDemoDatabase } from './lib/databases.js';
import { settings } from './lib/settings.js';
import type { Engine } from './lib/sql-capture.js';

const log = (line: string) => process.stdout.write(`${line}\n`);
const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return Math.round(value);
};

export const hubSettings = {
  clients: positive('BENCH_HUB_CLIENTS', 500),
  /** Measured events; each goes to every client before the next is raised. */
  events: positive('BENCH_HUB_EVENTS', 40),
  warmupEvents: 5,
  /** Signed-in sessions the clients are spread over (as tabs of a few users would be). */
  sessions: 10,
  /** Target from the issue: p99 commit → receipt on this 2-core machine. */
  p99TargetMs: 250,
};

export interface HubFigures {
  engine: Engine;
  clients: number;
  samples: number;
  lost: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  connectSeconds: number;
  rssPerConnectionKb: number;
  heapPerConnectionKb: number;
}

interface WarehouseRow {
  warehouseId: number; warehouseCode: string; warehouseName: string; address1: string | null; address2: string | null; city: string;
  state: string; zip: string; country: string; timezone: string; capacity: number; isActive: boolean; updatedAt: string;
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/Common/Auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bolx-demo-admin' }),
  });
  return (await json<{ accesstoken: string }>(res, 'login')).accesstoken;
}

/**
 * The server's own memory figures, from its /metrics: the lowest of a few readings over two seconds, so garbage
 * not yet collected weighs as little as it can (the server runs without --expose-gc).
 */
async function serverMemory(base: string, metricsToken: string): Promise<{ rss: number; heap: number }> {
  let rss = Infinity;
  let heap = Infinity;
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (!res.ok) throw new Error(`${base}/metrics: ${res.status} ${await res.text()}`);
    const text = await res.text();
    const read = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
    rss = Math.min(rss, read('process_resident_memory_bytes'));
    heap = Math.min(heap, read('nodejs_heap_size_used_bytes'));
    await sleep(400);
  }
  return { rss, heap };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One official client; `onEvent` gets the receipt time and the change's own timestamp (set just before commit). */
function hubClient(base: string, token: string, onEvent: (receivedAt: number, changedAt: number) => void): HubConnection {
  const conn = new HubConnectionBuilder()
    .withUrl(`${base}/hubs/wms`, { skipNegotiation: true, transport: HttpTransportType.WebSockets, accessTokenFactory: () => token })
    .withAutomaticReconnect([0, 2000, 10000, 30000])
    .configureLogging(LogLevel.None)
    .build();
  conn.on('ReceiveWareHousedata', (arg: { payload: { updatedAt: string } }) => onEvent(Date.now(), Date.parse(arg.payload.updatedAt)));
  return conn;
}

/** `count` clients spread round-robin over `bases` (the nodes of a cluster, or the one server). */
async function connectAll(bases: string[], tokens: string[], count: number, onEvent: (i: number, receivedAt: number, changedAt: number) => void) {
  const clients: HubConnection[] = [];
  for (let i = 0; i < count; i++) clients.push(hubClient(bases[i % bases.length], tokens[i % tokens.length], (r, c) => onEvent(i, r, c)));
  const batch = 50;
  for (let i = 0; i < clients.length; i += batch) await Promise.all(clients.slice(i, i + batch).map((c) => c.start()));
  return clients;
}

/**
 * Where the hub is measured: changes are written through `writeBase`, clients connect to `clientBases` (one
 * server; or every node of a cluster, so most events cross from one node to another). `metricsToken` opens /metrics.
 */
export interface HubTarget {
  writeBase: string;
  clientBases: string[];
  metricsToken: string;
  /** Called as the measured events start; what it answers is called as they end (the cluster bench samples CPU). */
  measuring?: () => () => Promise<void>;
}

/** Memory of every server the clients are on, added up. */
async function totalMemory(target: HubTarget): Promise<{ rss: number; heap: number }> {
  const each = await Promise.all(target.clientBases.map((b) => serverMemory(b, target.metricsToken)));
  return { rss: each.reduce((a, m) => a + m.rss, 0), heap: each.reduce((a, m) => a + m.heap, 0) };
}

/** Measures one engine against already running servers. */
export async function measureHub(engine: Engine, target: HubTarget): Promise<HubFigures> {
  const base = target.writeBase;
  const tokens: string[] = [];
  for (let i = 0; i < hubSettings.sessions; i++) tokens.push(await login(base));
  const auth = { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' };
  const list = await json<{ items: WarehouseRow[] }>(await fetch(`${base}/Warehouse/Warehouse/GetWarehouses`, {
    method: 'POST', headers: auth, body: JSON.stringify({ pageNumber: 1, pageSize: 1 }),
  }), 'GetWarehouses');
  const warehouse = list.items[0];
  if (!warehouse) throw new Error('the demo database has no warehouse');

  const before = await totalMemory(target);
  // Receipts by the change's timestamp: an event can reach clients before the API call that raised it answers.
  const receipts = new Map<number, number[]>();
  const connectStarted = Date.now();
  const clients = await connectAll(target.clientBases, tokens, hubSettings.clients, (_i, receivedAt, changedAt) => {
    const list = receipts.get(changedAt);
    if (list) list.push(receivedAt - changedAt);
    else receipts.set(changedAt, [receivedAt - changedAt]);
  });
  const connectSeconds = (Date.now() - connectStarted) / 1000;
  await sleep(1000); // let the server settle after the connection burst before reading its memory
  const after = await totalMemory(target);

  let lost = 0;
  let latencies: number[] = [];
  const raise = async (n: number) => {
    const body = {
      warehouseId: warehouse.warehouseId, warehouseCode: warehouse.warehouseCode, warehouseName: warehouse.warehouseName,
      address1: warehouse.address1, address2: warehouse.address2, city: warehouse.city, state: warehouse.state, zip: warehouse.zip,
      country: warehouse.country, timezone: warehouse.timezone, capacity: warehouse.capacity + (n % 2), isActive: warehouse.isActive,
    };
    const res = await fetch(`${base}/Warehouse/Warehouse/UpdateWarehouse`, { method: 'PUT', headers: auth, body: JSON.stringify(body) });
    const change = Date.parse((await json<{ data: WarehouseRow }>(res, 'UpdateWarehouse')).data.updatedAt);
    const deadline = Date.now() + 5000;
    while ((receipts.get(change)?.length ?? 0) < clients.length && Date.now() < deadline) await sleep(2);
    const got = receipts.get(change) ?? [];
    receipts.delete(change);
    if (process.env.HUB_DEBUG) process.stderr.write(`event ${n}: first ${Math.min(...got)} last ${Math.max(...got)}\n`);
    lost += clients.length - got.length;
    latencies.push(...got);
  };

  for (let n = 0; n < hubSettings.warmupEvents; n++) await raise(n);
  latencies = [];
  lost = 0;
  const measured = target.measuring?.();
  for (let n = 0; n < hubSettings.events; n++) {
    await raise(n);
    await sleep(20);
  }
  await measured?.();

  await Promise.all(clients.map((c) => c.stop()));
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    engine, clients: clients.length, samples: sorted.length, lost,
    p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? NaN, connectSeconds,
    rssPerConnectionKb: (after.rss - before.rss) / clients.length / 1024,
    heapPerConnectionKb: (after.heap - before.heap) / clients.length / 1024,
  };
}

/** Prepares the demo database, starts the app in its own process, measures, and cleans up. */
export async function runHubBench(engine: Engine): Promise<HubFigures> {
  const db = await prepareDemoDatabase(engine, settings.pgUrl);
  const tokenSecretHex = randomBytes(32).toString('hex');
  const app = await startChild('app', 'app-server.ts', {
    engine, dataDir: db.dataDir, databaseUrl: db.databaseUrl, pgSchema: db.pgSchema, poolSize: settings.poolSize, tokenSecretHex, logLevel: 'warn',
  });
  const stop = onCleanup('stop hub bench app', () => app.stop());
  try {
    return await measureHub(engine, { writeBase: app.url, clientBases: [app.url], metricsToken: metricsTokenOf(tokenSecretHex) });
  } finally {
    await stop();
  }
}

export function formatHubFigures(f: HubFigures): string {
  const verdict = f.p99Ms <= hubSettings.p99TargetMs && f.lost === 0 ? 'PASS' : 'FAIL';
  return [
    `  ${f.engine}: ${f.clients} clients connected in ${f.connectSeconds.toFixed(1)} s; ${f.samples} receipts, ${f.lost} lost`,
    `    change → receipt  p50 ${f.p50Ms.toFixed(0)} ms   p99 ${f.p99Ms.toFixed(0)} ms   max ${f.maxMs.toFixed(0)} ms   (target p99 ≤ ${hubSettings.p99TargetMs} ms: ${verdict})`,
    `    server memory per connection  RSS ${f.rssPerConnectionKb.toFixed(1)} KiB   JS heap ${f.heapPerConnectionKb.toFixed(1)} KiB`,
  ].join('\n');
}

async function main() {
  guardRun(settings.timeoutSeconds);
  log(`hub: ${hubSettings.clients} official SignalR clients, ${hubSettings.events} UpdateWarehouse events (each to every client)`);
  try {
    for (const engine of settings.engines as Engine[]) {
      if (engine === 'postgres') {
        const why = await pgReachable(settings.pgUrl);
        if (why) {
          log(`  postgres: skipped (${why})`);
          continue;
        }
      }
      log(formatHubFigures(await runHubBench(engine)));
    }
  } finally {
    await cleanupAll();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(() => process.exit(0), (err) => {
    process.stderr.write(`hub bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
