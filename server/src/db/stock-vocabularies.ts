import { sql, type Kysely } from 'kysely';
import { STOCK_DOCUMENT_TYPES, STOCK_TXN_TYPES } from '@bolx/contracts';
import type { Dialect } from './dialect.js';
import { quotedList, widenSqliteColumnCheck } from './sqlite-column-check.js';

const list = (values: readonly string[]) => sql.raw(quotedList(values));

/**
 * Makes the database accept today's stock vocabularies (contracts/src/stock.ts) on a database migrated before
 * they grew: migration 0014 wrote the lists of its day into CHECKs (PostgreSQL), triggers (SQLite) and the
 * reservation table's column CHECK. Idempotent; a later migration that grows a list calls it again
 * (0020 for SO, 0021 for WO and the kit ledger types).
 */
export async function widenStockVocabularies(db: Kysely<any>, d: Dialect) {
  if (d.engine === 'postgres') {
    await sql`ALTER TABLE inventory_txn DROP CONSTRAINT IF EXISTS inventory_txn_txn_type`.execute(db);
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_txn_type CHECK (txn_type IN (${list(STOCK_TXN_TYPES)}))`.execute(db);
    await sql`ALTER TABLE inventory_txn DROP CONSTRAINT IF EXISTS inventory_txn_document_type`.execute(db);
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_document_type CHECK (document_type IS NOT NULL AND document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
    await sql`ALTER TABLE stock_reservation DROP CONSTRAINT IF EXISTS stock_reservation_document_type_check`.execute(db);
    await sql`ALTER TABLE stock_reservation ADD CONSTRAINT stock_reservation_document_type_check CHECK (document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
    return;
  }
  for (const event of ['INSERT', 'UPDATE']) {
    await sql.raw(`DROP TRIGGER IF EXISTS inventory_txn_types_${event.toLowerCase()}`).execute(db);
    await sql.raw(`CREATE TRIGGER inventory_txn_types_${event.toLowerCase()} BEFORE ${event} ON inventory_txn
      WHEN NEW.txn_type NOT IN (${quotedList(STOCK_TXN_TYPES)})
        OR NEW.document_type IS NULL OR NEW.document_type NOT IN (${quotedList(STOCK_DOCUMENT_TYPES)})
      BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: inventory_txn type'); END`).execute(db);
  }
  await widenSqliteColumnCheck(db, 'stock_reservation', /"?document_type"? varchar\(32\) not null check \(document_type IN \([^)]*\)\)/i,
    `"document_type" varchar(32) not null check (document_type IN (${quotedList(STOCK_DOCUMENT_TYPES)}))`, STOCK_DOCUMENT_TYPES);
}
