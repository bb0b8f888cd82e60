import type { Kysely } from 'kysely';

/**
 * Two indexes whose columns begin a longer index of the same table go (expand only: no query needs them, nothing
 * of an older node's breaks): every lookup they served, the longer index serves with the same leading columns, and
 * every write entered both. The ledger's (document_type, document_id) is the start of inventory_txn_document_line,
 * entered by every ledger row (two a pick); the balances' (location_id) the start of
 * inventory_balance_location_customer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('inventory_txn_document').execute();
  await db.schema.dropIndex('inventory_balance_location').execute();
}
