import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Billing at a million ledger rows (issue 16's bench):
 * - billing reads a client's ledger by document type (receipts, work orders) in a period: with the type in the
 *   index, a month's run or accrual reads its receipts rather than every move of the month. It replaces 0030's
 *   (warehouse, customer, day) index, which only billing read; the snapshot rebuild keeps its warehouse prefix.
 * - an invoice line names the charges it sums by their line key (type, qualifier, markup, divisor, rate, sign,
 *   own text: what buildLines groups by) instead of every charge naming its line: building the lines then writes
 *   the lines, not an update of each of the month's charges (a new row version on PostgreSQL). Lines built before
 *   take the key of their charges.
 */
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.dropIndex('inventory_txn_billing').execute();
  await db.schema.createIndex('inventory_txn_billing_doc').on('inventory_txn').columns(['warehouse_id', 'customer_id', 'document_type', 'business_day']).execute();

  await db.schema.alterTable('invoice_line').addColumn('line_key', 'varchar(400)').execute();
  await sql`UPDATE invoice_line SET line_key = (SELECT c.charge_type || ${'\u0001'} || c.qualifier || ${'\u0001'} || CAST(c.markup_bp AS TEXT) || ${'\u0001'} || CAST(c.divisor AS TEXT) || ${'\u0001'}
      || CAST(CASE WHEN c.charge_type = 'carrier_markup' OR c.source_type = 'minimum' THEN -1 ELSE c.rate_minor END AS TEXT) || ${'\u0001'}
      || CAST(CASE WHEN c.reverses_charge_id IS NULL THEN 0 ELSE 1 END AS TEXT) || ${'\u0001'}
      || CASE WHEN c.source_type = 'manual' OR c.source_type = 'minimum' THEN COALESCE(c.description, '') ELSE '' END
    FROM billing_charge c WHERE c.invoice_line_id = invoice_line.id ORDER BY c.id LIMIT 1)
    WHERE is_manual = 0 AND credits_line_id IS NULL`.execute(db);
  await db.schema.dropIndex('billing_charge_invoice').execute();
  // Expand only (a node of the previous release may still run beside this one): the column stays, unread and
  // unwritten from here on, emptied so no line is held by it; a later contract step drops it.
  await sql`UPDATE billing_charge SET invoice_line_id = NULL WHERE invoice_line_id IS NOT NULL`.execute(db);
  await db.schema.createIndex('billing_charge_invoice').on('billing_charge').columns(['invoice_id', 'charge_type', 'qualifier']).execute();
}
