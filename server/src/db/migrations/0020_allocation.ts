import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Allocation (issue 12): why an order line holds less than it asks for (contracts' SHORT_REASONS; NULL when whole
 * or not yet allocated), and whether a customer lets short orders wait as Backordered (default) or stay Partially
 * Allocated.
 */
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.alterTable('sales_order_line').addColumn('short_reason', 'varchar(32)').execute();
  await db.schema.alterTable('customer').addColumn('allow_backorders', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}
