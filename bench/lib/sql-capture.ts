// The bare baseline must run exactly the SQL the server runs. Rather than copying SQL text (which drifts), we
// call the server's own repository functions against a Kysely that never touches a database and record what
// they compile to. Values that change per request are passed in as sentinels and become named slots.
import {
  DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter,
  SqliteIntrospector, SqliteQueryCompiler, type CompiledQuery,
} from 'kysely';
import type { DB } from '../../server/src/db/schema.js';

export type Engine = 'sqlite' | 'postgres';
export type Slots = Record<string, string | number | null>;

/** One statement with its parameters as a function of the request's values. */
export interface SqlTemplate {
  sql: string;
  bind(values: Slots): unknown[];
}

/** Timestamps the repositories make themselves (`new Date().toISOString()`); they are re-taken at bind time. */
const ISO_NOW = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A sentinel for a string slot: lower-case and trim-proof, since repositories normalise some inputs. */
export const s = (name: string) => `~${name}~`;
/** A sentinel for a number slot: large, so it cannot collide with a constant in a query. */
let nextNumber = 987_650_001;
const numberSlots = new Map<number, string>();
export function n(name: string): number {
  for (const [value, slot] of numberSlots) if (slot === name) return value;
  const value = nextNumber++;
  numberSlots.set(value, name);
  return value;
}

function captureDb(engine: Engine, sink: CompiledQuery[]): Kysely<DB> {
  const pgLike = engine === 'postgres';
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => (pgLike ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (pgLike ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (pgLike ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      if (event.level === 'query') sink.push(event.query);
    },
  });
}

const STRING_SLOT = /~([a-z0-9_]+)~/g;
const HAS_SLOT = /~[a-z0-9_]+~/;

function binder(param: unknown): (values: Slots) => unknown {
  if (typeof param === 'number' && numberSlots.has(param)) {
    const name = numberSlots.get(param)!;
    return (v) => need(v, name);
  }
  if (typeof param !== 'string') return () => param;
  const exact = /^~([a-z0-9_]+)~$/.exec(param);
  if (exact) return (v) => need(v, exact[1]);
  const asNumber = numberSlots.get(Number(param));
  if (asNumber && /^\d+$/.test(param)) return (v) => String(need(v, asNumber)); // e.g. audit entity_id
  if (HAS_SLOT.test(param)) return (v) => param.replace(STRING_SLOT, (_m, name: string) => String(need(v, name)));
  if (ISO_NOW.test(param)) return () => new Date().toISOString();
  return () => param;
}

function need(values: Slots, name: string): unknown {
  if (!(name in values)) throw new Error(`bench: no value for SQL slot "${name}"`);
  return values[name];
}

/**
 * Runs `call` against a recording Kysely and returns the statements it issued, in order. `call` passes
 * sentinels made with `s()` and `n()` where the request's values go.
 */
export async function captureSql(engine: Engine, call: (db: Kysely<DB>) => Promise<unknown>): Promise<SqlTemplate[]> {
  const sink: CompiledQuery[] = [];
  const db = captureDb(engine, sink);
  try {
    await call(db);
  } finally {
    await db.destroy();
  }
  return sink.map((q) => {
    const binders = q.parameters.map(binder);
    return { sql: q.sql, bind: (values: Slots) => binders.map((b) => b(values)) };
  });
}

/** The one statement a call issues (most repository functions issue exactly one). */
export async function captureOne(engine: Engine, call: (db: Kysely<DB>) => Promise<unknown>): Promise<SqlTemplate> {
  const all = await captureSql(engine, call);
  if (all.length !== 1) throw new Error(`bench: expected one statement, captured ${all.length}`);
  return all[0];
}
