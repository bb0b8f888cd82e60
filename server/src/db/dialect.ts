import { sql, type ColumnDefinitionBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB, Executor } from './schema.js';
import { businessDay, offsetSegments } from '../platform/business-day.js';
import { writeBehind } from './pg-driver.js';

/**
 * The few places where SQLite and PostgreSQL differ. Everything else is plain Kysely and runs on both.
 */
export type Engine = 'sqlite' | 'postgres';

export interface Dialect {
  engine: Engine;
  /** Column type for ISO timestamps. */
  timestampType: 'text' | 'timestamptz';
  /** Column type for JSON documents stored as text. */
  jsonType: 'text' | 'jsonb';
  /** Adds an auto-increment primary key. */
  identity(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** Case-insensitive LIKE. */
  ilike(column: Expression<unknown>, pattern: string): RawBuilder<SqlBool>;
  /** The date part (YYYY-MM-DD) of a timestamp column, for day bucketing. */
  day(column: Expression<unknown>): RawBuilder<string>;
  /**
   * The business day (YYYY-MM-DD) of an instant (a timestamp column, or an ISO string parameter) in the IANA time
   * zone `zone` names (a warehouse's timezone column): a receipt at 23:30 in Los Angeles counts on that day there,
   * not on the next UTC day. Exact across DST on both engines.
   */
  /**
   * With `within` (the zones the rows may be in, and instants bounding them), SQLite computes the day natively from
   * the zones' offsets over those instants rather than calling local_day per row (a year of rows costs seconds so).
   */
  localDay(instant: Expression<unknown>, zone: Expression<string>, within?: ZonesWithin): RawBuilder<string>;
  /** A business day (YYYY-MM-DD) plus `days` calendar days. */
  addDays(day: Expression<string>, days: number): RawBuilder<string>;
  /** How many days the month of a business day (YYYY-MM-DD) has, as an integer. */
  daysInMonth(day: Expression<string>): RawBuilder<number>;
  /** A FROM item of the entries of a JSON object held as text: columns `key` and `value` (text), under `alias`. */
  jsonEntries(json: Expression<string>, alias: string): RawBuilder<unknown>;
}

/** The zones rows of a query may be in, and the instants (ISO) bounding those rows. */
export interface ZonesWithin { zones: readonly string[]; from: string; until: string }

/** SQLite: the local day from each zone's offsets over the bounds, as a CASE on the zone and the instant (ISO text compares in time order). */
function sqliteLocalDay(instant: Expression<unknown>, zone: Expression<string>, within: ZonesWithin): RawBuilder<string> {
  const from = Date.parse(within.from);
  const until = Date.parse(within.until);
  const shift = (minutes: number) => sql.lit(`${minutes >= 0 ? '+' : ''}${minutes} minutes`);
  const perZone = [...new Set(within.zones)].map((z) => {
    const segments = offsetSegments(z, from, until);
    const last = segments[segments.length - 1];
    const cases = segments.slice(0, -1).map((s) => sql`WHEN ${instant} < ${sql.lit(new Date(s.until).toISOString())} THEN ${shift(s.minutes)}`);
    return sql`WHEN ${sql.lit(z)} THEN ${cases.length ? sql`CASE ${sql.join(cases, sql` `)} ELSE ${shift(last.minutes)} END` : shift(last.minutes)}`;
  });
  if (perZone.length === 0) return sql<string>`local_day(${instant}, ${zone})`;
  // A zone not listed (none should be) falls to the exact per-row function.
  return sql<string>`coalesce(substr(datetime(${instant}, CASE ${zone} ${sql.join(perZone, sql` `)} ELSE NULL END), 1, 10), local_day(${instant}, ${zone}))`;
}

export function dialectFor(engine: Engine): Dialect {
  if (engine === 'postgres') {
    return {
      engine,
      timestampType: 'timestamptz',
      jsonType: 'jsonb',
      identity: (col) => col.generatedByDefaultAsIdentity().primaryKey(),
      ilike: (column, pattern) => sql<SqlBool>`${column} ILIKE ${pattern}`,
      day: (column) => sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
      // The cast makes a text parameter an instant; on a timestamptz column it is a no-op.
      localDay: (instant, zone) => sql<string>`to_char((${instant})::timestamptz AT TIME ZONE ${zone}, 'YYYY-MM-DD')`,
      addDays: (day, days) => sql<string>`to_char((${day})::date + ${sql.lit(Math.trunc(days))}, 'YYYY-MM-DD')`,
      daysInMonth: (day) => sql<number>`CAST(EXTRACT(DAY FROM date_trunc('month', (${day})::date) + interval '1 month - 1 day') AS INTEGER)`,
      jsonEntries: (json, alias) => sql`json_each_text(CAST(${json} AS json)) AS ${sql.id(alias)}`,
    };
  }
  return {
    engine,
    timestampType: 'text',
    jsonType: 'text',
    identity: (col) => col.primaryKey().autoIncrement(),
    // SQLite's LIKE is case-insensitive for ASCII already.
    ilike: (column, pattern) => sql<SqlBool>`${column} LIKE ${pattern}`,
    day: (column) => sql<string>`substr(${column}, 1, 10)`,
    // SQLite has no zone database: local_day is registered on the connection (registerSqliteFunctions) and asks
    // the runtime's (Intl's), which knows every offset change, so a day across a DST change is exact too.
    localDay: (instant, zone, within) => within ? sqliteLocalDay(instant, zone, within) : sql<string>`local_day(${instant}, ${zone})`,
    addDays: (day, days) => sql<string>`date(${day}, ${sql.lit(`${Math.trunc(days) >= 0 ? '+' : ''}${Math.trunc(days)} days`)})`,
    daysInMonth: (day) => sql<number>`CAST(strftime('%d', ${day}, 'start of month', '+1 month', '-1 day') AS INTEGER)`,
    jsonEntries: (json, alias) => sql`json_each(${json}) AS ${sql.id(alias)}`,
  };
}

const QUARTER_HOUR_MS = 15 * 60_000;

/** The SQL functions SQLite lacks that the dialect uses; called on every connection opened. */
export function registerSqliteFunctions(sqlite: SQLite.Database): void {
  // A report groups a year of rows by local day, calling this several times a row: Intl's formatting costs
  // microseconds each, so days are kept per zone and quarter hour (every zone's offset, and every change of it, falls
  // on a quarter hour, so a quarter hour of UTC lies within one local day).
  const days = new Map<string, string>();
  sqlite.function('local_day', { deterministic: true }, (instant: unknown, zone: unknown) => {
    // Timestamps are stored as ISO strings in UTC ('…Z'); anything unreadable has no day.
    const ms = typeof instant === 'string' ? Date.parse(instant) : NaN;
    if (Number.isNaN(ms)) return null;
    const z = typeof zone === 'string' ? zone : 'UTC';
    const key = `${z}\u0000${Math.floor(ms / QUARTER_HOUR_MS)}`;
    let day = days.get(key);
    if (day === undefined) {
      if (days.size >= 200_000) days.clear();
      day = businessDay(z, new Date(ms));
      days.set(key, day);
    }
    return day;
  });
}

/** Escapes LIKE wildcards in user input and wraps it for a contains-search. */
export function containsPattern(input: string): string {
  return `%${input.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type DbErrorKind = 'unique' | 'foreign_key' | 'check' | 'not_null' | 'busy' | 'serialization' | 'lock_timeout' | 'bad_value' | 'conflict' | null;

/**
 * The prefix of a refusal a statement raises itself (migration 0048's bolx_refuse) that answers 409 with the rest
 * of its message: a statement sent without waiting for its answer checks its own outcome so.
 */
export const SQL_CONFLICT = 'conflict:';

/** Classifies a driver error so the one error handler can answer 409/422 without leaking SQL. */
export function classifyDbError(err: unknown): DbErrorKind {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return null;
  switch (code) {
    case '23505': case 'SQLITE_CONSTRAINT_UNIQUE': case 'SQLITE_CONSTRAINT_PRIMARYKEY': return 'unique';
    case '23503': case 'SQLITE_CONSTRAINT_FOREIGNKEY': return 'foreign_key';
    case '23514': case 'SQLITE_CONSTRAINT_CHECK': return 'check';
    case '23502': case 'SQLITE_CONSTRAINT_NOTNULL': return 'not_null';
    case 'SQLITE_BUSY': case 'SQLITE_LOCKED': return 'busy';
    case '40001': case '40P01': return 'serialization';
    // A value the column cannot hold: out of range (an id past 2^31-1), a NUL byte or bad encoding in text, text
    // too long, a malformed number or date. The contracts refuse these first; this is the net behind them.
    case '22003': case '22021': case '22P05': case '22001': case '22P02': case '22007': case '22008': return 'bad_value';
    case '55P03': return 'lock_timeout';
    case 'P0001': return String((err as { message?: unknown }).message).startsWith(SQL_CONFLICT) ? 'conflict' : null;
    default: return null;
  }
}

/**
 * A read whose rows must stay put until commit (a count's snapshot, a pallet about to move): FOR UPDATE on
 * PostgreSQL — of the table aliased `of` only, when the read joins others. SQLite needs nothing: its one
 * connection runs one transaction at a time.
 */
export function lockRows<Q extends { forUpdate(of?: never): Q }>(d: Dialect, q: Q, of?: string): Q {
  if (d.engine !== 'postgres') return q;
  return of === undefined ? q.forUpdate() : q.forUpdate(of as never);
}

/**
 * A row taken as a mutex for a check over other rows (a location's capacity over its balances): FOR NO KEY
 * UPDATE on PostgreSQL, which still lets rows referencing it (new balances) be inserted meanwhile. SQLite: nothing.
 */
export function lockRowAsMutex<Q extends { forNoKeyUpdate(): Q }>(d: Dialect, q: Q): Q {
  return d.engine === 'postgres' ? q.forNoKeyUpdate() : q;
}

/**
 * lockRowAsMutex for the rows of one table of a join (by its alias): the other tables' rows are read, not taken
 * (a pick takes its orders' rows, not the locations and SKUs other pickers read too). SQLite: nothing.
 */
export function lockJoinedRowsAsMutex<Q extends { forNoKeyUpdate(of: never): Q }>(d: Dialect, q: Q, of: string): Q {
  return d.engine === 'postgres' ? q.forNoKeyUpdate(of as never) : q;
}

/**
 * Inserts one row, waiting at most `waitMs` for another transaction that holds the same unique key uncommitted:
 * when that one commits this fails as 'unique', when it is still running after the wait as 'lock_timeout'. On
 * PostgreSQL the bound (lock_timeout) is set inside the statement and restored by it, so it costs no statement of
 * its own and the rest of the transaction waits as usual; and the insert goes with the transaction's next
 * statement (db/pg-driver.ts writeBehind: for a last write, its COMMIT), so its failure is that statement's.
 * SQLite needs no bound: its one connection runs one transaction at a time, so the other has ended before this
 * one begins.
 */
export async function insertWaitingAtMost<T extends keyof DB & string>(
  d: Dialect, tx: Executor, table: T, row: { [C in keyof DB[T] & string]?: string | number | null }, waitMs: number,
): Promise<void> {
  const columns = Object.keys(row) as (keyof typeof row & string)[];
  const names = sql.join(columns.map((c) => sql.ref(c)));
  const values = sql.join(columns.map((c) => sql`${row[c]}`));
  if (d.engine === 'sqlite') {
    await sql`insert into ${sql.table(table)} (${names}) values (${values})`.execute(tx);
    return;
  }
  await writeBehind(tx, sql`insert into ${sql.table(table)} (${names})
    select ${values} from (select set_config('bolx.lock_timeout', current_setting('lock_timeout'), true),
                                  set_config('lock_timeout', ${`${Math.max(1, Math.round(waitMs))}ms`}, true)) as bounded
    returning set_config('lock_timeout', current_setting('bolx.lock_timeout'), true)`.compile(tx), () => undefined);
}
