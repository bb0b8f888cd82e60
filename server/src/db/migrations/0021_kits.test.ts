import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectFor } from '../dialect.js';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_catalog_inventory.js';
import * as m0003 from './0003_customers.js';
import * as m0004 from './0004_catalog.js';
import * as m0005 from './0005_locations.js';
import * as m0006 from './0006_user_indexes.js';
import * as m0007 from './0007_receiving.js';
import * as m0008 from './0008_inventory_operations.js';
import * as m0009 from './0009_stock_list_index.js';
import * as m0010 from './0010_adjustment_posted.js';
import * as m0011 from './0011_stock_list_lead_indexes.js';
import * as m0012 from './0012_search_trigrams.js';
import * as m0013 from './0013_receiving_line_lots.js';
import * as m0014 from './0014_stock_engine.js';
import * as m0015 from './0015_documents_platform.js';
import * as m0016 from './0016_jobs.js';
import * as m0017 from './0017_orders.js';
import * as m0018 from './0018_api_keys.js';
import * as m0021 from './0021_kits.js';
import { widenStockVocabularies } from '../stock-vocabularies.js';

const schemaOf = async (db: Kysely<any>, name: string) =>
  (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = ${name}`.execute(db)).rows[0].sql;

// A database migrated before work orders existed: its stock vocabularies (0014's CHECK and triggers) lack 'WO'
// and the kit ledger types; 0021 widens them, keeping the reservations it holds.
describe('migration 0021 on an existing SQLite database', () => {
  it('widens the reservation CHECK and the ledger triggers, keeping rows and indexes', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = OFF');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    const d = dialectFor('sqlite');
    for (const m of [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013, m0014, m0015, m0016, m0017, m0018]) await m.up(db, d);
    // Yesterday's vocabularies: what 0014 wrote before 'WO', kit_consume and kit_produce were added.
    const old = (s: string) => s.replace(/, 'WO'/g, '').replace(/, 'kit_consume', 'kit_produce'/g, '');
    const table = await schemaOf(db, 'stock_reservation');
    await sql.raw(old(table).replace(/CREATE TABLE "?stock_reservation"?/, 'CREATE TABLE "r_old"')).execute(db);
    await sql`DROP TABLE stock_reservation`.execute(db);
    await sql`ALTER TABLE r_old RENAME TO stock_reservation`.execute(db);
    await sql`CREATE INDEX stock_reservation_balance ON stock_reservation (balance_id, quantity)`.execute(db);
    for (const trigger of ['inventory_txn_types_insert', 'inventory_txn_types_update']) {
      const text = await schemaOf(db, trigger);
      await sql.raw(`DROP TRIGGER ${trigger}`).execute(db);
      await sql.raw(old(text)).execute(db);
    }
    const row = { balance_id: 1, warehouse_id: 1, customer_id: 1, sku_id: 1, document_line: '', quantity: 3, created_at: 'x', updated_at: 'x' };
    await db.insertInto('stock_reservation').values({ ...row, document_type: 'REPLENISHMENT', document_id: 'RPL-1' }).execute();
    await expect(db.insertInto('stock_reservation').values({ ...row, document_type: 'WO', document_id: 'WO-000001' }).execute()).rejects.toThrow(/CHECK/);

    await m0021.up(db, d);
    await db.insertInto('stock_reservation').values({ ...row, balance_id: 2, document_type: 'WO', document_id: 'WO-000001' }).execute();
    expect(await db.selectFrom('stock_reservation').select(['document_type', 'quantity']).orderBy('id').execute())
      .toEqual([{ document_type: 'REPLENISHMENT', quantity: 3 }, { document_type: 'WO', quantity: 3 }]);
    expect(await schemaOf(db, 'stock_reservation_balance')).toMatch(/CREATE INDEX/);
    expect(await schemaOf(db, 'inventory_txn_types_insert')).toContain("'kit_consume'");
    // Run again (a later migration widening once more): nothing changes.
    const before = await schemaOf(db, 'stock_reservation');
    await widenStockVocabularies(db, d);
    expect(await schemaOf(db, 'stock_reservation')).toBe(before);
    await db.destroy();
  });
});
