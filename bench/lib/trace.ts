// Records the statements the real app sends to its driver while it serves a request, and replays them through
// the same driver. The inventory cases' raw baseline is such a replay: exactly the app's SQL, with its
// transaction boundaries, and nothing else — no framework, validation, service logic or JSON mapping.
import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import pg from 'pg';
import type { RawDb } from './raw-db.js';
import type { SqlTemplate } from './sql-capture.js';

/** A request of an inventory case, exactly as the load sends it (the body is the key of its trace). */
export interface BenchRequest { method: 'POST'; path: string; body: string }
/** A case's load: each slot is a sequence of requests that one connection sends in order, again and again. */
export interface CapturedCase { slots: BenchRequest[][] }
/** What a capture child writes: the load of each case, signed in as `token`, and the trace of every request. */
export interface CapturedRequests<K extends string = string> {
  token: string;
  cases: Record<K, CapturedCase>;
  /** By traceKey(request). */
  traces: Record<string, Trace>;
  /** What the capture found, for the log (say, each list's total). */
  notes?: string[];
}
export interface Captured extends CapturedRequests<'receive' | 'move' | 'soh' | 'asexpected'> {
  warehouseId: number;
  customerId: number;
}

export const traceKey = (method: string, path: string, body: string) => `${method} ${path}\n${body}`;

/** conn: which pg client sent it (concurrent requests interleave; each client's transactions stay whole). */
export interface Statement { sql: string; params: unknown[]; conn?: number }
export type Trace = Statement[];

/** Timestamps and ids the app makes per request: a replay makes fresh ones (same id → same new id within a replay). */
const ISO_NOW = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

let sink: Trace | null = null;

/**
 * Starts recording every statement sent to pg or better-sqlite3 in this process (patching the drivers'
 * prototypes; only ever done in the short-lived capture child). Returns `take()`, which answers what was
 * recorded since the last take.
 */
export function recordStatements(sqlite?: SQLite.Database): { take(): Trace } {
  const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = clientProto.query;
  const conns = new WeakMap<object, number>();
  let nextConn = 0;
  const connOf = (client: object) => { let n = conns.get(client); if (n === undefined) conns.set(client, (n = nextConn++)); return n; };
  clientProto.query = function (this: object, ...args: unknown[]) {
    // A text and its values, or a query config: a prepared statement (server/src/db/pg-prepared.ts) is a config.
    const config = args[0] as { text?: unknown; values?: unknown; statements?: { text: string; values: unknown[] }[] } | string;
    // A batch (server/src/db/pg-driver.ts: BEGIN with the first statement, the last writes with COMMIT): each statement.
    const statements = typeof config !== 'string' && Array.isArray(config?.statements) ? config.statements.map((s) => [s.text, s.values] as const)
      : [typeof config === 'string' ? [config, args[1]] as const : [config?.text, config?.values] as const];
    for (const [text, values] of statements) {
      if (sink && typeof text === 'string') sink.push({ sql: text, params: Array.isArray(values) ? [...(values as unknown[])] : [], conn: connOf(this) });
    }
    return query.apply(this, args);
  };
  if (sqlite) {
    const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
    for (const method of ['all', 'run', 'get', 'iterate']) {
      const original = proto[method];
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        if (sink) sink.push({ sql: this.source, params: Array.isArray(args[0]) ? [...(args[0] as unknown[])] : args });
        return original.apply(this, args);
      };
    }
  }
  sink = [];
  return {
    take() {
      const out = sink ?? [];
      sink = [];
      return out;
    },
  };
}

type Binder = (ids: Map<string, string>) => unknown;

function binder(param: unknown): Binder {
  if (typeof param !== 'string' || !(param.match(ISO_NOW) || param.match(UUID))) return () => param;
  return (ids) => param
    .replace(ISO_NOW, () => new Date().toISOString())
    .replace(UUID, (old) => {
      let fresh = ids.get(old);
      if (!fresh) ids.set(old, (fresh = randomUUID()));
      return fresh;
    });
}

const isBegin = (s: string) => /^\s*begin\b/i.test(s);
const isEnd = (s: string) => /^\s*(commit|rollback)\b/i.test(s);

/** A trace made ready to replay: statements outside transactions, and each transaction's as one block. */
export function replayer(trace: Trace): (db: RawDb) => Promise<void> {
  interface Prepared { sql: string; binders: Binder[] }
  type Step = { outside: Prepared } | { block: Prepared[] };
  const steps: Step[] = [];
  let block: Prepared[] | null = null;
  for (const st of trace) {
    if (isBegin(st.sql)) { block = []; continue; }
    if (isEnd(st.sql)) { if (block) steps.push({ block }); block = null; continue; }
    const prepared = { sql: st.sql, binders: st.params.map(binder) };
    if (block) block.push(prepared);
    else steps.push({ outside: prepared });
  }
  if (block) throw new Error('bench: a captured transaction never ended');
  return async (db) => {
    const ids = new Map<string, string>();
    const bound = (p: Prepared): SqlTemplate => ({ sql: p.sql, bind: () => p.binders.map((b) => b(ids)) });
    for (const step of steps) {
      if ('block' in step) {
        await db.transaction(async (tx) => {
          for (const p of step.block) await tx.all(bound(p), {});
        });
      } else {
        await db.all(bound(step.outside), {});
      }
    }
  };
}

/**
 * A trace of concurrent requests split into the units one connection sent whole: each transaction (its own
 * connection's statements from begin to commit) and each statement outside one, in the order they started.
 */
export function traceUnits(trace: Trace): Trace[] {
  const units: Trace[] = [];
  const open = new Map<number, Trace>();
  for (const st of trace) {
    const conn = st.conn ?? -1;
    const block = open.get(conn);
    if (isBegin(st.sql)) { const b = [st]; open.set(conn, b); units.push(b); continue; }
    if (block) { block.push(st); if (isEnd(st.sql)) open.delete(conn); continue; }
    units.push([st]);
  }
  return units;
}
