import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Reports over a year (issue 17's bench): dock-to-stock finds the receiving orders put away within the range by
 * the putaways' time, instead of grouping every putaway and receipt ever made. Expand only: one index.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.createIndex('receiving_putaway_at').on('receiving_putaway').columns(['at', 'order_id']).execute();
}
