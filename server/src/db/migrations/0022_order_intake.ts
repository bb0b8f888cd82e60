import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Order intake (issue 12 items 1, 2, 7): a Transfer's destination warehouse, the expected receiving order a
 * Transfer or Purchase order made, and the files kept with an order (order_document → stored_file; a file may be
 * kept with several orders of one upload, so it goes with its last link).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema.alterTable('sales_order').addColumn('to_warehouse_id', 'integer', (c) => c.references('warehouse.id')).execute();
  await db.schema.alterTable('sales_order').addColumn('receiving_order_id', 'integer', (c) => c.references('receiving_order.id')).execute();

  await db.schema.createTable('order_document')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
    .addColumn('uploaded_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('order_document_order').on('order_document').columns(['order_id', 'id']).execute();
  await db.schema.createIndex('order_document_file').on('order_document').columns(['file_id']).execute();
}
