import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The kinds of location. Spec section 9 names the storage kinds (rack, shelf, zone, aisle); the handling areas
 * (staging, dock, returns, quarantine) are the "other locations" of the /OtherLocations screen.
 */
const LOCATION_TYPES: [code: string, name: string, category: 'storage' | 'other'][] = [
  ['rack', 'Rack', 'storage'], ['shelf', 'Shelf', 'storage'], ['zone', 'Zone', 'storage'], ['aisle', 'Aisle', 'storage'],
  ['staging', 'Staging', 'other'], ['dock', 'Dock', 'other'], ['returns', 'Returns', 'other'], ['quarantine', 'Quarantine', 'other'],
];

/** The locations area: location types, the location's further columns, and indexes for every list filter and sort. */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.createTable('location_type')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('category', 'varchar(16)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('location_type').values(LOCATION_TYPES.map(([code, name, category], i) => ({ code, name, category, sort: i + 1 }))).execute();

  // SQLite adds one column per ALTER; the same statements run on PostgreSQL.
  await db.schema.alterTable('location').addColumn('description', 'varchar(255)').execute();
  await db.schema.alterTable('location').addColumn('max_weight_kg', 'real').execute();
  await db.schema.alterTable('location').addColumn('is_pickable', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  // (warehouse_id, code) is covered by the unique key; these serve the type, zone and status filters and every sort.
  const indexes: [string, string[]][] = [
    ['location_warehouse_type', ['warehouse_id', 'type', 'code']],
    ['location_warehouse_zone', ['warehouse_id', 'zone', 'code']],
    ['location_warehouse_active', ['warehouse_id', 'is_active', 'code']],
    ['location_code', ['code', 'id']],
    ['location_type_sort', ['type', 'id']],
    ['location_zone_sort', ['zone', 'id']],
    ['location_capacity', ['capacity', 'id']],
    ['location_created', ['created_at', 'id']],
  ];
  for (const [name, columns] of indexes) await db.schema.createIndex(name).on('location').columns(columns).execute();
  // Occupancy and the "occupied" filter read a location's balances; the client's "in use" rule adds the customer.
  await db.schema.createIndex('inventory_balance_location_customer').on('inventory_balance').columns(['location_id', 'customer_id', 'on_hand']).execute();
}
