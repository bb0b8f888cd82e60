import { sql, type Kysely } from 'kysely';
import { FREIGHT_CHARGE_TERMS, FREIGHT_STATUSES, NMFC_CLASSES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * LTL freight (issue 14 items 6–7): a freight shipment of one customer's orders from one warehouse (consignee,
 * third-party bill-to, carrier by name and SCAC, PRO number unique per SCAC, trailer, seal, charge terms, COD,
 * declared value, pickup appointment, proof of delivery), the orders it carries, and its handling units (pallets)
 * with their NMFC class, item, hazmat and SSCC. The NMFC density scale is data in contracts (NMFC_DENSITY_SCALES).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const address = (t: any, prefix: string, required: boolean) => {
    const req = (c: any) => (required ? c.notNull() : c);
    return t
      .addColumn(`${prefix}_name`, 'varchar(100)', req)
      .addColumn(`${prefix}_address1`, 'varchar(200)', req)
      .addColumn(`${prefix}_address2`, 'varchar(200)')
      .addColumn(`${prefix}_city`, 'varchar(100)', req)
      .addColumn(`${prefix}_state`, 'varchar(50)', req)
      .addColumn(`${prefix}_zip`, 'varchar(20)', req)
      .addColumn(`${prefix}_country`, 'varchar(2)', req)
      .addColumn(`${prefix}_phone`, 'varchar(40)')
      .addColumn(`${prefix}_location_number`, 'varchar(30)');
  };
  let shipment = db.schema.createTable('freight_shipment')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('ship_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('bol_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Planned').check(sql`status IN (${list(FREIGHT_STATUSES)})`));
  shipment = address(shipment, 'consignee', true);
  shipment = address(shipment, 'bill_to', false);
  await shipment
    .addColumn('carrier_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('scac', 'varchar(4)', (c) => c.notNull())
    .addColumn('pro_number', 'varchar(20)')
    .addColumn('trailer_number', 'varchar(30)')
    .addColumn('seal_number', 'varchar(60)')
    .addColumn('charge_terms', 'varchar(16)', (c) => c.notNull().check(sql`charge_terms IN (${list(FREIGHT_CHARGE_TERMS)})`))
    .addColumn('cod_amount_minor', 'bigint', (c) => c.check(sql`cod_amount_minor >= 0`))
    .addColumn('declared_value_minor', 'bigint', (c) => c.check(sql`declared_value_minor >= 0`))
    .addColumn('declared_value_per', 'varchar(30)')
    .addColumn('special_instructions', 'varchar(1000)')
    .addColumn('pickup_date', 'varchar(10)')
    .addColumn('pickup_window_from', 'varchar(5)')
    .addColumn('pickup_window_to', 'varchar(5)')
    .addColumn('dock_door', 'varchar(30)')
    .addColumn('picked_up_at', ts)
    .addColumn('delivered_at', ts)
    .addColumn('pod_file_id', 'integer', (c) => c.references('stored_file.id'))
    .addColumn('pod_signed_by', 'varchar(100)')
    .addColumn('pod_signed_at', ts)
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    // A carrier never issues one PRO number twice: the pair is unique (NULLs, a shipment not yet booked, are distinct).
    .addUniqueConstraint('freight_shipment_pro', ['scac', 'pro_number'])
    .execute();
  // The dashboard's list: a warehouse's (a client's) shipments by status, newest first.
  await db.schema.createIndex('freight_shipment_warehouse').on('freight_shipment').columns(['warehouse_id', 'status', 'id']).execute();
  await db.schema.createIndex('freight_shipment_customer').on('freight_shipment').columns(['customer_id', 'status', 'id']).execute();

  await db.schema.createTable('freight_shipment_order')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('freight_shipment.id'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('sales_order.id'))
    .addUniqueConstraint('freight_shipment_order_pair', ['shipment_id', 'order_id'])
    .execute();
  await db.schema.createIndex('freight_shipment_order_order').on('freight_shipment_order').columns(['order_id']).execute();

  await db.schema.createTable('freight_handling_unit')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('freight_shipment.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('sales_order.id'))
    .addColumn('handling_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('handling_qty', 'integer', (c) => c.notNull().check(sql`handling_qty > 0`))
    .addColumn('package_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('pieces', 'integer', (c) => c.notNull().check(sql`pieces > 0`))
    .addColumn('weight_kg', 'real', (c) => c.notNull().check(sql`weight_kg > 0`))
    .addColumn('length_cm', 'real', (c) => c.notNull())
    .addColumn('width_cm', 'real', (c) => c.notNull())
    .addColumn('height_cm', 'real', (c) => c.notNull())
    .addColumn('freight_class', 'varchar(5)', (c) => c.notNull().check(sql`freight_class IN (${list(NMFC_CLASSES)})`))
    .addColumn('nmfc_item', 'varchar(16)')
    .addColumn('description', 'varchar(200)', (c) => c.notNull())
    .addColumn('hazmat', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('un_number', 'varchar(6)')
    .addColumn('sscc', 'varchar(18)', (c) => c.unique())
    .execute();
  await db.schema.createIndex('freight_handling_unit_shipment').on('freight_handling_unit').columns(['shipment_id', 'line_no']).execute();
}
