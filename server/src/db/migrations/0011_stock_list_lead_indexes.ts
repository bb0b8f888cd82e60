import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The stock-on-hand list led by its sort's table (inventory.repository stockList): walking locations (or SKUs)
 * in code order, each row's balances in the caller's warehouses and clients are found by one index probe, so a
 * page stops after its rows. Without these, SQLite probed by the scope index and sorted every balance in scope
 * (bench soh at 100,000 balances: p99 far past 50 ms). on_hand closes each key so the probe is the most
 * specific index for SQLite's planner even when the warehouse and client are both fixed.
 */
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.createIndex('inventory_balance_location_scope').on('inventory_balance').columns(['location_id', 'warehouse_id', 'customer_id', 'on_hand']).execute();
  await db.schema.createIndex('inventory_balance_sku_scope').on('inventory_balance').columns(['sku_id', 'warehouse_id', 'customer_id', 'on_hand']).execute();
}
