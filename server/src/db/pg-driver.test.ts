import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import { sendAhead, writeBehind } from './pg-driver.js';

/** Each call the app makes to a pg client (a round trip), with the statements it carries. */
function roundTrips() {
  const calls: string[][] = [];
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const c = args[0] as string | { text?: string; statements?: { text: string }[] };
    calls.push(typeof c === 'string' ? [c] : c.statements ? c.statements.map((s) => s.text) : [String(c.text)]);
    return query.apply(this, args);
  };
  return { take: () => calls.splice(0, calls.length), restore: () => { proto.query = query; } };
}

describe.runIf(!!process.env.TEST_DATABASE_URL)('PostgreSQL driver: BEGIN with the first statement, the last writes with COMMIT', () => {
  let database: Database;
  const table = `pg_driver_test_${process.pid}`;
  const t = sql.table(table);
  const count = async () => Number((await sql<{ n: number }>`select count(*) as n from ${t}`.execute(database.db)).rows[0].n);
  const insert = (v: string) => sql<{ id: number }>`insert into ${t} (v) values (${v}) returning id`.compile(database.db);

  beforeAll(async () => {
    database = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: tmpdir(), poolSize: 2 });
    await sql`create table ${t} (id serial primary key, v text not null unique)`.execute(database.db);
  });
  afterAll(async () => {
    await sql`drop table if exists ${t}`.execute(database.db);
    await database.close();
  });

  it('sends BEGIN with the transaction\'s first statement: one round trip fewer, the same answers and effects', async () => {
    const trips = roundTrips();
    try {
      const got = await database.db.transaction().execute(async (tx) => {
        const a = await sql<{ n: number }>`select cast(${1} as integer) as n`.execute(tx);
        await sql`insert into ${t} (v) values (${'first'})`.execute(tx);
        return a.rows[0].n;
      });
      expect(got).toBe(1);
      expect(trips.take()).toEqual([['begin', 'select cast($1 as integer) as n'], [`insert into "${table}" (v) values ($1)`], ['commit']]);
      expect(await count()).toBe(1);
      // Many times over (the statement is prepared from its second run): still right.
      for (let i = 0; i < 8; i++) {
        const n = await database.db.transaction().execute(async (tx) => (await sql<{ n: number }>`select cast(${i} as integer) + 1 as n`.execute(tx)).rows[0].n);
        expect(n).toBe(i + 1);
      }
    } finally {
      trips.restore();
    }
  });

  it('a failing first statement fails the transaction, which leaves nothing, and the connection serves the next', async () => {
    const before = await count();
    await expect(database.db.transaction().execute(async (tx) => {
      await sql`insert into ${t} (v) values (${'first'})`.execute(tx); // unique: fails
    })).rejects.toThrow(/duplicate key/);
    await expect(database.db.transaction().execute(async (tx) => {
      await sql`insert into ${t} (v) values (${'kept?'})`.execute(tx);
      await sql`select 1 / 0`.execute(tx);
    })).rejects.toThrow(/division by zero/);
    expect(await count()).toBe(before);
    expect(await database.db.transaction().execute(async (tx) => (await sql<{ n: number }>`select 2 as n`.execute(tx)).rows[0].n)).toBe(2);
  });

  it('writeBehind sends the write with the next statement (COMMIT at the latest) and hands it its rows then', async () => {
    const trips = roundTrips();
    const rows: Record<string, { id: number }[]> = {};
    const pending = async (v: string) => {
      const id = await database.db.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        await writeBehind(tx, insert(v), (r) => { rows[v] = r; });
        expect(rows[v]).toBeUndefined(); // not sent yet
        return (await sql<{ id: number }>`select id from ${t} where v = ${v}`.execute(tx)).rows[0]?.id; // sent with this read: seen
      });
      return id;
    };
    try {
      const seen = await pending('behind a read');
      expect(trips.take().slice(-2)).toEqual([[`insert into "${table}" (v) values ($1) returning id`, `select id from "${table}" where v = $1`], ['commit']]);
      expect(rows['behind a read']).toEqual([{ id: seen }]);
      await database.db.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        await writeBehind(tx, insert('at commit'), (r) => { rows['at commit'] = r; });
      });
      expect(trips.take().at(-1)).toEqual([`insert into "${table}" (v) values ($1) returning id`, 'commit']);
      expect(rows['at commit']).toHaveLength(1);
      expect((await sql<{ v: string }>`select v from ${t} where id = ${rows['at commit'][0].id}`.execute(database.db)).rows[0].v).toBe('at commit');
    } finally {
      trips.restore();
    }
  });

  it('outside a transaction, writeBehind runs at once', async () => {
    let rows: { id: number }[] | undefined;
    await writeBehind(database.db, insert('at-once'), (r) => { rows = r; });
    expect(rows).toHaveLength(1);
  });

  it('a write that fails at commit fails the commit: the whole transaction is rolled back', async () => {
    const before = await count();
    await expect(database.db.transaction().execute(async (tx) => {
      await sql`insert into ${t} (v) values (${'rolled back'})`.execute(tx);
      await writeBehind(tx, insert('at commit'), () => undefined); // duplicate: fails at commit
    })).rejects.toThrow(/duplicate key/);
    expect(await count()).toBe(before);
  });

  it('a rollback drops the queued writes; an empty transaction sends nothing', async () => {
    const before = await count();
    await expect(database.db.transaction().execute(async (tx) => {
      await writeBehind(tx, insert('dropped'), () => undefined);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    expect(await count()).toBe(before);
    const trips = roundTrips();
    try {
      await database.db.transaction().execute(async () => undefined);
      expect(trips.take()).toEqual([]);
    } finally {
      trips.restore();
    }
  });

  it('a write queued in a savepoint is undone with it, and kept when the savepoint is released', async () => {
    // As a keyed request runs its later units (platform/request-transaction.ts).
    const tx = await database.db.startTransaction().execute();
    await sql`select 1`.execute(tx);
    const undone = await tx.savepoint('undone').execute();
    await writeBehind(undone, insert('in undone savepoint'), () => undefined);
    await undone.rollbackToSavepoint('undone').execute();
    const kept = await tx.savepoint('kept').execute();
    await writeBehind(kept, insert('in kept savepoint'), () => undefined);
    await kept.releaseSavepoint('kept').execute();
    await tx.commit().execute();
    const { rows } = await sql<{ v: string }>`select v from ${t} where v like ${'in % savepoint'}`.execute(database.db);
    expect(rows.map((r) => r.v)).toEqual(['in kept savepoint']);
  });

  it('sendAhead sends a statement with the next one and answers it after; its failure fails that statement and the transaction', async () => {
    const trips = roundTrips();
    try {
      const got = await database.db.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        const ahead = await sendAhead(tx, insert('sent ahead'));
        const next = await sql<{ n: number }>`select count(*) as n from ${t} where v = ${'sent ahead'}`.execute(tx);
        return { ahead: await ahead.rows(), seen: Number(next.rows[0].n) };
      });
      expect(got.ahead).toHaveLength(1);
      expect(got.seen).toBe(1);
      expect(trips.take().at(-2)).toEqual([`insert into "${table}" (v) values ($1) returning id`, `select count(*) as n from "${table}" where v = $1`]);
    } finally {
      trips.restore();
    }
    const before = await count();
    let ahead: { rows(): Promise<unknown[]> } | undefined;
    await expect(database.db.transaction().execute(async (tx) => {
      await sql`insert into ${t} (v) values (${'undone with it'})`.execute(tx);
      ahead = await sendAhead(tx, insert('sent ahead')); // duplicate
      await sql`select 1`.execute(tx);
    })).rejects.toThrow(/duplicate key/);
    await expect(ahead!.rows()).rejects.toThrow(/duplicate key/);
    expect(await count()).toBe(before);
    // Outside a transaction it runs at once.
    const now = await sendAhead(database.db, insert('sent alone'));
    expect(await now.rows()).toHaveLength(1);
  });

  it('a write behind given as a function is built when it is sent, with what was added to it meanwhile', async () => {
    const values = ['lazy 1'];
    let built = 0;
    const build = () => { built++; return sql<{ id: number }>`insert into ${t} (v) select unnest(cast(${values} as text[])) returning id`.compile(database.db); };
    let rows: unknown[] = [];
    const trips = roundTrips();
    try {
      await database.db.transaction().execute(async (tx) => {
        await writeBehind(tx, build, (r) => { rows = r; });
        values.push('lazy 2'); // after queuing, before the next statement: still in
        expect(built).toBe(0);
        await sql`select 1`.execute(tx);
        expect(built).toBe(1);
        values.push('lazy 3'); // once sent: not in
      });
    } finally {
      trips.restore();
    }
    expect(rows).toHaveLength(2);
    expect((await sql<{ v: string }>`select v from ${t} where v like 'lazy %' order by v`.execute(database.db)).rows.map((r) => r.v)).toEqual(['lazy 1', 'lazy 2']);
    // Outside a transaction it is built and run at once.
    await writeBehind(database.db, () => insert('lazy alone'), (r) => { rows = r; });
    expect(rows).toHaveLength(1);
  });
});
