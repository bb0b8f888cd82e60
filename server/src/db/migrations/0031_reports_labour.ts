import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Reports and labour (issue 17): saved report views; labour shifts (clock in/out per user and warehouse) and their
 * breaks; engineered standards per task type and warehouse; a client's labour rate. Indexes for the heavy report
 * queries: orders' status changes by kind, status and time (shipped/released per day), orders by requested ship date.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  await db.schema.createTable('report_view')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
    .addColumn('report', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_view_user').on('report_view').columns(['user_id', 'report', 'name']).unique().execute();

  await db.schema.createTable('labour_shift')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    // The business day of the clock-in in the warehouse's zone: a night shift belongs to the day it began.
    .addColumn('business_day', 'varchar(10)', (c) => c.notNull())
    .addColumn('clock_in', ts, (c) => c.notNull())
    .addColumn('clock_in_ms', 'bigint', (c) => c.notNull())
    .addColumn('clock_out', ts)
    .addColumn('clock_out_ms', 'bigint')
    .execute();
  await db.schema.createIndex('labour_shift_user').on('labour_shift').columns(['user_id', 'clock_in_ms']).execute();
  await db.schema.createIndex('labour_shift_day').on('labour_shift').columns(['warehouse_id', 'business_day']).execute();

  await db.schema.createTable('labour_break')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('shift_id', 'integer', (c) => c.notNull().references('labour_shift.id'))
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint')
    .execute();
  await db.schema.createIndex('labour_break_shift').on('labour_break').columns(['shift_id', 'start_ms']).execute();

  await db.schema.createTable('labour_standard')
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('units_per_hour', 'integer', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('labour_standard_pk', ['warehouse_id', 'kind'])
    .execute();

  await db.schema.createTable('labour_rate')
    .addColumn('customer_id', 'integer', (c) => c.primaryKey().references('customer.id'))
    .addColumn('rate_minor_per_hour', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema.createIndex('document_status_history_to').on('document_status_history').columns(['kind', 'to_status', 'at', 'document_id']).execute();
  await db.schema.createIndex('sales_order_warehouse_created').on('sales_order').columns(['warehouse_id', 'created_at']).execute();
}
