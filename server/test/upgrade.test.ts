import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, STEPS } from '../src/db/migrate.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { prepareDatabase } from '../src/db/prepare.js';
import { Scope } from '../src/platform/scope.js';
import { systemActor } from '../src/platform/actor.js';
import { inTransaction } from '../src/platform/unit-of-work.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { as, engine, login, makeCustomer, makeLocation, makeSku, makeWarehouse, openEmptyDatabase } from './helpers.js';
import { randomBytes } from 'node:crypto';

/** The last migration of the previous release (the end of the orders work): the database an upgrade starts from. */
const PREVIOUS_RELEASE = '0020_allocation';
const quiet = { info: () => {}, warn: () => {} };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

async function emptyDatabase() {
  const empty = await openEmptyDatabase();
  cleanups.push(empty.drop);
  cleanups.push(() => empty.database.close());
  return empty;
}

const appliedSteps = async (database: Database) =>
  (await database.db.selectFrom('kysely_migration' as never).select('name' as never).execute()).map((r) => (r as { name: string }).name);

describe('upgrading a database', () => {
  it('made by the previous release, with stock and a reservation in it: migrates to the latest and keeps every unit', async () => {
    const { database, dataDir } = await emptyDatabase();
    await migrateToLatest(database.db, database.dialect, database.pgSchema, PREVIOUS_RELEASE);
    expect(await appliedSteps(database)).not.toContain('0021_kits');

    // Data as that release wrote it: 10 units received, 3 of them reserved by an order line.
    const wh = await makeWarehouse(database);
    const cust = await makeCustomer(database, [wh]);
    const sku = await makeSku(database, cust);
    const loc = await makeLocation(database, wh);
    const at = new Date().toISOString();
    await database.db.insertInto('inventory_txn').values({
      at, business_day: at.slice(0, 10), warehouse_id: wh, customer_id: cust, sku_id: sku, location_id: loc, lot: '', pallet: '',
      qty_change: 10, txn_type: 'adjust', reason: 'opening stock', document_type: 'ADJUSTMENT', document_id: 'OLD-1', document_line: '1', user_id: null,
    } as never).execute();
    const balance = await database.db.selectFrom('inventory_balance').select('id').where('sku_id', '=', sku).executeTakeFirstOrThrow();
    await database.db.updateTable('inventory_balance').set({ allocated: 3 }).where('id', '=', balance.id).execute();
    await database.db.insertInto('stock_reservation').values({
      balance_id: balance.id, warehouse_id: wh, customer_id: cust, sku_id: sku, document_type: 'SO', document_id: '1', document_line: '1',
      quantity: 3, created_at: at, updated_at: at,
    }).execute();

    await prepareDatabase(database, { demoData: false, adminPassword: 'bolx-upgrade-admin' }, quiet);

    expect((await appliedSteps(database)).sort()).toEqual(Object.keys(STEPS).sort());
    const app = await buildApp(loadConfig({}, { dataDir, tokenSecret: randomBytes(32), webDist: `${dataDir}/no-web`, databaseUrl: process.env.TEST_DATABASE_URL }), { database, logger: false });
    cleanups.push(() => app.close());
    await app.ready();
    const reconciled = await app.services.stock.reconcile(Scope.everything, { warehouseId: wh, customerId: cust });
    expect(reconciled).toMatchObject({ balanced: true, checkedBalances: 1 });
    // The new release reads and writes the old rows through its routes.
    const admin = await login(app, 'admin', 'bolx-upgrade-admin');
    const soh = await as(app, admin).post('/Warehouse/Inventory/GetStockOnHand', { filters: { warehouseId: wh, customerId: cust }, pageNumber: 1, pageSize: 10 });
    expect(soh.statusCode, soh.body).toBe(200);
    expect(soh.json().items).toMatchObject([{ onHand: 10, allocated: 3, available: 7 }]);
    // …and takes stock from them through the stock engine, the old reservation still counted: 7 are free, not 8.
    const take = (qty: number) => inTransaction(database.db, (uow) => app.services.stock.post(uow, {
      documentType: 'ADJUSTMENT', documentId: `NEW-${qty}`, reason: 'after upgrade', record: { after: {} },
      legs: [{ place: { warehouseId: wh, customerId: cust, skuId: sku, locationId: loc, lot: '', pallet: '' }, qty: -qty, txnType: 'adjust' }],
    }, systemActor('test')));
    await expect(take(8)).rejects.toThrow(/Not enough free stock/);
    await take(7);
    expect(await app.services.stock.reconcile(Scope.everything, { warehouseId: wh, customerId: cust })).toMatchObject({ balanced: true });
  });

  it.runIf(engine === 'postgres')('by three nodes at once: each migration runs once, the demo data is loaded once', async () => {
    const { database, dataDir, schema } = await emptyDatabase();
    const others = [1, 2].map(() => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir, pgSchema: schema, poolSize: 2 }));
    cleanups.push(() => Promise.all(others.map((d) => d.close())).then(() => undefined));
    await Promise.all([database, ...others].map((d) => prepareDatabase(d, { demoData: true }, quiet)));
    const steps = await appliedSteps(database);
    expect(steps.sort()).toEqual(Object.keys(STEPS).sort());
    // Seeding waits for the lock too: without it, each node found no user and loaded its own demo (or failed on a duplicate).
    const count = async (table: string) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(database.db)).rows[0].n);
    expect({ users: await count('app_user'), warehouses: await count('warehouse') }).toEqual({ users: 4, warehouses: 3 });
  });

  it('a node of this release (re)starting on a database a later release has migrated further serves on it, running nothing', async () => {
    const { database } = await emptyDatabase();
    await prepareDatabase(database, { demoData: false, adminPassword: 'bolx-upgrade-admin' }, quiet);
    // What the next release's first node leaves: one more step in the bookkeeping (and whatever it expanded).
    await database.db.insertInto('kysely_migration' as never).values({ name: '9999_later_release', timestamp: new Date().toISOString() } as never).execute();
    await expect(migrateToLatest(database.db, database.dialect, database.pgSchema)).resolves.toEqual([]);
    await prepareDatabase(database, { demoData: false }, quiet);
    expect(await appliedSteps(database)).toContain('9999_later_release');
  });
});
