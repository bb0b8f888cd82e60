import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
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

// A database from before the stock engine: its ledger gets business days (in each warehouse's zone), its open
// replenishment tasks' allocations become reservations and its open counts' held locations become holds.
describe('migration 0014 on existing data', () => {
  it('backfills business days, and turns open allocations into reservations and open counts into holds', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = OFF'); // only the rows the migration reads are made here
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    const d = dialectFor('sqlite');
    for (const m of [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013]) await m.up(db, d);
    const at = '2026-11-25T06:30:00.000Z'; // still the 24th in Los Angeles
    await db.insertInto('warehouse').values([
      { id: 1, code: 'LA', name: 'LA', city: 'LA', timezone: 'America/Los_Angeles', capacity: 1, is_active: 1, created_at: at, updated_at: at },
      { id: 2, code: 'UTC', name: 'UTC', city: 'X', timezone: 'UTC', capacity: 1, is_active: 1, created_at: at, updated_at: at },
    ]).execute();
    const place = { customer_id: 5, sku_id: 6, location_id: 7, lot: '', pallet: '' };
    await db.insertInto('inventory_balance').values([
      { id: 11, warehouse_id: 1, ...place, on_hand: 10, allocated: 4, updated_at: at },
      { id: 12, warehouse_id: 2, ...place, on_hand: 3, allocated: 0, updated_at: at },
    ]).execute();
    await db.insertInto('inventory_txn').values([
      { warehouse_id: 1, ...place, at, qty_change: 10, txn_type: 'receive', document_type: 'RECEIPT', document_id: 'RO-1' },
      { warehouse_id: 2, ...place, at, qty_change: 3, txn_type: 'receive', document_type: 'RECEIPT', document_id: 'RO-2' },
    ]).execute();
    const task = { rule_id: 1, warehouse_id: 1, customer_id: 5, sku_id: 6, from_location_id: 7, to_location_id: 8, lot: '', pallet: '', created_at: at };
    await db.insertInto('replenishment_task').values([
      { id: 31, ...task, quantity: 4, status: 'Open' },
      { id: 32, ...task, rule_id: 2, quantity: 9, status: 'Completed' },
    ]).execute();
    const count = { warehouse_id: 1, customer_id: 5, count_type: 'Cycle', selection: 'location', is_blind: 0, count_date: '2026-11-24', created_at: at, updated_at: at };
    await db.insertInto('cycle_count').values([{ id: 41, count_no: 'CC-000041', status: 'Open', ...count }, { id: 42, count_no: 'CC-000042', status: 'Approved', ...count }]).execute();
    await db.insertInto('cycle_count_location').values([
      { cycle_count_id: 41, warehouse_id: 1, customer_id: 5, location_id: 7, is_open: 1 },
      { cycle_count_id: 42, warehouse_id: 1, customer_id: 5, location_id: 9, is_open: 0 },
    ]).execute();

    await m0014.up(db, d);
    const days = await db.selectFrom('inventory_txn').select(['warehouse_id', 'business_day']).orderBy('warehouse_id').execute();
    expect(days).toEqual([{ warehouse_id: 1, business_day: '2026-11-24' }, { warehouse_id: 2, business_day: '2026-11-25' }]);
    const reservations = await db.selectFrom('stock_reservation').select(['balance_id', 'document_type', 'document_id', 'quantity']).execute();
    expect(reservations).toEqual([{ balance_id: 11, document_type: 'REPLENISHMENT', document_id: 'RPL-31', quantity: 4 }]);
    const holds = await db.selectFrom('stock_hold').select(['location_id', 'customer_id', 'hold_type', 'document_id', 'is_open']).execute();
    expect(holds).toEqual([{ location_id: 7, customer_id: 5, hold_type: 'CYCLE_COUNT', document_id: 'CC-000041', is_open: 1 }]);
    // From now on a ledger row moves its balance, and an unknown type is refused.
    await db.insertInto('inventory_txn').values({ warehouse_id: 2, ...place, at, qty_change: 2, txn_type: 'adjust', document_type: 'ADJUSTMENT', document_id: 'ADJ-1' }).execute();
    expect((await db.selectFrom('inventory_balance').select('on_hand').where('id', '=', 12).executeTakeFirstOrThrow()).on_hand).toBe(5);
    await expect(db.insertInto('inventory_txn').values({ warehouse_id: 2, ...place, at, qty_change: 1, txn_type: 'gift', document_type: 'ADJUSTMENT', document_id: 'X' }).execute()).rejects.toThrow(/CHECK/);
    await db.destroy();
  });
});
