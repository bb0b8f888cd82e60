import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { createBalanceTrigger } from './0014_stock_engine.js';

/**
 * An arrival that gives neither its expiry nor its receipt time (a move, a putaway, a replenishment) takes them from
 * the posting's source of the same SKU and lot. Before, any lot of the SKU would do: a posting moving two lots of one
 * SKU gave the second lot the first one's expiry (a FEFO pick and the expiry reports then went by the wrong date),
 * and a count's found units of a new lot took another lot's receipt time. No posting relabels a lot.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await sql.raw('DROP TRIGGER IF EXISTS inventory_txn_moves_balance' + (d.engine === 'postgres' ? ' ON inventory_txn' : '')).execute(db);
  if (d.engine === 'postgres') await sql.raw('DROP FUNCTION IF EXISTS inventory_txn_moves_balance()').execute(db);
  await createBalanceTrigger(db, d, { expiryLookupWhen: 'NEW.received_at IS NULL', sourceOfSameLot: true });
}
