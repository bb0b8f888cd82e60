import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The documents' platform: every status transition's history row, and the numbering sequences (one row per
 * document kind and scope). The sequences start after the documents that exist, so numbers continue: RO and CC
 * numbers and ADJ documents were made from the row id, so each kind goes on from its highest id.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.createTable('document_status_history')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('from_status', 'varchar(32)', (c) => c.notNull())
    .addColumn('to_status', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', d.timestampType, (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(100)')
    .addColumn('reason', 'varchar(255)')
    .execute();
  await db.schema.createIndex('document_status_history_document').on('document_status_history').columns(['kind', 'document_id', 'id']).execute();

  await db.schema.createTable('document_sequence')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // '' for a kind numbered across the whole system; a warehouse id (or another scope) otherwise.
    .addColumn('scope', 'varchar(32)', (c) => c.notNull())
    .addColumn('next_value', 'bigint', (c) => c.notNull().check(sql`next_value >= 1`))
    .addPrimaryKeyConstraint('document_sequence_pk', ['kind', 'scope'])
    .execute();
  for (const [kind, table] of [['RO', 'receiving_order'], ['CC', 'cycle_count'], ['ADJ', 'adjustment_request']] as const) {
    await sql`insert into document_sequence (kind, scope, next_value)
      select ${kind}, '', coalesce(max(id), 0) + 1 from ${sql.table(table)}`.execute(db);
  }
}
