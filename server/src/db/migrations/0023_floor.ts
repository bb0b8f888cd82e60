import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { widenStockVocabularies } from '../stock-vocabularies.js';

/**
 * The floor (issue 13): saved batch-allocation rules, waves cut into pick jobs with their tasks (one order line's
 * units at one place) and totes, carton types and cartons, ship dates, and the floor events labour and billing
 * read. Totes are locations of type `tote`: scanned, counted and reconciled like any other place. The ledger grows
 * the pick/pack/ship types (contracts/src/stock.ts).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));
  await widenStockVocabularies(db, d);

  await db.insertInto('location_type').values({ code: 'tote', name: 'Tote', category: 'other', sort: 9 }).execute();

  await db.schema.createTable('batch_rule')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('criteria', 'text', (c) => c.notNull())
    .addColumn('last_run_at', ts)
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('batch_rule_name', ['warehouse_id', 'name'])
    .execute();

  await db.schema.createTable('wave')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('wave_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('strategy', 'varchar(16)', (c) => c.notNull().check(sql`strategy IN (${list(['discrete', 'cluster', 'zone'])})`))
    .addColumn('totes_per_job', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open').check(sql`status IN (${list(['Open', 'In Progress', 'Done', 'Cancelled'])})`))
    .addColumn('rule_id', 'integer', (c) => c.references('batch_rule.id'))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('wave_warehouse_created').on('wave').columns(['warehouse_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('wave_status').on('wave').columns(['status', 'warehouse_id']).execute();

  await db.schema.createTable('pick_job')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('job_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('wave_id', 'integer', (c) => c.notNull().references('wave.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('strategy', 'varchar(16)', (c) => c.notNull())
    .addColumn('zone', 'varchar(16)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open')
      .check(sql`status IN (${list(['Open', 'Assigned', 'In Progress', 'Short', 'Done', 'Cancelled'])})`))
    .addColumn('assigned_to', 'integer', (c) => c.references('app_user.id'))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('pick_job_wave').on('pick_job').columns(['wave_id', 'id']).execute();
  await db.schema.createIndex('pick_job_queue').on('pick_job').columns(['warehouse_id', 'status', 'priority', 'id']).execute();
  await db.schema.createIndex('pick_job_assignee').on('pick_job').columns(['assigned_to', 'status']).execute();

  // One order per slot of a job; its tote is a location of type tote (NULL until scanned).
  await db.schema.createTable('pick_job_order')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('pick_job.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addColumn('slot', 'integer', (c) => c.notNull().check(sql`slot >= 1`))
    .addColumn('tote_location_id', 'integer', (c) => c.references('location.id'))
    .addUniqueConstraint('pick_job_order_slot', ['job_id', 'slot'])
    .execute();
  await db.schema.createIndex('pick_job_order_order').on('pick_job_order').columns(['order_id']).execute();
  await db.schema.createIndex('pick_job_order_tote').on('pick_job_order').columns(['tote_location_id']).execute();

  // One task: an order line's units to take from one balance's place; stops are tasks grouped by seq.
  await db.schema.createTable('pick_task')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('pick_job.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('sales_order_line.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('picked_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('short_qty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open').check(sql`status IN (${list(['Open', 'Picked', 'Short'])})`))
    .addCheckConstraint('pick_task_done', sql`picked_qty >= 0 AND short_qty >= 0 AND picked_qty + short_qty <= quantity`)
    .execute();
  await db.schema.createIndex('pick_task_job_seq').on('pick_task').columns(['job_id', 'seq', 'id']).execute();
  await db.schema.createIndex('pick_task_line').on('pick_task').columns(['order_line_id']).execute();

  await db.schema.alterTable('sales_order').addColumn('wave_id', 'integer', (c) => c.references('wave.id')).execute();
  await db.schema.alterTable('sales_order').addColumn('ship_date', 'varchar(10)').execute();
  await db.schema.alterTable('sales_order').addColumn('shipped_at', ts).execute();
  // The order a partial shipment's remainder was taken into (customer allows backorders).
  await db.schema.alterTable('sales_order').addColumn('backorder_of_id', 'integer', (c) => c.references('sales_order.id')).execute();
  await db.schema.alterTable('sales_order_line').addColumn('picked_qty', 'integer', (c) => c.notNull().defaultTo(0).check(sql`picked_qty >= 0`)).execute();
  await db.schema.alterTable('sales_order_line').addColumn('packed_qty', 'integer', (c) => c.notNull().defaultTo(0).check(sql`packed_qty >= 0`)).execute();
  await db.schema.createIndex('sales_order_wave').on('sales_order').columns(['wave_id']).execute();

  await db.schema.createTable('carton_type')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('code', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('length_cm', 'real', (c) => c.notNull())
    .addColumn('width_cm', 'real', (c) => c.notNull())
    .addColumn('height_cm', 'real', (c) => c.notNull())
    .addColumn('tare_weight_kg', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('max_weight_kg', 'real')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('carton_type_code', ['warehouse_id', 'code'])
    .execute();

  await db.schema.createTable('carton')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('carton_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('carton_type_id', 'integer', (c) => c.notNull().references('carton_type.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open').check(sql`status IN ('Open', 'Closed')`))
    .addColumn('length_cm', 'real', (c) => c.notNull())
    .addColumn('width_cm', 'real', (c) => c.notNull())
    .addColumn('height_cm', 'real', (c) => c.notNull())
    .addColumn('weight_kg', 'real')
    // Where the carton's stock waits for the truck (a staging or dock location), set when it is closed.
    .addColumn('location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('tracking_number', 'varchar(64)')
    .addColumn('packed_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('closed_at', ts)
    .execute();
  await db.schema.createIndex('carton_order').on('carton').columns(['order_id', 'id']).execute();

  await db.schema.createTable('carton_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('carton_id', 'integer', (c) => c.notNull().references('carton.id'))
    .addColumn('order_line_id', 'integer', (c) => c.notNull().references('sales_order_line.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addUniqueConstraint('carton_line_item', ['carton_id', 'order_line_id', 'lot'])
    .execute();

  // Every floor step: who, when (at_ms: epoch milliseconds, so the gap to the user's previous event is arithmetic on both engines), where, what.
  await db.schema.createTable('floor_event')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull()
      .check(sql`kind IN (${list(['pick', 'short', 'unpick', 'pack', 'unpack', 'close-carton', 'ship'])})`))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id'))
    .addColumn('job_id', 'integer', (c) => c.references('pick_job.id'))
    .addColumn('task_id', 'integer', (c) => c.references('pick_task.id'))
    .addColumn('order_id', 'integer', (c) => c.references('sales_order.id'))
    .addColumn('order_line_id', 'integer', (c) => c.references('sales_order_line.id'))
    .addColumn('carton_id', 'integer', (c) => c.references('carton.id'))
    .addColumn('sku_id', 'integer', (c) => c.references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('at', ts, (c) => c.notNull())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('business_day', 'varchar(10)', (c) => c.notNull())
    .addColumn('seconds_since_previous', 'integer')
    .execute();
  await db.schema.createIndex('floor_event_user').on('floor_event').columns(['user_id', 'at_ms']).execute();
  await db.schema.createIndex('floor_event_day').on('floor_event').columns(['warehouse_id', 'business_day', 'kind']).execute();
  await db.schema.createIndex('floor_event_customer_day').on('floor_event').columns(['customer_id', 'business_day', 'kind']).execute();
  await db.schema.createIndex('floor_event_job').on('floor_event').columns(['job_id', 'id']).execute();
}
