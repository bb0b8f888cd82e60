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
import * as m0015 from './0015_documents_platform.js';

// Existing documents keep their numbers, and the sequences go on after them (RO, CC and ADJ were numbered by id).
describe('migration 0015', () => {
  it('starts each sequence after the documents that exist, and at 1 for a kind with none', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = OFF');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    const d = dialectFor('sqlite');
    for (const m of [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010]) await m.up(db, d);
    const at = '2026-11-01T00:00:00.000Z';
    await db.insertInto('receiving_order').values([7, 41].map((id) => ({
      id, ro_number: `RO-${String(id).padStart(6, '0')}`, warehouse_id: 1, customer_id: 2, supplier: 'S', reference_number: '', expected_date: '2026-11-02',
      status: 'Open', created_at: at, updated_at: at,
    }))).execute();
    await db.insertInto('adjustment_request').values({
      id: 12, warehouse_id: 1, customer_id: 2, sku_id: 3, location_id: 4, lot: '', pallet: '', quantity_change: 5, reason_code: 'FOUND', status: 'Posted',
      requested_at: at, document_id: 'ADJ-12',
    }).execute();

    await m0015.up(db, d);
    const rows = await db.selectFrom('document_sequence').selectAll().orderBy('kind').execute();
    expect(rows).toEqual([
      { kind: 'ADJ', scope: '', next_value: 13 }, { kind: 'CC', scope: '', next_value: 1 }, { kind: 'RO', scope: '', next_value: 42 },
    ]);
    const ro = await db.selectFrom('receiving_order').select('ro_number').orderBy('id').execute();
    expect(ro.map((r) => r.ro_number)).toEqual(['RO-000007', 'RO-000041']);
    await db.destroy();
  });
});
