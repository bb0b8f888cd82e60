import { sql, type Kysely } from 'kysely';
import { WORK_ORDER_STATUSES, WORK_ORDER_TYPES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';
import { widenStockVocabularies } from '../stock-vocabularies.js';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * Kit work orders (issue 12 item 5): the header (type, kit SKU, quantity, where kits are put or taken from) and its
 * components as they were when it was made (a later change to the kit's components leaves an open one as it was).
 * The stock vocabularies gain the work order ('WO') and its ledger types (kit_consume, kit_produce).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  await db.schema.createTable('kit_work_order')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('wo_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().check(sql`type IN (${list(WORK_ORDER_TYPES)})`))
    .addColumn('kit_sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('component_location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('Open').check(sql`status IN (${list(WORK_ORDER_STATUSES)})`))
    .addColumn('notes', 'varchar(500)')
    .addColumn('order_line_id', 'integer', (c) => c.references('sales_order_line.id'))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('completed_at', ts)
    .execute();
  // The dashboard's list: a warehouse's (a client's) work orders by status, newest first; a kit's work orders.
  await db.schema.createIndex('kit_work_order_warehouse').on('kit_work_order').columns(['warehouse_id', 'status', 'id']).execute();
  await db.schema.createIndex('kit_work_order_customer').on('kit_work_order').columns(['customer_id', 'status', 'id']).execute();
  await db.schema.createIndex('kit_work_order_kit').on('kit_work_order').columns(['kit_sku_id', 'status']).execute();

  await db.schema.createTable('kit_work_order_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('work_order_id', 'integer', (c) => c.notNull().references('kit_work_order.id'))
    .addColumn('component_sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('per_kit', 'integer', (c) => c.notNull().check(sql`per_kit > 0`))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addUniqueConstraint('kit_work_order_line_component', ['work_order_id', 'component_sku_id'])
    .execute();

  await widenStockVocabularies(db, d);
}
