import type SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * Counts every statement the app sends to its driver (both engines, BEGIN and COMMIT included), as the bench's
 * trace records them. `take()` answers the statements since the last take; `restore()` unpatches the drivers.
 */
export function statementCounter(sqlite?: SQLite.Database) {
  const seen: string[] = [];
  const restore: (() => void)[] = [];
  const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    seen.push(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text ?? args[0]));
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
    take(): string[] { return seen.splice(0, seen.length); },
    restore() { for (const r of restore.reverse()) r(); },
  };
}

/**
 * PostgreSQL's delivery of committed events to the hub, after (and outside) the request's transaction: the
 * announcement of their ids (platform/events.ts) and each node's listener loading them. Not a request's own work.
 */
export const isHubDelivery = (q: string) => /^select \* from "event_outbox" where "id" in|^select set_config\('synchronous_commit', 'off', true\), pg_notify/.test(q);
