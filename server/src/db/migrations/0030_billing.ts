import { sql, type Kysely } from 'kysely';
import { CHARGE_TYPE_KEYS } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

/**
 * 3PL billing (issue 16): a billing account per customer (currency, tax, terms), rate cards per customer and
 * warehouse in effective-dated versions, daily storage snapshots per warehouse and customer, charges (one per
 * source and charge type: the unique key that bills an event once however often runs repeat or overlap), and
 * invoices (drafts, finals, credit notes) with their lines.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

  await db.schema.createTable('billing_account')
    .addColumn('customer_id', 'integer', (c) => c.primaryKey().references('customer.id'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull().defaultTo(0).check(sql`tax_rate_bp BETWEEN 0 AND 10000`))
    .addColumn('payment_terms_days', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema.createTable('rate_card_version')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('version_no', 'integer', (c) => c.notNull())
    .addColumn('effective_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('effective_to', 'varchar(10)')
    .addColumn('notes', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('rate_card_version_from', ['customer_id', 'warehouse_id', 'effective_from'])
    .addUniqueConstraint('rate_card_version_no', ['customer_id', 'warehouse_id', 'version_no'])
    .execute();

  await db.schema.createTable('rate_card_rate')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('version_id', 'integer', (c) => c.notNull().references('rate_card_version.id'))
    .addColumn('charge_type', 'varchar(32)', (c) => c.notNull().check(sql`charge_type IN (${list(CHARGE_TYPE_KEYS)})`))
    .addColumn('qualifier', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('rate_minor', 'bigint', (c) => c.notNull().check(sql`rate_minor >= 0`))
    .addColumn('markup_bp', 'integer', (c) => c.notNull().defaultTo(0).check(sql`markup_bp >= 0`))
    .addUniqueConstraint('rate_card_rate_type', ['version_id', 'charge_type', 'qualifier'])
    .execute();

  // A warehouse's day snapshotted (live at its midnight, or rebuilt from the ledger later): each day once.
  await db.schema.createTable('storage_snapshot_day')
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('source', 'varchar(8)', (c) => c.notNull().check(sql`source IN ('live', 'rebuilt')`))
    .addColumn('taken_at', ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('storage_snapshot_day_pk', ['warehouse_id', 'day'])
    .execute();
  await db.schema.createTable('storage_snapshot')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('pallets', 'integer', (c) => c.notNull())
    .addColumn('volume_cm3', 'bigint', (c) => c.notNull())
    .addColumn('locations_json', 'text', (c) => c.notNull())
    .addUniqueConstraint('storage_snapshot_key', ['warehouse_id', 'customer_id', 'day'])
    .execute();
  await db.schema.createIndex('storage_snapshot_customer').on('storage_snapshot').columns(['customer_id', 'warehouse_id', 'day']).execute();

  await db.schema.createTable('invoice')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind IN ('invoice', 'credit_note')`))
    .addColumn('invoice_number', 'varchar(32)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Draft').check(sql`status IN ('Draft', 'Final', 'Discarded')`))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('period_kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('period_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('period_to', 'varchar(10)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subtotal_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('run_status', 'varchar(8)', (c) => c.notNull().defaultTo('done'))
    .addColumn('run_step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_job_id', 'integer')
    .addColumn('run_message', 'varchar(500)')
    .addColumn('unrated_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('credits_invoice_id', 'integer', (c) => c.references('invoice.id'))
    .addColumn('reason', 'varchar(200)')
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('finalized_at', ts)
    .addColumn('finalized_by', 'integer', (c) => c.references('app_user.id'))
    .addUniqueConstraint('invoice_number_key', ['kind', 'warehouse_id', 'invoice_number'])
    .execute();
  await db.schema.createIndex('invoice_customer_period').on('invoice').columns(['customer_id', 'warehouse_id', 'period_from']).execute();
  await db.schema.createIndex('invoice_status').on('invoice').columns(['status', 'warehouse_id']).execute();

  await db.schema.createTable('invoice_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoice.id'))
    .addColumn('charge_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('qualifier', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'varchar(200)', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('rate_minor', 'bigint')
    .addColumn('markup_bp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('is_manual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'varchar(200)')
    .addColumn('source_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_line_id', 'integer')
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('invoice_line_invoice').on('invoice_line').columns(['invoice_id', 'id']).execute();

  // One charge per source and charge type (charge_key names the source): the unique key is what bills it once.
  await db.schema.createTable('billing_charge')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('charge_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('qualifier', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('charge_key', 'varchar(160)', (c) => c.notNull())
    .addColumn('source_type', 'varchar(24)', (c) => c.notNull())
    .addColumn('source_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('source_doc', 'varchar(80)')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('rate_minor', 'bigint', (c) => c.notNull())
    .addColumn('markup_bp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('divisor', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('rate_version_id', 'integer', (c) => c.references('rate_card_version.id'))
    .addColumn('invoice_id', 'integer', (c) => c.references('invoice.id'))
    .addColumn('invoice_line_id', 'integer')
    .addColumn('reverses_charge_id', 'integer')
    .addColumn('description', 'varchar(200)')
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('billing_charge_key', ['customer_id', 'warehouse_id', 'charge_type', 'charge_key'])
    .execute();
  await db.schema.createIndex('billing_charge_invoice').on('billing_charge').columns(['invoice_id', 'invoice_line_id']).execute();
  await db.schema.createIndex('billing_charge_day').on('billing_charge').columns(['customer_id', 'warehouse_id', 'day']).execute();
  await db.schema.createIndex('billing_charge_doc').on('billing_charge').columns(['source_doc']).execute();
  await db.schema.createIndex('billing_charge_version').on('billing_charge').columns(['rate_version_id']).execute();

  // The run reads the ledger and the activity log by warehouse, customer and business day.
  await db.schema.createIndex('inventory_txn_billing').on('inventory_txn').columns(['warehouse_id', 'customer_id', 'business_day']).execute();
  await db.schema.createIndex('floor_event_billing').on('floor_event').columns(['warehouse_id', 'customer_id', 'business_day', 'kind']).execute();
}
