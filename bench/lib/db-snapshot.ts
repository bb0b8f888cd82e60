// The state a replay must start from: the floor's statements change rows the app has already changed (a task
// picked, a carton numbered), so their replay needs the database as it was before the app's run.
//   SQLite: a copy of the file (VACUUM INTO) the replay opens; the app's file is left as the app made it.
//   PostgreSQL: the schema's tables copied aside, then put back in place (triggers off while they are, so the
//   balances are not moved twice; sequences reset, so the replay's inserts get the ids the trace names).
//   Large append-only tables (the ledger, the audit log) are not copied: what the run added is deleted.
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../server/src/db/database.js';
import type { ChildConfig } from './child.js';
import { openRawDb, type RawDb } from './raw-db.js';

/** Above this many rows a table is treated as append-only (kept by its last id, not copied). */
const COPY_ROWS = 50_000;

export interface Snapshot {
  /** PostgreSQL only: puts the snapshot back under the app (which keeps running), and keeps it for another time. */
  restore?: () => Promise<void>;
  /** Puts the snapshot back (PostgreSQL) or opens it (SQLite) for the replay; the snapshot is then gone. */
  replayDb(): Promise<RawDb>;
}

/** Takes the snapshot now. */
export async function takeSnapshot(database: Database, cfg: ChildConfig, name: string): Promise<Snapshot> {
  if (database.sqlite) {
    const dataDir = join(cfg.dataDir, `snapshot-${name}`);
    const { mkdirSync, rmSync } = await import('node:fs');
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    database.sqlite.prepare(`VACUUM INTO '${join(dataDir, 'bolx.db').replaceAll("'", "''")}'`).run();
    return { replayDb: async () => openRawDb({ ...cfg, dataDir }) };
  }
  const schema = database.pgSchema ?? 'public';
  const snap = `${schema}_snap_${name}`.toLowerCase();
  const db = database.db;
  const q = (text: string) => sql.raw(text).execute(db);
  const tables = (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE' order by table_name`.execute(db)).rows.map((r) => r.name);
  const sequences = (await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'S' and n.nspname = ${schema}`.execute(db)).rows.map((r) => r.name);
  await q(`drop schema if exists "${snap}" cascade`);
  await q(`create schema "${snap}"`);
  const kept = new Map<string, number>(); // append-only table → its last id before the run
  for (const t of tables) {
    const rows = Number((await sql.raw<{ n: number }>(`select count(*)::int as n from "${schema}"."${t}"`).execute(db)).rows[0].n);
    const hasId = rows > COPY_ROWS && (await sql<{ n: number }>`select count(*)::int as n from information_schema.columns where table_schema = ${schema} and table_name = ${t} and column_name = 'id'`.execute(db)).rows[0].n > 0;
    if (hasId) kept.set(t, Number((await sql.raw<{ m: number | null }>(`select max(id) as m from "${schema}"."${t}"`).execute(db)).rows[0].m ?? 0));
    else await q(`create table "${snap}"."${t}" as table "${schema}"."${t}"`);
  }
  const seqValues: { name: string; last: number; called: boolean }[] = [];
  for (const s of sequences) {
    const r = (await sql.raw<{ last_value: number; is_called: boolean }>(`select last_value, is_called from "${schema}"."${s}"`).execute(db)).rows[0];
    seqValues.push({ name: s, last: Number(r.last_value), called: r.is_called });
  }
  const restore = async () => {
    await db.transaction().execute(async (tx) => {
      const t = (text: string) => sql.raw(text).execute(tx);
      await t('set local session_replication_role = replica');
      const copied = tables.filter((x) => !kept.has(x));
      // DELETE, not TRUNCATE: a large kept table (the ledger after the stock-on-hand case) references copied ones
      // (customer, sku), and TRUNCATE checks foreign keys even with triggers off.
      for (const x of copied) await t(`delete from "${schema}"."${x}"`);
      for (const x of copied) await t(`insert into "${schema}"."${x}" overriding system value select * from "${snap}"."${x}"`);
      for (const [x, last] of kept) await t(`delete from "${schema}"."${x}" where id > ${last}`);
      for (const s of seqValues) await t(`select setval('"${schema}"."${s.name}"', ${s.last}, ${s.called})`);
    });
  };
  return {
    restore,
    async replayDb() {
      await restore();
      await q(`drop schema "${snap}" cascade`);
      return openRawDb(cfg);
    },
  };
}
