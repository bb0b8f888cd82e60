import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The stock-on-hand list's count: balances in the caller's warehouses and clients with stock, answered from
 * the index alone (no table reads), which keeps it in milliseconds with 100,000 balances (bench: soh).
 */
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.createIndex('inventory_balance_scope_on_hand').on('inventory_balance').columns(['warehouse_id', 'customer_id', 'on_hand']).execute();
}
