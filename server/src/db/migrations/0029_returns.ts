import { sql, type Kysely } from 'kysely';
import { RETURN_CONDITIONS, RETURN_DISPOSITIONS, RETURN_REASONS, RMA_RESOLUTIONS, RMA_STATUSES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

/**
 * Returns (issue 15): return authorisations (rma) against a shipped order with their lines (an order line's units,
 * the reason, the condition expected); the units that came back (return_item: received into a returns location,
 * inspected, disposed — with or without an RMA) and their inspection photos (stored files).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

  await db.schema.createTable('rma')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('rma_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Authorised').check(sql`status IN (${list(RMA_STATUSES)})`))
    .addColumn('resolution', 'varchar(16)', (c) => c.notNull().check(sql`resolution IN (${list(RMA_RESOLUTIONS)})`))
    .addColumn('expires_on', 'varchar(10)', (c) => c.notNull())
    .addColumn('tracking_number', 'varchar(64)')
    .addColumn('carrier', 'varchar(64)')
    .addColumn('notes', 'text')
    .addColumn('created_via', 'varchar(8)', (c) => c.notNull().defaultTo('screen').check(sql`created_via IN ('screen', 'api')`))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('rma_warehouse_customer').on('rma').columns(['warehouse_id', 'customer_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('rma_order').on('rma').columns(['order_id']).execute();
  await db.schema.createIndex('rma_status_expiry').on('rma').columns(['status', 'expires_on']).execute();
  await db.schema.createIndex('rma_tracking').on('rma').columns(['tracking_number']).execute();

  await db.schema.createTable('rma_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('rma_id', 'integer', (c) => c.notNull().references('rma.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('sales_order_line.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('received_qty', 'integer', (c) => c.notNull().defaultTo(0).check(sql`received_qty >= 0`))
    .addColumn('reason', 'varchar(24)', (c) => c.notNull().check(sql`reason IN (${list(RETURN_REASONS)})`))
    .addColumn('expected_condition', 'varchar(16)', (c) => c.notNull().check(sql`expected_condition IN (${list(RETURN_CONDITIONS)})`))
    .addColumn('notes', 'text')
    .addUniqueConstraint('rma_line_order_line', ['rma_id', 'order_line_id'])
    .execute();
  await db.schema.createIndex('rma_line_order_line_id').on('rma_line').columns(['order_line_id']).execute();

  await db.schema.createTable('return_item')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('rma_id', 'integer', (c) => c.references('rma.id'))
    .addColumn('rma_line_id', 'integer', (c) => c.references('rma_line.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('order_id', 'integer', (c) => c.references('sales_order.id'))
    .addColumn('order_line_id', 'integer', (c) => c.references('sales_order_line.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('reason', 'varchar(24)', (c) => c.notNull().check(sql`reason IN (${list(RETURN_REASONS)})`))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('business_day', 'varchar(10)', (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .addColumn('received_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('condition', 'varchar(16)', (c) => c.check(sql`condition IN (${list(RETURN_CONDITIONS)})`))
    .addColumn('notes', 'text')
    .addColumn('inspected_at', ts)
    .addColumn('disposition', 'varchar(16)', (c) => c.check(sql`disposition IN (${list(RETURN_DISPOSITIONS)})`))
    .addColumn('disposition_location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('disposition_reason', 'varchar(200)')
    .addColumn('disposed_at', ts)
    .execute();
  await db.schema.createIndex('return_item_rma').on('return_item').columns(['rma_id', 'id']).execute();
  await db.schema.createIndex('return_item_day').on('return_item').columns(['warehouse_id', 'business_day', 'customer_id']).execute();
  await db.schema.createIndex('return_item_order_line').on('return_item').columns(['order_line_id']).execute();

  await db.schema.createTable('return_photo')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('return_item_id', 'integer', (c) => c.notNull().references('return_item.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
    .addColumn('uploaded_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('return_photo_item').on('return_photo').columns(['return_item_id']).execute();
}
