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

// SQLite cannot alter a CHECK, so 0010 rebuilds the table there: the rows already in it must come through.
// (On PostgreSQL it swaps the constraint in place; every PostgreSQL test run migrates through it.)
describe('migration 0010 on SQLite', () => {
  it('keeps existing adjustment requests, ids and indexes, and accepts Posted', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = OFF'); // the rows the requests refer to are not needed here
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    const d = dialectFor('sqlite');
    for (const m of [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009]) await m.up(db, d);
    const row = {
      warehouse_id: 1, customer_id: 2, sku_id: 3, location_id: 4, lot: 'L', pallet: '', quantity_change: -5, reason_code: 'LOST',
      requested_at: '2026-11-01T00:00:00.000Z',
    };
    await db.insertInto('adjustment_request').values([{ ...row, id: 7, status: 'Pending' }, { ...row, id: 9, status: 'Approved', document_id: 'ADJ-9' }]).execute();
    await expect(db.insertInto('adjustment_request').values({ ...row, status: 'Posted' }).execute()).rejects.toThrow(/CHECK/);

    await m0010.up(db, d);
    const kept = await db.selectFrom('adjustment_request').select(['id', 'status', 'document_id', 'quantity_change']).orderBy('id').execute();
    expect(kept).toEqual([
      { id: 7, status: 'Pending', document_id: null, quantity_change: -5 },
      { id: 9, status: 'Approved', document_id: 'ADJ-9', quantity_change: -5 },
    ]);
    const posted = await db.insertInto('adjustment_request').values({ ...row, status: 'Posted' }).returning('id').executeTakeFirstOrThrow();
    expect(posted.id).toBe(10);
    await expect(db.insertInto('adjustment_request').values({ ...row, status: 'Bogus' }).execute()).rejects.toThrow(/CHECK/);
    await expect(db.insertInto('adjustment_request').values({ ...row, status: 'Posted', quantity_change: 0 }).execute()).rejects.toThrow(/CHECK/);
    const indexes = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'adjustment_request' AND sql IS NOT NULL ORDER BY name`.execute(db);
    expect(indexes.rows.map((r) => r.name)).toEqual(['adjustment_request_scope', 'adjustment_request_status']);
    await db.destroy();
  });
});
