import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The lot and expiry a receiving order line expects (from the order form or its upload), so the whole order can
 * be received as expected in one request. '' / NULL when the supplier did not say (a scan then gives them).
 */
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.alterTable('receiving_order_line').addColumn('lot', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('receiving_order_line').addColumn('expiry_date', 'varchar(10)').execute();
}
