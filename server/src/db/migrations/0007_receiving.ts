import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Inbound: receiving orders, their lines, receipts at the dock, putaways and documents. */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema.createTable('receiving_order')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('ro_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('supplier', 'varchar(128)', (c) => c.notNull())
    .addColumn('reference_number', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expected_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('Open', 'Receiving', 'Received', 'Closed', 'Cancelled')`))
    .addColumn('notes', 'varchar(1000)')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('received_at', ts)
    .addColumn('finalized_at', ts)
    .addColumn('closed_at', ts)
    .addColumn('cancelled_at', ts)
    .execute();
  // The list's filters (warehouse, customer, status, expected date) and sorts.
  const orderIndexes: [string, string[]][] = [
    ['receiving_order_scope', ['warehouse_id', 'customer_id', 'status', 'expected_date']],
    ['receiving_order_customer', ['customer_id', 'expected_date']],
    ['receiving_order_expected', ['expected_date', 'id']],
    ['receiving_order_created', ['created_at', 'id']],
    ['receiving_order_supplier', ['supplier', 'id']],
  ];
  for (const [name, columns] of orderIndexes) await db.schema.createIndex(name).on('receiving_order').columns(columns).execute();

  await db.schema.createTable('receiving_order_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('receiving_order.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('expected_qty', 'integer', (c) => c.notNull())
    .addColumn('received_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('damaged_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('putaway_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'varchar(255)')
    .addUniqueConstraint('receiving_order_line_sku', ['order_id', 'sku_id'])
    .addCheckConstraint('receiving_line_quantities', sql`expected_qty >= 0 AND received_qty >= 0 AND damaged_qty >= 0`)
    .addCheckConstraint('receiving_line_putaway_within_received', sql`putaway_qty >= 0 AND putaway_qty <= received_qty`)
    .execute();
  await db.schema.createIndex('receiving_order_line_sku_id').on('receiving_order_line').columns(['sku_id']).execute();

  await db.schema.createTable('receiving_receipt')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('receiving_order.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('receiving_order_line.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 0`))
    .addColumn('damaged_qty', 'integer', (c) => c.notNull().check(sql`damaged_qty >= 0`))
    .addColumn('damaged_location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('document_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(128)')
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('receiving_receipt_order').on('receiving_receipt').columns(['order_id', 'id']).execute();
  await db.schema.createIndex('receiving_receipt_scope').on('receiving_receipt').columns(['warehouse_id', 'customer_id', 'at']).execute();
  await db.schema.createIndex('receiving_receipt_at').on('receiving_receipt').columns(['at', 'id']).execute();

  await db.schema.createTable('receiving_putaway')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('receiving_order.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('receiving_order_line.id'))
    .addColumn('from_location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('to_location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('document_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(128)')
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('receiving_putaway_order').on('receiving_putaway').columns(['order_id', 'id']).execute();

  await db.schema.createTable('receiving_order_document')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('receiving_order.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('receiving_order_document_order').on('receiving_order_document').columns(['order_id']).execute();
}
