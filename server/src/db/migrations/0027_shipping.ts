import { sql, type Kysely } from 'kysely';
import { SHIPMENT_KINDS, SHIPMENT_STATUSES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

/**
 * Parcel shipping (issue 14): a carrier account's rate table (its definition as JSON, contracts'
 * rateTableDefinition), the shipment document (one per order while not cancelled; kind order | manual | return so
 * returns' manual shipping and return labels use it too), a package per carton with its SSCC, tracking number and
 * charge, and the end-of-day manifest per carrier account that closes (locks) its shipments.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

  await db.schema.createTable('carrier_rate_table')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('carrier_account_id', 'integer', (c) => c.notNull().unique().references('customer_integration.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema.createTable('manifest')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('manifest_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('carrier_account_id', 'integer', (c) => c.notNull().references('customer_integration.id'))
    .addColumn('business_day', 'varchar(10)', (c) => c.notNull())
    .addColumn('shipment_count', 'integer', (c) => c.notNull())
    .addColumn('package_count', 'integer', (c) => c.notNull())
    .addColumn('total_weight_kg', 'real', (c) => c.notNull())
    .addColumn('total_charge_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('closed_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('closed_by_name', 'varchar(100)')
    .addColumn('closed_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('manifest_warehouse_closed').on('manifest').columns(['warehouse_id', 'closed_at', 'id']).execute();

  await db.schema.createTable('shipment')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('shipment_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull().check(sql`kind IN (${list(SHIPMENT_KINDS)})`))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('order_id', 'integer', (c) => c.references('sales_order.id'))
    .addColumn('carrier_account_id', 'integer', (c) => c.references('customer_integration.id'))
    .addColumn('adapter', 'varchar(32)')
    .addColumn('service_code', 'varchar(32)')
    .addColumn('service_name', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open').check(sql`status IN (${list(SHIPMENT_STATUSES)})`))
    .addColumn('residential', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reference', 'varchar(100)')
    .addColumn('ship_to_name', 'varchar(150)')
    .addColumn('ship_to_address1', 'varchar(200)')
    .addColumn('ship_to_address2', 'varchar(200)')
    .addColumn('ship_to_city', 'varchar(100)')
    .addColumn('ship_to_state', 'varchar(100)')
    .addColumn('ship_to_zip', 'varchar(20)')
    .addColumn('ship_to_country', 'varchar(100)')
    .addColumn('rate_minor', 'integer', (c) => c.check(sql`rate_minor >= 0`))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('rate_reason', 'varchar(255)')
    .addColumn('exception', 'varchar(255)')
    .addColumn('ship_day', 'varchar(10)')
    .addColumn('manifest_id', 'integer', (c) => c.references('manifest.id'))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('labelled_at', ts)
    .addColumn('shipped_at', ts)
    .addColumn('closed_at', ts)
    .execute();
  // One live shipment per order: a cancelled one leaves room for the next.
  await sql`CREATE UNIQUE INDEX shipment_order_live ON shipment (order_id) WHERE order_id IS NOT NULL AND status <> 'Cancelled'`.execute(db);
  await db.schema.createIndex('shipment_warehouse_status').on('shipment').columns(['warehouse_id', 'status', 'carrier_account_id']).execute();
  await db.schema.createIndex('shipment_warehouse_day').on('shipment').columns(['warehouse_id', 'ship_day', 'id']).execute();
  await db.schema.createIndex('shipment_customer_created').on('shipment').columns(['customer_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('shipment_manifest').on('shipment').columns(['manifest_id']).execute();

  await db.schema.createTable('shipment_package')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('shipment.id'))
    .addColumn('package_no', 'integer', (c) => c.notNull().check(sql`package_no >= 1`))
    .addColumn('carton_id', 'integer', (c) => c.references('carton.id'))
    .addColumn('sscc', 'varchar(18)')
    .addColumn('tracking_number', 'varchar(64)')
    .addColumn('weight_kg', 'real')
    .addColumn('length_cm', 'real')
    .addColumn('width_cm', 'real')
    .addColumn('height_cm', 'real')
    .addColumn('billed_kg', 'real')
    .addColumn('charge_minor', 'integer', (c) => c.check(sql`charge_minor >= 0`))
    .addColumn('voided', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('voided_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('shipment_package_shipment').on('shipment_package').columns(['shipment_id', 'voided', 'package_no']).execute();
  await db.schema.createIndex('shipment_package_tracking').on('shipment_package').columns(['tracking_number']).execute();
  // An SSCC is never printed twice.
  await sql`CREATE UNIQUE INDEX shipment_package_sscc ON shipment_package (sscc) WHERE sscc IS NOT NULL`.execute(db);
}
