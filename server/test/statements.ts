import type SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * Counts every statement the app sends to its driver (both engines, BEGIN and COMMIT included), as the bench's
 * trace records them, and on PostgreSQL its round trips (db/pg-driver.ts sends some statements together). `take()`
 * answers the statements since the last take; `restore()` unpatches the drivers.
 */
export function statementCounter(sqlite?: SQLite.Database) {
  const seen: string[] = [];
  /** PostgreSQL: the statements of each round trip (a batch carries several). */
  const trips: string[][] = [];
  const restore: (() => void)[] = [];
  const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as { text?: string; statements?: { text: string }[] } | string;
    // A batch (server/src/db/pg-driver.ts) is several statements in one round trip: each counts.
    const texts = typeof config !== 'string' && Array.isArray(config?.statements) ? config.statements.map((s) => s.text)
      : [typeof config === 'string' ? config : String(config?.text ?? config)];
    seen.push(...texts);
    trips.push(texts);
    return query.apply(this, args);
  };
  restore.push(() => { clientProto.query = query; });
  if (sqlite) {
    const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
    for (const method of ['all', 'run', 'get', 'iterate']) {
      const original = proto[method];
      proto[method] = function (this: { source: string }, ...args: unknown[]) { seen.push(this.source); return original.apply(this, args); };
      restore.push(() => { proto[method] = original; });
    }
  }
  return {
    take(): string[] { trips.length = 0; return seen.splice(0, seen.length); },
    /** PostgreSQL's round trips since the last take (each the statements it carried); taken too. */
    takeTrips(): string[][] { seen.length = 0; return trips.splice(0, trips.length); },
    restore() { for (const r of restore.reverse()) r(); },
  };
}

/**
 * PostgreSQL's delivery of committed events to the hub, after (and outside) the request's transaction: the
 * announcement of their ids (platform/events.ts) and each node's listener loading them. Not a request's own work.
 */
export const isHubDelivery = (q: string) => /^select \* from "event_outbox" where "id" in|^select set_config\('synchronous_commit', 'off', true\), pg_notify/.test(q);
