import { compiledOnce } from '../db/compiled-once.js';
import type { Executor } from '../db/schema.js';
import type { Actor } from './actor.js';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  warehouseId?: number | null;
  customerId?: number | null;
  before?: unknown;
  after?: unknown;
}

const SECRET_KEYS = /password|secret|token|hash|pin|^api_?key$/i;

/** Never write credentials into the audit trail, whatever a caller passes. */
function redact(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redact(v)]),
    );
  }
  return value;
}

/** Writes one audit row. Call it with the transaction that makes the change, so both commit or neither. */
export async function writeAudit(tx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await writeAudits(tx, actor, [entry]);
}

/** Rows per INSERT: a bulk upload's thousands of rows stay under SQLite's 32,766 bound parameters (12 a row). */
export const AUDIT_ROWS_PER_STATEMENT = 1000;

/** Writes the audit rows of one change in one statement (one per thousand rows), in the change's transaction. */
export async function writeAudits(tx: Executor, actor: Actor, entries: AuditEntry[]): Promise<void> {
  const at = new Date().toISOString();
  for (let i = 0; i < entries.length; i += AUDIT_ROWS_PER_STATEMENT) {
    await insertAudits(tx, actor, at, entries.slice(i, i + AUDIT_ROWS_PER_STATEMENT));
  }
}

async function insertAudits(tx: Executor, actor: Actor, at: string, entries: AuditEntry[]): Promise<void> {
  const rows = auditRows(actor, at, entries);
  await insertAuditsOnce(tx, rows.length, ...rows.flatMap((r) => AUDIT_COLUMNS.map((c) => r[c] ?? null)));
}

type AuditRow = ReturnType<typeof auditRows>[number];
export const AUDIT_COLUMNS = ['at', 'user_id', 'username', 'action', 'entity', 'entity_id', 'warehouse_id', 'customer_id', 'before_json', 'after_json', 'request_id', 'ip'] as const satisfies readonly (keyof AuditRow)[];
/** A column auditRows writes but AUDIT_COLUMNS forgot fails to compile here. */
const everyColumn: [Exclude<keyof AuditRow, (typeof AUDIT_COLUMNS)[number]>] extends [never] ? true : never = true;
void everyColumn;

/** The audit insert of `count` rows compiled once per count: every change writes one, most of them one row. */
const insertAuditsOnce = compiledOnce(String, (db, count: number, ...values: unknown[]) => db.insertInto('audit_log')
  .values(Array.from({ length: count }, (_, row) => Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, values[row * AUDIT_COLUMNS.length + i]])) as AuditRow)));

/** The audit_log rows of some entries (at most AUDIT_ROWS_PER_STATEMENT for one statement), credentials redacted. */
export function auditRows(actor: Actor, at: string, entries: AuditEntry[]) {
  return entries.map((entry) => ({
    at,
    user_id: actor.userId,
    username: actor.username,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId == null ? null : String(entry.entityId),
    warehouse_id: entry.warehouseId ?? null,
    customer_id: entry.customerId ?? null,
    before_json: entry.before === undefined ? null : JSON.stringify(redact(entry.before)),
    after_json: entry.after === undefined ? null : JSON.stringify(redact(entry.after)),
    request_id: actor.requestId,
    ip: actor.ip,
  }));
}
