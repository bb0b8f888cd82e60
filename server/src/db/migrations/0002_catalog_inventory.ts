import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The first cut of SKUs, locations and the inventory ledger: enough for demo stock and the dashboard. */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const qty = 'integer';

  await db.schema.createTable('sku')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('uom', 'varchar(16)', (c) => c.notNull().defaultTo('EA'))
    .addColumn('upc', 'varchar(32)')
    .addColumn('is_kit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('weight_kg', 'real')
    .addColumn('length_cm', 'real')
    .addColumn('width_cm', 'real')
    .addColumn('height_cm', 'real')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('sku_customer_code', ['customer_id', 'sku_code'])
    .execute();

  await db.schema.createTable('location')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('zone', 'varchar(16)')
    .addColumn('aisle', 'varchar(16)')
    .addColumn('rack', 'varchar(16)')
    .addColumn('level', 'varchar(16)')
    .addColumn('bin', 'varchar(16)')
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(0).check(sql`capacity >= 0`))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('location_warehouse_code', ['warehouse_id', 'code'])
    .execute();

  await db.schema.createTable('inventory_balance')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('on_hand', qty, (c) => c.notNull().defaultTo(0))
    .addColumn('allocated', qty, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('inventory_on_hand_non_negative', sql`on_hand >= 0`)
    .addCheckConstraint('inventory_allocated_within_on_hand', sql`allocated >= 0 AND allocated <= on_hand`)
    .addUniqueConstraint('inventory_balance_place', ['warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet'])
    .execute();
  await db.schema.createIndex('inventory_balance_sku').on('inventory_balance').columns(['customer_id', 'sku_id']).execute();
  await db.schema.createIndex('inventory_balance_location').on('inventory_balance').columns(['location_id']).execute();

  await db.schema.createTable('inventory_txn')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('at', ts, (c) => c.notNull())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pallet', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('qty_change', qty, (c) => c.notNull())
    .addColumn('txn_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('reason', 'varchar(255)')
    .addColumn('document_type', 'varchar(32)')
    .addColumn('document_id', 'varchar(64)')
    .addColumn('user_id', 'integer')
    .execute();
  await db.schema.createIndex('inventory_txn_place').on('inventory_txn')
    .columns(['warehouse_id', 'customer_id', 'sku_id', 'at']).execute();
  await db.schema.createIndex('inventory_txn_document').on('inventory_txn').columns(['document_type', 'document_id']).execute();
}
