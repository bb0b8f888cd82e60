import { sql, type Kysely } from 'kysely';

/**
 * Billing at a million ledger rows (issue 16's bench), expand only:
 * - a ledger's reversing rows by client, document type and day, and only those (a partial index): the run and the
 *   live accrual look for a month's reversals, which are few, instead of reading every receipt of the month.
 * - the manual charges by client, warehouse and day, and only those: a run writes a month's activity charges (some
 *   hundred thousand) into none of it. It replaces 0042's index over every charge's source type.
 * - (customer, warehouse, day) over every charge goes: what read it (the audit's storage days) reads the charge
 *   key's index, led by client, warehouse and charge type; each charge a run writes had to enter it.
 * Both partial indexes are matched by queries that name the literal ('reverse', 'manual'), as SQLite needs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('inventory_txn_reversal').on('inventory_txn').columns(['warehouse_id', 'customer_id', 'document_type', 'business_day'])
    .where(sql.ref('txn_type'), '=', sql.lit('reverse')).execute();
  await db.schema.dropIndex('billing_charge_manual').execute();
  await db.schema.createIndex('billing_charge_manual').on('billing_charge').columns(['customer_id', 'warehouse_id', 'day'])
    .where(sql.ref('source_type'), '=', sql.lit('manual')).execute();
  await db.schema.dropIndex('billing_charge_day').execute();
}
