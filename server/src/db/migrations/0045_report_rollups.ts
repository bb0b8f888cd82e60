import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Reports over a year (issue 17) read per-day and per-shift sums instead of every floor event: a job adds the
 * events up to a mark (the last event id it read) to the sums; a report reads the sums plus the events after the
 * mark, so it stays exact between runs. Expand only: new tables and one index.
 * - report_rollup_mark: per rollup, the last floor_event id it holds.
 * - report_floor_day: the activity log per warehouse, client, user, task type and business day (steps, units,
 *   distinct order lines, seconds of work up to the idle gap) — the productivity reports' figures.
 * - report_labour_shift / report_labour_work: a closed shift's task seconds per task type and client from its
 *   events up to event_mark (a closed shift's breaks no longer change) — labour time and cost.
 * - floor_event_line: the events of an order line, so the events after a mark count a line the sums already hold once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.createTable('report_rollup_mark')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addColumn('taken_at', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createTable('report_floor_day')
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('business_day', 'varchar(10)', (c) => c.notNull())
    .addColumn('steps', 'bigint', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'bigint', (c) => c.notNull())
    .addColumn('seconds', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_floor_day_key').on('report_floor_day').columns(['warehouse_id', 'business_day', 'customer_id', 'user_id', 'kind']).unique().execute();
  await db.schema.createIndex('report_floor_day_customer').on('report_floor_day').columns(['customer_id', 'business_day']).execute();
  await db.schema.createTable('report_labour_shift')
    .addColumn('shift_id', 'integer', (c) => c.primaryKey().references('labour_shift.id'))
    .addColumn('event_mark', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createTable('report_labour_work')
    .addColumn('shift_id', 'integer', (c) => c.notNull().references('labour_shift.id'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('seconds', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_labour_work_shift').on('report_labour_work').columns(['shift_id', 'customer_id']).execute();
  await db.schema.createIndex('floor_event_line').on('floor_event').columns(['order_line_id', 'user_id']).execute();
}
