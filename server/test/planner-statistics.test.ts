import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { prepareDatabase } from '../src/db/prepare.js';
import { engine, openEmptyDatabase } from './helpers.js';

const quiet = { info: () => undefined, warn: () => undefined };

describe('planner statistics after a fresh database is prepared', () => {
  it('are there for the seeded tables, so the first requests are not planned for empty tables (45 ms a header load before)', async () => {
    const { database, drop } = await openEmptyDatabase();
    try {
      await prepareDatabase(database, { demoData: true }, quiet);
      if (engine === 'postgres') {
        const { rows } = await sql<{ relname: string }>`select relname from pg_stat_user_tables
          where schemaname = current_schema() and last_analyze is not null and relname in ('location', 'inventory_balance', 'warehouse')`.execute(database.db);
        expect(rows.map((r) => r.relname).sort()).toEqual(['inventory_balance', 'location', 'warehouse']);
      } else {
        const { rows } = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1 where tbl in ('location', 'inventory_balance')`.execute(database.db);
        expect(rows.map((r) => r.tbl).sort()).toEqual(['inventory_balance', 'location']);
      }
    } finally {
      await database.close();
      await drop();
    }
  });
});
