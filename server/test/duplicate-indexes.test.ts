import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { engine, openEmptyDatabase } from './helpers.js';

interface Index { table: string; name: string; unique: boolean; columns: string[] }

/** The schema's indexes on plain columns (not partial, not on expressions), each with its columns in order. */
async function indexes(database: Database): Promise<Index[]> {
  if (engine === 'postgres') {
    const { rows } = await sql<Index>`
      select t.relname as "table", i.relname as name, x.indisunique as "unique", array_agg(a.attname::text order by k.ord) as columns
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      cross join lateral unnest(x.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where n.nspname = current_schema() and x.indpred is null and x.indexprs is null
      group by t.relname, i.relname, x.indisunique`.execute(database.db);
    return rows;
  }
  const sqlite = database.sqlite!;
  const tables = (sqlite.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as { name: string }[]).map((t) => t.name);
  return tables.flatMap((table) => (sqlite.prepare('select name, "unique", partial from pragma_index_list(?)').all(table) as { name: string; unique: number; partial: number }[])
    .filter((i) => !i.partial)
    .map((i) => ({ table, name: i.name, unique: i.unique === 1, columns: (sqlite.prepare('select name from pragma_index_info(?) order by seqno').all(i.name) as { name: string | null }[]).map((c) => c.name ?? '(expression)') })));
}

describe('indexes', () => {
  it('none is a plain (not unique) index whose columns begin another index of its table: every write enters it, and the longer one serves its lookups', async () => {
    const { database, drop } = await openEmptyDatabase();
    try {
      await migrateToLatest(database.db, database.dialect, database.pgSchema);
      const all = await indexes(database);
      expect(all.length).toBeGreaterThan(50);
      // A unique index's columns say something of their own: only a plain one can be served by a longer one.
      const duplicates = all.filter((short) => !short.unique).flatMap((short) => all
        .filter((long) => long.table === short.table && long.name !== short.name && long.columns.length > short.columns.length
          && short.columns.every((c, i) => long.columns[i] === c))
        .map((long) => `${short.table}: ${short.name} (${short.columns.join(', ')}) begins ${long.name} (${long.columns.join(', ')})`));
      expect(duplicates).toEqual([]);
    } finally {
      await database.close();
      await drop();
    }
  });
});
