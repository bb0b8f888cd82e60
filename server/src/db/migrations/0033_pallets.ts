import { sql, type Kysely } from 'kysely';
import { PALLET_TYPES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

/**
 * The pallet register (issue 18): licence plates of a warehouse, their type, size, weight capacity and where they
 * are. `pallet_code` is the id stock rows already carry in their `pallet` column (inventory_balance, inventory_txn,
 * receiving and count lines): registering a pallet describes that id, it never makes a second kind of pallet id.
 * A client's pallet gets an SSCC when the client has a GS1 company prefix.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

  await db.schema.createTable('pallet')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.references('customer.id'))
    .addColumn('pallet_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('sscc', 'varchar(18)')
    .addColumn('pallet_type', 'varchar(16)', (c) => c.notNull().check(sql`pallet_type IN (${list(PALLET_TYPES)})`))
    .addColumn('length_cm', 'real', (c) => c.notNull().check(sql`length_cm > 0`))
    .addColumn('width_cm', 'real', (c) => c.notNull().check(sql`width_cm > 0`))
    .addColumn('height_cm', 'real', (c) => c.notNull().check(sql`height_cm > 0`))
    .addColumn('weight_capacity_kg', 'real', (c) => c.notNull().check(sql`weight_capacity_kg > 0`))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('location.id'))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('pallet_warehouse_code', ['warehouse_id', 'pallet_code'])
    .execute();
  await sql`CREATE UNIQUE INDEX pallet_sscc ON pallet (sscc) WHERE sscc IS NOT NULL`.execute(db);
  await db.schema.createIndex('pallet_warehouse_customer').on('pallet').columns(['warehouse_id', 'customer_id', 'id']).execute();
}
