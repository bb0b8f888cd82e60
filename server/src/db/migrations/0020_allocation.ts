import { sql, type Kysely } from 'kysely';
import { STOCK_DOCUMENT_TYPES, STOCK_TXN_TYPES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * Allocation (issue 12): why an order line holds less than it asks for (contracts' SHORT_REASONS; NULL when whole
 * or not yet allocated), and whether a customer lets short orders wait as Backordered (default) or stay Partially
 * Allocated. Orders reserve stock as document type SO: the ledger's and the reservations' document-type checks
 * are re-stated from the contracts' list (0014 wrote them from the list of its day).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('sales_order_line').addColumn('short_reason', 'varchar(32)').execute();
  await db.schema.alterTable('customer').addColumn('allow_backorders', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await restateDocumentTypes(db, d);
}

async function restateDocumentTypes(db: Kysely<any>, d: Dialect) {
  if (d.engine === 'postgres') {
    await sql`ALTER TABLE inventory_txn DROP CONSTRAINT IF EXISTS inventory_txn_document_type`.execute(db);
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_document_type CHECK (document_type IS NOT NULL AND document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
    await sql`ALTER TABLE stock_reservation DROP CONSTRAINT IF EXISTS stock_reservation_document_type_check`.execute(db);
    await sql`ALTER TABLE stock_reservation ADD CONSTRAINT stock_reservation_document_type CHECK (document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
    return;
  }
  // SQLite: the ledger's check is a trigger (re-created); the reservation's is in its table, so the table is rebuilt.
  for (const event of ['INSERT', 'UPDATE']) {
    await sql.raw(`DROP TRIGGER IF EXISTS inventory_txn_types_${event.toLowerCase()}`).execute(db);
    await sql.raw(`CREATE TRIGGER inventory_txn_types_${event.toLowerCase()} BEFORE ${event} ON inventory_txn
      WHEN NEW.txn_type NOT IN (${STOCK_TXN_TYPES.map((v) => `'${v}'`).join(', ')})
        OR NEW.document_type IS NULL OR NEW.document_type NOT IN (${STOCK_DOCUMENT_TYPES.map((v) => `'${v}'`).join(', ')})
      BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: inventory_txn type'); END`).execute(db);
  }
  await db.schema.createTable('stock_reservation_new')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('balance_id', 'integer', (c) => c.notNull().references('inventory_balance.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull())
    .addColumn('document_type', 'varchar(32)', (c) => c.notNull().check(sql`document_type IN (${list(STOCK_DOCUMENT_TYPES)})`))
    .addColumn('document_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('document_line', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 0`))
    .addColumn('created_at', d.timestampType, (c) => c.notNull())
    .addColumn('updated_at', d.timestampType, (c) => c.notNull())
    .addUniqueConstraint('stock_reservation_owner', ['document_type', 'document_id', 'document_line', 'balance_id'])
    .execute();
  await sql`INSERT INTO stock_reservation_new SELECT id, balance_id, warehouse_id, customer_id, sku_id, document_type, document_id, document_line,
    quantity, created_at, updated_at FROM stock_reservation`.execute(db);
  await db.schema.dropTable('stock_reservation').execute();
  await sql`ALTER TABLE stock_reservation_new RENAME TO stock_reservation`.execute(db);
  await db.schema.createIndex('stock_reservation_balance').on('stock_reservation').columns(['balance_id', 'quantity']).execute();
}
