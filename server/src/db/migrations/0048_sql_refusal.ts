import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * PostgreSQL: bolx_refuse(message) fails the statement that calls it with `message` (SQLSTATE P0001, as the ledger
 * trigger's refusals). A statement sent without waiting for its answer (db/pg-driver.ts's writeBehind) checks its
 * own outcome with it — `CASE WHEN <as expected> THEN … ELSE bolx_refuse('…') END` — so a wrong outcome fails the
 * transaction instead of passing unseen. VOLATILE: never evaluated ahead of its CASE. SQLite: nothing (its
 * statements are answered at once).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine !== 'postgres') return;
  await sql.raw(`CREATE OR REPLACE FUNCTION bolx_refuse(message text) RETURNS integer LANGUAGE plpgsql VOLATILE AS $fn$
    BEGIN
      RAISE EXCEPTION '%', message USING ERRCODE = 'P0001';
    END $fn$`).execute(db);
}
