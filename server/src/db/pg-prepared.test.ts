import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { PreparedStatements } from './pg-prepared.js';

describe('PostgreSQL prepared statements: which texts take a name', () => {
  it('names a text from its second run on, the same name each time after', () => {
    const prepared = new PreparedStatements();
    const text = 'select id from pick_task where job_id = $1';
    expect(prepared.nameOf(text)).toBeUndefined();
    const name = prepared.nameOf(text);
    expect(name).toMatch(/^bolx_\d+$/);
    expect(prepared.nameOf(text)).toBe(name);
    expect(prepared.nameOf('select id from pick_job where id = $1')).toBeUndefined(); // another text: seen once
  });

  it('never names a result shaped by a table\'s current columns (an older node would fail after a migration adds one)', () => {
    const prepared = new PreparedStatements();
    for (const text of ['select * from "sku" where "id" = $1', 'select "s".* from "sku" as "s" where "s"."id" = $1', 'update "sku" set "uom" = $1 returning *']) {
      prepared.nameOf(text);
      expect(prepared.nameOf(text)).toBeUndefined();
    }
    const derived = 'WITH v AS (SELECT * FROM unnest(cast($1 as integer[])) AS v(n)) SELECT * FROM v';
    prepared.nameOf(derived);
    expect(prepared.nameOf(derived)).toBeDefined(); // columns of its own making
  });

  it('names at most maxNamed texts: the rest run unnamed, so no connection prepares without bound', () => {
    const prepared = new PreparedStatements(2, 10);
    const names = ['a', 'b', 'c'].map((t) => { prepared.nameOf(`select $1 as ${t}`); return prepared.nameOf(`select $1 as ${t}`); });
    expect(names[0]).toBeDefined();
    expect(names[1]).toBeDefined();
    expect(names[2]).toBeUndefined();
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('PostgreSQL prepared statements on a connection', () => {
  it('a statement with parameters run twice is prepared on the server and answers the same; one without stays unprepared', async () => {
    const database = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: tmpdir(), poolSize: 1 });
    try {
      const run = () => sql<{ n: number }>`select cast(${41} as integer) + 1 as n`.execute(database.db);
      expect((await run()).rows).toEqual([{ n: 42 }]);
      expect((await run()).rows).toEqual([{ n: 42 }]);
      expect((await run()).rows).toEqual([{ n: 42 }]);
      await sql`select 1; select 2`.execute(database.db); // several statements, no parameters: the simple protocol still
      await sql`select 1; select 2`.execute(database.db);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db);
      expect(rows.map((r) => r.statement)).toEqual(['select cast($1 as integer) + 1 as n']);
    } finally {
      await database.close();
    }
  });
});
