import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Permission, Role } from '@bolx/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { prepareDatabase } from '../src/db/prepare.js';
import { insertUser } from '../src/db/seed/users.js';
import type { DeliveredEvent } from '../src/platform/events.js';
import { systemActor } from '../src/platform/actor.js';
import { Scope } from '../src/platform/scope.js';
import type { Place } from '../src/platform/stock/stock-engine.js';
import { inTransaction } from '../src/platform/unit-of-work.js';

/** Which engine this run uses: PostgreSQL when TEST_DATABASE_URL is set, SQLite otherwise. */
export const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  /** Stops the app and closes its database, keeping the data (a restore test reopens it). */
  stop(): Promise<void>;
  /** Stops (if not yet) and removes the database. */
  close(): Promise<void>;
}

/**
 * A real app on a real, empty database: a fresh SQLite file, or a fresh PostgreSQL schema. Migrated, with
 * reference data; `demo: true` loads the demo data too. Logs nothing, unless given a `logStream` to log into.
 */
export async function buildTestApp(opts: {
  demo?: boolean; config?: Partial<Config>;
  /** Extra hooks or routes, added after the app's own (a test's fault injection). */
  beforeReady?: (app: FastifyInstance) => void;
  /** How long a request waits for a concurrent one holding its Idempotency-Key (PostgreSQL). */
  idempotencyWaitMs?: number;
  logStream?: NodeJS.WritableStream;
} = {}): Promise<TestApp> {
  const { database, dataDir, drop } = await openEmptyDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent' }, { dataDir, tokenSecret: randomBytes(32), webDist: join(dataDir, 'no-web'), ...opts.config });
  const url = process.env.TEST_DATABASE_URL;
  const app = await buildApp({ ...config, databaseUrl: url }, {
    database, idempotencyWaitMs: opts.idempotencyWaitMs, ...(opts.logStream ? { logStream: opts.logStream } : { logger: false }),
  });
  // As main.ts does: the app is built first, so the demo takes its orders through the app's services.
  await prepareDatabase(database, { demoData: !!opts.demo, adminPassword: 'bolx-test-admin', services: app.services }, { info: () => {}, warn: () => {} });
  opts.beforeReady?.(app);
  await app.ready();
  await app.services.events.start();
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= (async () => {
    await app.services.events.stop();
    await app.close();
    await database.close();
  })());
  return {
    app, config, database, stop,
    async close() {
      await stop();
      await drop();
    },
  };
}

/**
 * A fresh, empty, unmigrated database of this run's engine: a SQLite file in its own folder, or a PostgreSQL
 * schema of its own. `drop` removes it (close the database first).
 */
export async function openEmptyDatabase(): Promise<{ database: Database; dataDir: string; schema?: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolx-test-'));
  const url = process.env.TEST_DATABASE_URL;
  const schema = url ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (url) await pgAdmin(url, `CREATE SCHEMA ${schema}`);
  const database = openDatabase({ databaseUrl: url, dataDir, pgSchema: schema, poolSize: 5 });
  return {
    database, dataDir, schema,
    async drop() {
      if (url && schema) await pgAdmin(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs one statement on its own connection to `url` (creating and dropping schemas and databases). */
export async function pgAdmin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export const ADMIN = { username: 'admin', password: 'bolx-test-admin' };

export interface Session { accesstoken: string; refreshtoken: string; userid: number }

export async function login(app: FastifyInstance, username: string, password: string, extra: InjectOptions = {}): Promise<Session> {
  const res = await app.inject({ method: 'POST', url: '/Common/Auth/login', payload: { username, password }, ...extra });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Calls the API as a signed-in user. */
export function as(app: FastifyInstance, session: Session | string) {
  const token = typeof session === 'string' ? session : session.accesstoken;
  const call = (method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${token}`, ...headers } });
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) => call('POST', url, payload ?? {}, headers),
    put: (url: string, payload?: unknown, headers?: Record<string, string>) => call('PUT', url, payload ?? {}, headers),
    delete: (url: string, headers?: Record<string, string>) => call('DELETE', url, undefined, headers),
  };
}

let seq = 0;
/** Makes a warehouse, optionally with customers served from it. */
export async function makeWarehouse(database: Database, name = `Warehouse ${++seq}`) {
  const now = new Date().toISOString();
  return database.db.insertInto('warehouse').values({
    code: `W${++seq}${randomBytes(2).toString('hex')}`, name, address1: null, address2: null, city: 'Testville', state: null, zip: null,
    country: null, timezone: 'UTC', capacity: 10, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
}

export async function makeCustomer(database: Database, warehouseIds: number[], name = `Customer ${++seq}`) {
  const now = new Date().toISOString();
  const { id } = await database.db.insertInto('customer').values({
    code: `C${++seq}${randomBytes(2).toString('hex')}`, name, email: null, phone: null, address1: null, city: null, state: null,
    zip: null, country: null, is_active: 1, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  if (warehouseIds.length) await database.db.insertInto('customer_warehouse').values(warehouseIds.map((w) => ({ customer_id: id, warehouse_id: w }))).execute();
  return id;
}

export async function makeUser(database: Database, u: {
  role: Role; username?: string; password?: string; customerId?: number; warehouseIds?: number[]; customerIds?: number[];
  modules?: Record<string, Permission>; defaultAppId?: number | null;
}) {
  const username = u.username ?? `user${++seq}${randomBytes(2).toString('hex')}`;
  const password = u.password ?? 'correct horse battery';
  const id = await database.db.transaction().execute((tx) => insertUser(tx, {
    username, password, email: `${username}@example.com`, firstName: 'Test', lastName: 'User', role: u.role,
    customerId: u.customerId, warehouseIds: u.warehouseIds, customerIds: u.customerIds, modules: u.modules, defaultAppId: u.defaultAppId,
  }));
  return { id, username, password };
}

/**
 * Collects hub events delivered after commit (on PostgreSQL they arrive through NOTIFY, a moment later). Events
 * committed before the recorder started are left out, even when their notification arrives late. Resolves once the
 * recorder knows where it starts, so that every event committed after the await is seen (a test that committed before
 * the starting point was read lost its first events: stop 28).
 */
export async function recordEvents(app: FastifyInstance) {
  const heard: DeliveredEvent[] = [];
  let known: number | undefined;
  const seen: DeliveredEvent[] = [];
  const stop = app.services.events.subscribe((e) => (known === undefined ? heard.push(e) : e.id > known && seen.push(e)));
  const floor = await app.services.events.latestId();
  known = floor;
  seen.push(...heard.filter((e) => e.id > floor));
  return {
    seen,
    /** The events seen once there are `enough` (a count, or a test of them), or when `ms` have passed. */
    async until(enough: number | ((events: DeliveredEvent[]) => boolean), ms = 3000): Promise<DeliveredEvent[]> {
      const deadline = Date.now() + ms;
      const done = typeof enough === 'number' ? () => seen.length >= enough : () => enough(seen);
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      stop();
      return seen;
    },
  };
}

/** A SKU of the client; `tracks`: whether it tracks lots and expiry dates (stock added with a lot needs a lot-tracked SKU). */
export async function makeSku(database: Database, customerId: number, code = `SKU-${++seq}`, tracks: { lot?: boolean; expiry?: boolean } = {}) {
  const now = new Date().toISOString();
  return database.db.insertInto('sku').values({
    customer_id: customerId, sku_code: code, description: `Test item ${code}`, uom: 'EA', upc: null, is_kit: 0, is_active: 1,
    is_lot_tracked: tracks.lot ? 1 : 0, is_expiry_tracked: tracks.expiry ? 1 : 0,
    weight_kg: null, length_cm: null, width_cm: null, height_cm: null, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
}

export async function makeLocation(database: Database, warehouseId: number, code = `L-${++seq}`, type = 'rack') {
  const now = new Date().toISOString();
  return database.db.insertInto('location').values({
    warehouse_id: warehouseId, code, type, zone: null, aisle: null, rack: null, level: null, bin: null, capacity: 0, is_active: 1,
    created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
}

/** A multipart/form-data body, as a browser's upload form sends it: text fields and an optional `file` part. */
export interface MultipartFile { name: string; bytes: Buffer; type?: string; field?: string }
/** A multipart body: text fields, then a file (as `file`) or several, each under its own `field` (default `file`). */
export function multipartBody(fields: Record<string, string | number>, file?: MultipartFile | MultipartFile[]) {
  const boundary = `----bolx${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of file === undefined ? [] : Array.isArray(file) ? file : [file]) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`));
    chunks.push(f.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Stock for a test, posted through the stock engine (ledger rows, balances, audit) as one adjustment document, so
 * the ledger reconciles with the balances. A negative quantity takes stock posted before (an emptied place keeps its row).
 */
export async function postStock(t: TestApp, legs: { place: Place; qty: number; expiryDate?: string | null }[], documentId = `test-stock-${++seq}`) {
  return inTransaction(t.database.db, (uow) => t.app.services.stock.post(uow, {
    documentType: 'ADJUSTMENT', documentId, reason: 'test stock', record: { after: { test: documentId } },
    legs: legs.map((l) => ({ place: l.place, qty: l.qty, txnType: 'adjust' as const, expiryDate: l.expiryDate ?? null })),
  }, systemActor('test')));
}

/** Whether the ledger sums to the balances (and reservations to allocations) in a warehouse. */
export async function ledgerBalanced(t: TestApp, warehouseId: number) {
  return (await t.app.services.stock.reconcile(Scope.everything, { warehouseId, customerId: 0 })).balanced;
}
