import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

const STATUSES = sql`status IN ('Posted', 'Pending', 'Approved', 'Rejected')`;

/**
 * Every adjustment is kept as a row: one within its customer's threshold is stored 'Posted' (with its ledger
 * document), so the adjustment list shows all of them, not only those that went through approval.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine === 'postgres') {
    // PostgreSQL names a column's CHECK {table}_{column}_check.
    await sql`ALTER TABLE adjustment_request DROP CONSTRAINT adjustment_request_status_check`.execute(db);
    await sql`ALTER TABLE adjustment_request ADD CONSTRAINT adjustment_request_status_check CHECK (${STATUSES})`.execute(db);
    return;
  }
  // SQLite cannot change a CHECK: the table is rebuilt with the same columns and ids, then its indexes.
  const ts = d.timestampType;
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema.createTable('adjustment_request_next')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('quantity_change', 'integer', (c) => c.notNull().check(sql`quantity_change <> 0`))
    .addColumn('reason_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('note', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(STATUSES))
    .addColumn('requested_by', 'integer')
    .addColumn('requested_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', ts)
    .addColumn('decision_note', 'varchar(255)')
    .addColumn('document_id', 'varchar(64)')
    .execute();
  await sql`INSERT INTO adjustment_request_next SELECT id, warehouse_id, customer_id, sku_id, location_id, lot, pallet, expiry_date,
    quantity_change, reason_code, note, status, requested_by, requested_at, decided_by, decided_at, decision_note, document_id
    FROM adjustment_request`.execute(db);
  await db.schema.dropTable('adjustment_request').execute();
  await db.schema.alterTable('adjustment_request_next').renameTo('adjustment_request').execute();
  await db.schema.createIndex('adjustment_request_scope').on('adjustment_request').columns(['warehouse_id', 'customer_id', 'status', 'requested_at']).execute();
  await db.schema.createIndex('adjustment_request_status').on('adjustment_request').columns(['status', 'requested_at']).execute();
}
