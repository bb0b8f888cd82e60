import { sql, type Kysely } from 'kysely';
import { STOCK_DOCUMENT_TYPES, STOCK_TXN_TYPES, WORK_ORDER_STATUSES, WORK_ORDER_TYPES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * Kit work orders (issue 12 item 5): the header (type, kit SKU, quantity, where kits are put or taken from) and its
 * components as they were when it was made (a later change to the kit's components leaves an open one as it was).
 * The stock vocabularies gain the work order ('WO') and its ledger types (kit_consume, kit_produce).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  await db.schema.createTable('kit_work_order')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('wo_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().check(sql`type IN (${list(WORK_ORDER_TYPES)})`))
    .addColumn('kit_sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('component_location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open').check(sql`status IN (${list(WORK_ORDER_STATUSES)})`))
    .addColumn('notes', 'varchar(500)')
    .addColumn('order_line_id', 'integer', (c) => c.references('sales_order_line.id'))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('completed_at', ts)
    .execute();
  // The dashboard's list: a warehouse's (a client's) work orders by status, newest first; a kit's work orders.
  await db.schema.createIndex('kit_work_order_warehouse').on('kit_work_order').columns(['warehouse_id', 'status', 'id']).execute();
  await db.schema.createIndex('kit_work_order_customer').on('kit_work_order').columns(['customer_id', 'status', 'id']).execute();
  await db.schema.createIndex('kit_work_order_kit').on('kit_work_order').columns(['kit_sku_id', 'status']).execute();

  await db.schema.createTable('kit_work_order_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('work_order_id', 'integer', (c) => c.notNull().references('kit_work_order.id'))
    .addColumn('component_sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('per_kit', 'integer', (c) => c.notNull().check(sql`per_kit > 0`))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addUniqueConstraint('kit_work_order_line_component', ['work_order_id', 'component_sku_id'])
    .execute();

  await widenStockVocabularies(db, d);
}

/**
 * Makes the database accept today's stock vocabularies (contracts/src/stock.ts) on a database migrated before
 * they grew: migration 0014 wrote the lists of its day into CHECKs (PostgreSQL), triggers (SQLite) and the
 * reservation table's column CHECK. Idempotent; a later migration that grows a list calls it again.
 */
export async function widenStockVocabularies(db: Kysely<any>, d: Dialect) {
  if (d.engine === 'postgres') {
    await sql`ALTER TABLE inventory_txn DROP CONSTRAINT IF EXISTS inventory_txn_txn_type`.execute(db);
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_txn_type CHECK (txn_type IN (${list(STOCK_TXN_TYPES)}))`.execute(db);
    await sql`ALTER TABLE inventory_txn DROP CONSTRAINT IF EXISTS inventory_txn_document_type`.execute(db);
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_document_type CHECK (document_type IS NOT NULL AND document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
    await sql`ALTER TABLE stock_reservation DROP CONSTRAINT IF EXISTS stock_reservation_document_type_check`.execute(db);
    await sql`ALTER TABLE stock_reservation ADD CONSTRAINT stock_reservation_document_type_check CHECK (document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
    return;
  }
  for (const event of ['INSERT', 'UPDATE']) {
    await sql.raw(`DROP TRIGGER IF EXISTS inventory_txn_types_${event.toLowerCase()}`).execute(db);
    await sql.raw(`CREATE TRIGGER inventory_txn_types_${event.toLowerCase()} BEFORE ${event} ON inventory_txn
      WHEN NEW.txn_type NOT IN (${STOCK_TXN_TYPES.map((v) => `'${v}'`).join(', ')})
        OR NEW.document_type IS NULL OR NEW.document_type NOT IN (${STOCK_DOCUMENT_TYPES.map((v) => `'${v}'`).join(', ')})
      BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: inventory_txn type'); END`).execute(db);
  }
  // SQLite cannot change a column's CHECK: the reservation table is rebuilt from its own definition with today's list.
  const table = (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'stock_reservation'`.execute(db)).rows[0];
  const widened = table.sql.replace(/"?document_type"? varchar\(32\) not null check \(document_type IN \([^)]*\)\)/i,
    `"document_type" varchar(32) not null check (document_type IN (${STOCK_DOCUMENT_TYPES.map((v) => `'${v}'`).join(', ')}))`);
  if (widened === table.sql) {
    if (!STOCK_DOCUMENT_TYPES.every((v) => table.sql.includes(`'${v}'`))) throw new Error('stock_reservation: its document_type CHECK was not found');
    return;
  }
  const indexes = (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stock_reservation' AND sql IS NOT NULL`.execute(db)).rows;
  await sql.raw(widened.replace(/^CREATE TABLE "?stock_reservation"?/i, 'CREATE TABLE "stock_reservation_widened"')).execute(db);
  await sql`INSERT INTO stock_reservation_widened SELECT * FROM stock_reservation`.execute(db);
  await sql`DROP TABLE stock_reservation`.execute(db);
  await sql`ALTER TABLE stock_reservation_widened RENAME TO stock_reservation`.execute(db);
  for (const index of indexes) await sql.raw(index.sql).execute(db);
}
