// The bare baseline's database access: the server's driver and connection settings (openDatabase), but no
// query builder — each captured statement goes straight to better-sqlite3 (prepared once) or to the pg pool.
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { openDatabase } from '../../server/src/db/database.js';
import type { ChildConfig } from './child.js';
import type { Slots, SqlTemplate } from './sql-capture.js';

export type Row = Record<string, unknown>;

export interface RawDb {
  all<T = Row>(t: SqlTemplate, values: Slots): Promise<T[]>;
  run(t: SqlTemplate, values: Slots): Promise<void>;
  /** The callback's statements in one transaction (begin/commit, as Kysely issues them). */
  transaction<T>(work: (tx: RawDb) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function openRawDb(cfg: ChildConfig): RawDb {
  const database = openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, pgSchema: cfg.pgSchema, poolSize: cfg.poolSize });
  const close = () => database.close();
  if (database.pool) return pgDb(database.pool, close);
  if (database.sqlite) return sqliteDb(database.sqlite, close);
  throw new Error('bare: openDatabase gave neither a pool nor a SQLite handle');
}

function sqliteDb(handle: SQLite.Database, close: () => Promise<void>): RawDb {
  const prepared = new Map<string, SQLite.Statement>();
  const stmt = (sql: string) => {
    let st = prepared.get(sql);
    if (!st) prepared.set(sql, (st = handle.prepare(sql)));
    return st;
  };
  const self: RawDb = {
    async all<T>(t: SqlTemplate, v: Slots) {
      const st = stmt(t.sql);
      if (st.reader) return st.all(t.bind(v)) as T[];
      st.run(t.bind(v));
      return [];
    },
    async run(t, v) {
      stmt(t.sql).run(t.bind(v));
    },
    async transaction(work) {
      // better-sqlite3 is synchronous, so nothing else runs between begin and commit unless `work` awaits I/O.
      stmt('begin').run();
      try {
        const result = await work(self);
        stmt('commit').run();
        return result;
      } catch (err) {
        stmt('rollback').run();
        throw err;
      }
    },
    close,
  };
  return self;
}

/**
 * Diagnostics (BENCH_RAW_PREPARED=1): the replay runs each statement with parameters prepared, by a name per text, as
 * the app does (server/src/db/pg-prepared.ts), so BENCH_STATEMENT_TIMES shows what each costs once planned.
 */
const preparedNames = process.env.BENCH_RAW_PREPARED === '1' ? new Map<string, string>() : null;
const pgQuery = (q: pg.Pool | pg.PoolClient, sql: string, values: unknown[]) => {
  // A text and its values as two arguments, as before: passed as one config object, the replay ran 2.5 times slower
  // (seen, not understood: pg-pool's query with a config and no values).
  if (!preparedNames || values.length === 0) return q.query(sql, values);
  let name = preparedNames.get(sql);
  if (!name) preparedNames.set(sql, (name = `raw_${preparedNames.size + 1}`));
  return q.query({ name, text: sql, values });
};

function pgDb(pool: pg.Pool, close: () => Promise<void>): RawDb {
  const on = (q: pg.Pool | pg.PoolClient): RawDb => ({
    async all<T>(t: SqlTemplate, v: Slots) {
      return (await pgQuery(q, t.sql, t.bind(v))).rows as T[];
    },
    async run(t, v) {
      await pgQuery(q, t.sql, t.bind(v));
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(on(client));
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close,
  });
  return on(pool);
}

/** Diagnostics: `raw` timing each statement (ms, summed by text) into `times`, and each transaction whole (begin and commit included) as '(whole transaction)'. */
export function withStatementTimes(raw: RawDb, times: Map<string, { n: number; ms: number }>): RawDb {
  const add = (sql: string, ms: number) => { const t = times.get(sql) ?? { n: 0, ms: 0 }; t.n++; t.ms += ms; times.set(sql, t); };
  const timed = async <T>(sql: string, work: () => Promise<T>) => { const t0 = performance.now(); try { return await work(); } finally { add(sql, performance.now() - t0); } };
  const wrap = (db: RawDb): RawDb => ({
    all: (t, v) => timed(t.sql, () => db.all(t, v)),
    run: (t, v) => timed(t.sql, () => db.run(t, v)),
    transaction: (work) => { const t0 = performance.now(); return db.transaction((tx) => work(wrap(tx))).finally(() => add('(whole transaction)', performance.now() - t0)); },
    close: () => db.close(),
  });
  return wrap(raw);
}
