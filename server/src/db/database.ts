import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';
import { dialectFor, registerSqliteFunctions, type Dialect } from './dialect.js';
import { pinnable } from './pinned-connection.js';
import { PreparedStatements } from './pg-prepared.js';
import { PgDialect } from './pg-driver.js';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The pg pool (PostgreSQL only): for LISTEN/NOTIFY and bench baselines. */
  pool?: pg.Pool;
  /** The raw SQLite handle (SQLite only): for bench baselines. */
  sqlite?: SQLite.Database;
  /** The PostgreSQL schema in use when not the default (tests give each file its own). */
  pgSchema?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** SQLite file name inside dataDir. */
  fileName?: string;
  poolSize?: number;
  /** PostgreSQL schema to use (tests give each worker its own). */
  pgSchema?: string;
}

// pg returns int8 (count, sum) and numeric as strings and timestamptz as Date; we want numbers and ISO strings
// on both engines so repositories need no engine checks.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(1184, (v) => new Date(v).toISOString());
pg.types.setTypeParser(1114, (v) => new Date(`${v}Z`).toISOString());
pg.types.setTypeParser(1082, (v) => v);

export function openDatabase(opts: DatabaseOptions): Database {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      // No JIT: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, and a report's estimate
      // is far above what it reads (the rows after a rollup's mark, a per-order test priced per line): the compiling
      // took 0.4–0.8 s of statements that run in 10–50 ms.
      options: [PG_NO_JIT, opts.pgSchema ? `-c search_path=${opts.pgSchema}` : ''].filter(Boolean).join(' '),
    });
    pool.on('error', () => undefined); // an idle client's error is reported on its next use
    const prepared = new PreparedStatements();
    prepared.install(pool);
    const db = new Kysely<DB>({ dialect: pinnable(new PgDialect(pool, prepared)) });
    return { db, dialect: dialectFor('postgres'), pool, pgSchema: opts.pgSchema, close: () => db.destroy() };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const sqlite = new SQLite(join(opts.dataDir, opts.fileName ?? 'bolx.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  registerSqliteFunctions(sqlite);
  // SQLite plans without table statistics unless asked for them, and without them it takes any index on an IN
  // list for selective: a SKU list scoped to five clients of six then sorts 100,000 rows instead of walking the
  // code index for ten. `optimize` gathers statistics where they are missing or stale (cheaply, with its own
  // analysis limit); SQLite's advice for a long-lived connection is at open and then every few hours.
  sqlite.pragma('optimize = 0x10002');
  const optimizer = setInterval(() => sqlite.pragma('optimize'), SQLITE_OPTIMIZE_EVERY_MS);
  optimizer.unref();
  const db = new Kysely<DB>({ dialect: pinnable(new SqliteDialect({ database: withStatementCache(sqlite) })) });
  return { db, dialect: dialectFor('sqlite'), sqlite, close: () => { clearInterval(optimizer); return db.destroy(); } };
}

const PG_NO_JIT = '-c jit=off';
const SQLITE_OPTIMIZE_EVERY_MS = 3 * 3600_000;

/**
 * Kysely's SQLite driver prepares every statement anew; compiling the SQL costs more than running most of our
 * queries. Statements are reusable (we never stream, so none is left mid-iteration), so keep the recent ones. A hit
 * only stamps its entry (the key is the whole SQL text, so each Map operation hashes or compares kilobytes); the
 * least recently used is looked for only when a new statement needs the room.
 */
export function withStatementCache(sqlite: SQLite.Database, size = 500): SqliteDatabase {
  const cache = new Map<string, { statement: SQLite.Statement; used: number }>();
  let tick = 0;
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit) {
        hit.used = ++tick;
        return hit.statement;
      }
      const statement = sqlite.prepare(text);
      if (cache.size >= size) {
        let oldest: string | undefined;
        let at = Infinity;
        for (const [key, entry] of cache) if (entry.used < at) { at = entry.used; oldest = key; }
        cache.delete(oldest!);
      }
      cache.set(text, { statement, used: ++tick });
      return statement;
    },
  };
}

export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
