import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Manual shipping and return labels (issues 15 and 14): the lines a shipment made by hand takes from stock (its
 * ledger rows name the shipment and the line), and the RMA a manual (replacement) shipment or a return label
 * belongs to.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('shipment').addColumn('rma_id', 'integer', (c) => c.references('rma.id')).execute();
  await db.schema.createIndex('shipment_rma').on('shipment').columns(['rma_id']).execute();
  await db.schema.createIndex('shipment_kind_warehouse').on('shipment').columns(['kind', 'warehouse_id', 'customer_id', 'id']).execute();

  await db.schema.createTable('shipment_line')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('shipment.id'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addUniqueConstraint('shipment_line_no', ['shipment_id', 'line_no'])
    .execute();
}
