import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { widenStockVocabularies } from '../stock-vocabularies.js';

/**
 * Allocation (issue 12): why an order line holds less than it asks for (contracts' SHORT_REASONS; NULL when whole
 * or not yet allocated), and whether a customer lets short orders wait as Backordered (default) or stay Partially
 * Allocated. Orders reserve stock as document type SO: the ledger's and the reservations' document-type checks
 * are re-stated from the contracts' list (0014 wrote them from the list of its day).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('sales_order_line').addColumn('short_reason', 'varchar(32)').execute();
  await db.schema.alterTable('customer').addColumn('allow_backorders', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await widenStockVocabularies(db, d);
}
