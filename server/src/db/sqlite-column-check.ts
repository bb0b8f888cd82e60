import { sql, type Kysely } from 'kysely';

/**
 * SQLite cannot change a column's CHECK, so a list that grows (a vocabulary of kinds or types) is widened by
 * rebuilding the table from its own definition with the column's new text, its rows and indexes kept. Idempotent:
 * when the definition already has it, nothing is rebuilt (and a definition whose CHECK cannot be found is an error,
 * not a silent skip). A table other tables refer to (ticket: its comments and files) can only be dropped with
 * foreign keys off, so they are off for the rebuild (migrations run outside a transaction on SQLite, where the
 * pragma takes effect) and the references are checked before they are on again.
 */
export async function widenSqliteColumnCheck(db: Kysely<any>, table: string, column: RegExp, definition: string, values: readonly string[]) {
  const current = (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db)).rows[0];
  const widened = current.sql.replace(column, definition);
  if (widened === current.sql) {
    if (!values.every((v) => current.sql.includes(`'${v}'`))) throw new Error(`${table}: the CHECK to widen was not found`);
    return;
  }
  const indexes = (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL`.execute(db)).rows;
  const foreignKeys = Number((await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)).rows[0]?.foreign_keys ?? 0) === 1;
  // References broken before (rows kept while foreign keys were off) are not the rebuild's doing: only new ones are.
  const brokenBefore = (await sql.raw(`PRAGMA foreign_key_check`).execute(db)).rows.length;
  if (foreignKeys) await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql.raw(widened.replace(new RegExp(`^CREATE TABLE "?${table}"?`, 'i'), `CREATE TABLE "${table}_widened"`)).execute(db);
    await sql.raw(`INSERT INTO "${table}_widened" SELECT * FROM "${table}"`).execute(db);
    await sql.raw(`DROP TABLE "${table}"`).execute(db);
    await sql.raw(`ALTER TABLE "${table}_widened" RENAME TO "${table}"`).execute(db);
    for (const index of indexes) await sql.raw(index.sql).execute(db);
    const broken = (await sql.raw(`PRAGMA foreign_key_check`).execute(db)).rows;
    if (broken.length > brokenBefore) throw new Error(`${table}: ${broken.length - brokenBefore} references broken by the rebuild`);
  } finally {
    if (foreignKeys) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/** `'a', 'b'` for a CHECK's IN list. */
export const quotedList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
