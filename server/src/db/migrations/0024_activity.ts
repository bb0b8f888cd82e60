import { sql, type Kysely } from 'kysely';
import { FLOOR_EVENT_KINDS } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';
import { widenStockVocabularies } from '../stock-vocabularies.js';
import { quotedList, widenSqliteColumnCheck } from '../sqlite-column-check.js';

const kinds = () => sql.raw(quotedList(FLOOR_EVENT_KINDS));

/**
 * The activity log for the modules after the floor (issues 14–17): floor_event grows the kinds of receiving,
 * inventory, shipping, freight and returns, and says which document a step belongs to (doc_type + doc_id, for the
 * documents that have no column of their own), a detail (a return's disposition) and a money amount in minor units
 * (a label's carrier charge, which billing marks up). The ledger learns the returns' types (return, dispose) and
 * documents (RMA, RETURN, SHIPMENT). A customer gets its GS1 company prefix, which SSCCs are built from.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await widenStockVocabularies(db, d);

  await db.schema.alterTable('floor_event').addColumn('doc_type', 'varchar(16)').execute();
  await db.schema.alterTable('floor_event').addColumn('doc_id', 'integer').execute();
  await db.schema.alterTable('floor_event').addColumn('detail', 'varchar(64)').execute();
  await db.schema.alterTable('floor_event').addColumn('amount_minor', 'bigint').execute();
  await widenFloorEventKinds(db, d);
  await db.schema.createIndex('floor_event_doc').on('floor_event').columns(['doc_type', 'doc_id']).execute();

  await db.schema.alterTable('customer').addColumn('gs1_company_prefix', 'varchar(12)').execute();
}

/**
 * Makes floor_event.kind accept contracts' FLOOR_EVENT_KINDS (and kinds up to 24 characters). Idempotent; a later
 * migration that grows the list calls it again. On SQLite the table is rebuilt (widenSqliteColumnCheck).
 */
export async function widenFloorEventKinds(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine === 'postgres') {
    await sql`ALTER TABLE floor_event DROP CONSTRAINT IF EXISTS floor_event_kind_check`.execute(db);
    await sql`ALTER TABLE floor_event ALTER COLUMN kind TYPE varchar(24)`.execute(db);
    await sql`ALTER TABLE floor_event ADD CONSTRAINT floor_event_kind_check CHECK (kind IN (${kinds()}))`.execute(db);
    return;
  }
  await widenSqliteColumnCheck(db, 'floor_event', /"?kind"? varchar\(\d+\) not null check \(kind IN \([^)]*\)\)/i,
    `"kind" varchar(24) not null check (kind IN (${quotedList(FLOOR_EVENT_KINDS)}))`, FLOOR_EVENT_KINDS);
}
