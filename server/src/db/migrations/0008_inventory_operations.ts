import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Inventory operations: adjustment requests awaiting approval, cycle counts (lines and the locations they
 * hold), replenishment rules and tasks, the balance's received date for aging, and the indexes behind the
 * expiry, pallet and as-of reports.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  // When stock first arrived at a place (carried along by moves), for the aging report. Older rows use updated_at.
  await db.schema.alterTable('inventory_balance').addColumn('received_at', ts).execute();
  await db.updateTable('inventory_balance').set({ received_at: sql`updated_at` }).execute();
  await db.schema.createIndex('inventory_balance_expiry').on('inventory_balance').columns(['customer_id', 'expiry_date']).execute();
  await db.schema.createIndex('inventory_balance_pallet').on('inventory_balance').columns(['warehouse_id', 'pallet']).execute();
  await db.schema.createIndex('inventory_balance_warehouse_sku').on('inventory_balance').columns(['warehouse_id', 'sku_id', 'location_id']).execute();
  // Stock as of a past date is today's balance less the ledger rows since: a range scan on the time.
  await db.schema.createIndex('inventory_txn_at').on('inventory_txn').columns(['at']).execute();

  await db.schema.createTable('adjustment_request')
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
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('Pending', 'Approved', 'Rejected')`))
    .addColumn('requested_by', 'integer')
    .addColumn('requested_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', ts)
    .addColumn('decision_note', 'varchar(255)')
    .addColumn('document_id', 'varchar(64)')
    .execute();
  await db.schema.createIndex('adjustment_request_scope').on('adjustment_request').columns(['warehouse_id', 'customer_id', 'status', 'requested_at']).execute();
  await db.schema.createIndex('adjustment_request_status').on('adjustment_request').columns(['status', 'requested_at']).execute();

  await db.schema.createTable('cycle_count')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('count_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('count_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('selection', 'varchar(16)', (c) => c.notNull())
    .addColumn('location_from', 'varchar(64)')
    .addColumn('location_to', 'varchar(64)')
    .addColumn('sku_id', 'integer')
    .addColumn('abc_class', 'varchar(1)')
    .addColumn('is_blind', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('Open', 'Recount', 'Counted', 'Approved', 'Cancelled')`))
    .addColumn('count_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('note', 'varchar(255)')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('approved_by', 'integer')
    .addColumn('approved_at', ts)
    .addColumn('document_id', 'varchar(64)')
    .execute();
  await db.schema.createIndex('cycle_count_scope').on('cycle_count').columns(['warehouse_id', 'customer_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('cycle_count_created').on('cycle_count').columns(['created_at', 'id']).execute();

  await db.schema.createTable('cycle_count_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('cycle_count_id', 'integer', (c) => c.notNull().references('cycle_count.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('expected_qty', 'integer', (c) => c.notNull())
    .addColumn('counted_qty', 'integer', (c) => c.check(sql`counted_qty >= 0`))
    .addColumn('counted_by', 'integer')
    .addColumn('counted_at', ts)
    .addColumn('needs_recount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recount_qty', 'integer', (c) => c.check(sql`recount_qty >= 0`))
    .addColumn('recounted_by', 'integer')
    .addColumn('recounted_at', ts)
    .addUniqueConstraint('cycle_count_line_place', ['cycle_count_id', 'sku_id', 'location_id', 'lot', 'pallet'])
    .execute();

  await db.schema.createIndex('cycle_count_line_customer_location').on('cycle_count_line').columns(['customer_id', 'location_id']).execute();

  // The locations an open count holds, per customer: moves and adjustments out of them wait for the count.
  await db.schema.createTable('cycle_count_location')
    .addColumn('cycle_count_id', 'integer', (c) => c.notNull().references('cycle_count.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('is_open', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('cycle_count_location_pk', ['cycle_count_id', 'location_id'])
    .execute();
  await db.schema.createIndex('cycle_count_location_hold').on('cycle_count_location').columns(['location_id', 'customer_id', 'is_open']).execute();

  await db.schema.createTable('replenishment_rule')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('min_qty', 'integer', (c) => c.notNull().check(sql`min_qty >= 0`))
    .addColumn('max_qty', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('replenishment_rule_min_max', sql`max_qty > min_qty`)
    .addUniqueConstraint('replenishment_rule_place', ['warehouse_id', 'sku_id', 'location_id'])
    .execute();
  await db.schema.createIndex('replenishment_rule_scope').on('replenishment_rule').columns(['warehouse_id', 'customer_id', 'is_active']).execute();

  await db.schema.createTable('replenishment_task')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('replenishment_rule.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull())
    .addColumn('from_location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('to_location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('moved_qty', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().check(sql`status IN ('Open', 'Completed', 'Cancelled')`))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('completed_by', 'integer')
    .addColumn('completed_at', ts)
    .addColumn('document_id', 'varchar(64)')
    .execute();
  // One open task per rule: two generators running at once cannot both create one.
  await sql`CREATE UNIQUE INDEX replenishment_task_open_rule ON replenishment_task (rule_id) WHERE status = 'Open'`.execute(db);
  await db.schema.createIndex('replenishment_task_scope').on('replenishment_task').columns(['warehouse_id', 'customer_id', 'status', 'created_at']).execute();
}
