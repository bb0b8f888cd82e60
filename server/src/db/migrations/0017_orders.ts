import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Outbound orders: the order header and its lines. The customer's reference is unique per customer (the intake
 * answers the existing order on a repeat; the index decides under concurrency). Indexes serve the order list's
 * filters and sorts (warehouse/customer scope, status, order date, priority) and the status counts.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));
  const STATUSES = ['New', 'Allocated', 'Partially Allocated', 'Backordered', 'On Hold', 'Released', 'Picking', 'Picked', 'Packed', 'Shipped', 'Cancelled'];

  await db.schema.createTable('sales_order')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('so_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('order_type', 'varchar(16)', (c) => c.notNull().check(sql`order_type IN (${list(['Purchase', 'Sales', 'Transfer'])})`))
    .addColumn('reference_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('order_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('requested_ship_date', 'varchar(10)')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(5).check(sql`priority BETWEEN 1 AND 9`))
    .addColumn('ship_to_name', 'varchar(128)')
    .addColumn('ship_to_address1', 'varchar(255)')
    .addColumn('ship_to_address2', 'varchar(255)')
    .addColumn('ship_to_city', 'varchar(100)')
    .addColumn('ship_to_state', 'varchar(100)')
    .addColumn('ship_to_zip', 'varchar(20)')
    .addColumn('ship_to_country', 'varchar(100)')
    .addColumn('ship_to_phone', 'varchar(40)')
    .addColumn('ship_to_email', 'varchar(254)')
    .addColumn('carrier_account_id', 'integer', (c) => c.references('customer_integration.id'))
    .addColumn('carrier_service', 'varchar(64)')
    .addColumn('notes', 'varchar(1000)')
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('New').check(sql`status IN (${list(STATUSES)})`))
    .addColumn('source', 'varchar(16)', (c) => c.notNull().check(sql`source IN ('screen', 'upload', 'api')`))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // One order per customer reference: the intake's repeat check under any concurrency.
  await db.schema.createIndex('sales_order_reference').on('sales_order').columns(['customer_id', 'reference_number']).unique().execute();
  // The list: scoped by warehouse (and customer), newest first; by status (the counts and the status filter); by priority.
  await db.schema.createIndex('sales_order_warehouse_date').on('sales_order').columns(['warehouse_id', 'order_date', 'id']).execute();
  await db.schema.createIndex('sales_order_customer_date').on('sales_order').columns(['customer_id', 'order_date', 'id']).execute();
  await db.schema.createIndex('sales_order_status').on('sales_order').columns(['status', 'warehouse_id', 'customer_id']).execute();
  await db.schema.createIndex('sales_order_priority').on('sales_order').columns(['warehouse_id', 'priority', 'order_date']).execute();
  await db.schema.createIndex('sales_order_created').on('sales_order').columns(['created_at', 'id']).execute();

  await db.schema.createTable('sales_order_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('package_id', 'integer', (c) => c.references('sku_package.id'))
    .addColumn('units_per_package', 'integer', (c) => c.notNull().defaultTo(1).check(sql`units_per_package >= 1`))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('allocated_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shipped_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'varchar(255)')
    .addCheckConstraint('sales_order_line_whole_packages', sql`quantity % units_per_package = 0`)
    .addCheckConstraint('sales_order_line_allocated', sql`allocated_qty >= 0 AND allocated_qty <= quantity`)
    .addCheckConstraint('sales_order_line_shipped', sql`shipped_qty >= 0 AND shipped_qty <= quantity`)
    .addUniqueConstraint('sales_order_line_no', ['order_id', 'line_no'])
    .execute();
  // Backorders and allocation find a SKU's open lines.
  await db.schema.createIndex('sales_order_line_sku').on('sales_order_line').columns(['sku_id', 'order_id']).execute();
}
