import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from './database.js';
import type { Services } from '../services.js';
import { migrateToLatest } from './migrate.js';
import { syncReferenceData } from './seed/base.js';
import { seedDemoData } from './seed/demo.js';
import { seedDemoOrders } from './seed/demo-orders.js';
import { insertUser } from './seed/users.js';
import { randomPassword } from '../platform/secrets.js';
import { ChangeRecorder } from '../platform/change-recorder.js';
import { EventBus } from '../platform/events.js';
import { WarehouseTimeZones } from '../platform/business-day.js';
import { StockEngine } from '../platform/stock/stock-engine.js';
import { FloorEvents } from '../platform/floor-events.js';

export interface PrepareOptions {
  demoData: boolean;
  adminPassword?: string;
  /**
   * The app's services: with them the demo also takes orders through the floor (intake to ship confirm), as users
   * would. Without them (a migration run, a bench database) the demo has its stock, receipts and sign-ins only.
   */
  services?: Services;
}

/**
 * Brings a database to a usable state: migrations, reference data, then — only when it has no users — either
 * demo data or the one Super Administrator `admin` (with ADMIN_PASSWORD, or a random password printed once).
 * On PostgreSQL, nodes starting together take turns (an advisory lock): the first migrates and seeds, the
 * others then find nothing left to do.
 */
export async function prepareDatabase(database: Database, opts: PrepareOptions, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<void> {
  await oneNodeAtATime(database, () => prepare(database, opts, log));
}

/**
 * Runs `fn` holding a session-level advisory lock keyed by the schema, so one node at a time migrates that
 * schema. Kysely's migrator locks too, but only after creating its own tables, which two fresh nodes race on,
 * and not around the seeding (two admins, two sets of demo data). SQLite has one process: nothing to take turns with.
 */
async function oneNodeAtATime(database: Database, fn: () => Promise<void>): Promise<void> {
  if (!database.pool) return fn();
  // Its own connection, not one of the pool's: with a pool of one, the work would wait for the lock's holder.
  const client = new pg.Client(database.pool.options);
  client.on('error', () => undefined); // a dropped connection fails the query in hand, which throws below
  await client.connect();
  const key = `bolx-migrate:${database.pgSchema ?? 'public'}`;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    await fn();
  } finally {
    await client.end(); // ending the session releases its lock, also when fn threw
  }
}

async function prepare(database: Database, opts: PrepareOptions, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<void> {
  const applied = await migrateToLatest(database.db, database.dialect, database.pgSchema);
  if (applied.length) log.info({ migrations: applied }, 'database migrated');
  await syncReferenceData(database.db);
  const anyUser = await database.db.selectFrom('app_user').select('id').limit(1).executeTakeFirst();
  if (anyUser) {
    // A database in use, upgraded: the migrations may have rewritten tables or added indexes.
    if (applied.length) await refreshPlannerStatistics(database);
    return;
  }
  await seed(database, opts, log);
  // The demo fills the tables at once. A new database without it holds nothing worth analysing yet (a test suite
  // makes hundreds of them), and autovacuum analyses tables as they fill.
  if (opts.demoData) await refreshPlannerStatistics(database);
}

/**
 * The planner's statistics, after migrations changed a database in use or the demo filled a new one. Without them PostgreSQL plans every
 * table as nearly empty until autovacuum analyses it (a minute or more later, never where autovacuum is off): the
 * header's GetWarehouseClient took 45 ms of database time a call on the fresh demo, 1 ms after ANALYZE. SQLite
 * gathers its own at open (database.ts), which on a new database is before there is anything to analyse.
 */
export async function refreshPlannerStatistics(database: Database): Promise<void> {
  if (!database.pool) {
    database.sqlite?.pragma('optimize = 0x10002'); // analyses the tables whose statistics are missing or stale
    return;
  }
  // This schema's tables only: the database may hold others' (a test suite's, another tenant's).
  const { rows } = await database.pool.query<{ name: string }>(
    "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = current_schema()");
  if (rows.length) await database.pool.query(`ANALYZE ${rows.map((r) => r.name).join(', ')}`);
}

async function seed(database: Database, opts: PrepareOptions, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<void> {
  if (opts.demoData) {
    // The demo's stock is posted through the stock engine, as every other posting is.
    const timeZones = new WarehouseTimeZones(database.db);
    const stock = new StockEngine({ db: database.db, dialect: database.dialect, recorder: new ChangeRecorder(new EventBus(database)), timeZones });
    await seedDemoData(database.db, stock, new FloorEvents(timeZones));
    if (opts.services) {
      const started = Date.now();
      const orders = await seedDemoOrders(database, opts.services);
      log.info({ orders, ms: Date.now() - started }, 'demo orders taken through the floor');
    }
    log.info('demo data loaded: sign in as admin / bolx-demo-admin (see README for the other accounts)');
    return;
  }
  const password = opts.adminPassword ?? randomPassword();
  await database.db.transaction().execute((tx) => insertUser(tx, {
    username: 'admin', password, email: 'admin@localhost', firstName: 'System', lastName: 'Administrator',
    role: 'SuperAdministrator', modules: { WMS: 'write', FREIGHT: 'write', SERVICE: 'write' },
  }));
  if (!opts.adminPassword) {
    // Printed once, to the console only: it is not stored anywhere in clear.
    process.stdout.write(`\nBOLX-WMS: created Super Administrator "admin" with password: ${password}\n\n`);
  }
}
