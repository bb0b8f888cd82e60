import { type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Billing leftovers (issue 16), expand only:
 * - the live accrual's materialisation: per client and warehouse, the current month's candidate charges up to a
 *   mark (the ledger's, the activity log's and the snapshots' last ids it read), counted by what decides their
 *   amount (type, qualifier, day, quantity, carrier cost) and not yet rated — the card is applied when read, so a
 *   new card version needs no refresh. The accrual reads these counts plus only the rows after the mark.
 * - the manual charges (accessorials) list and the run's claim of them: by client, warehouse, source type and day.
 * - receiving per carton: the inbound carton (its label or LPN) a receipt and its receive event name.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  await db.schema.createTable('billing_accrual_mark')
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('txn_id', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull())
    .addColumn('finals', 'integer', (c) => c.notNull())
    .addColumn('taken_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_accrual_mark_pk', ['customer_id', 'warehouse_id'])
    .execute();
  await db.schema.createTable('billing_accrual_group')
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('charge_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('qualifier', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('base_minor', 'bigint')
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_accrual_group_scope').on('billing_accrual_group').columns(['customer_id', 'warehouse_id', 'day']).execute();

  await db.schema.createIndex('billing_charge_manual').on('billing_charge').columns(['customer_id', 'warehouse_id', 'source_type', 'day']).execute();

  await db.schema.alterTable('receiving_receipt').addColumn('carton', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('floor_event').addColumn('carton_code', 'varchar(64)').execute();
}
