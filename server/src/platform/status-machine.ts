import { sql, type AliasedRawBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { ERROR_CODES, mayTransition, sourcesOf, type DocumentKind, type DocumentStatus } from '@bolx/contracts';
import { compiledOnce } from '../db/compiled-once.js';
import type { DB } from '../db/schema.js';
import type { Dialect } from '../db/dialect.js';
import type { Actor } from './actor.js';
import type { Change, ChangeRecorder } from './change-recorder.js';
import { AppError, notFound } from './errors.js';
import type { UnitOfWork } from './unit-of-work.js';

/** Where each kind of document keeps its status (a `status` column), and what the answers call it. */
export const DOCUMENT_TABLES: { [K in DocumentKind]: { table: keyof DB & string; label: string } } = {
  RECEIVING_ORDER: { table: 'receiving_order', label: 'Receiving order' },
  CYCLE_COUNT: { table: 'cycle_count', label: 'Cycle count' },
  ADJUSTMENT: { table: 'adjustment_request', label: 'Adjustment' },
  REPLENISHMENT_TASK: { table: 'replenishment_task', label: 'Replenishment task' },
  SALES_ORDER: { table: 'sales_order', label: 'Order' },
  KIT_WORK_ORDER: { table: 'kit_work_order', label: 'Work order' },
  WAVE: { table: 'wave', label: 'Wave' },
  PICK_JOB: { table: 'pick_job', label: 'Pick job' },
  SHIPMENT: { table: 'shipment', label: 'Shipment' },
  INVOICE: { table: 'invoice', label: 'Invoice' },
  RMA: { table: 'rma', label: 'RMA' },
  FREIGHT_SHIPMENT: { table: 'freight_shipment', label: 'Freight shipment' },
  TICKET: { table: 'ticket', label: 'Ticket' },
};

type Row = Record<string, unknown>;

export interface TransitionRequest<K extends DocumentKind> {
  kind: K;
  id: number;
  to: DocumentStatus<K>;
  /**
   * The statuses to move from: by default every one the table allows into `to`; a narrower set where the action
   * means less. May name `to` itself: a document already there is then held (locked, its other columns written)
   * without a transition or a history row — receiving's first scan moves Open → Receiving, the later ones stay.
   */
  from?: readonly DocumentStatus<K>[];
  reason?: string | null;
  /** Other columns written with the status in the same statement (timestamps, who decided). */
  set?: Row;
  /** More columns the statement answers (correlated subqueries of the row, naming the table), each aliased. */
  returning?: AliasedRawBuilder<unknown, string>[];
  /** A further condition on the row (naming the table), e.g. "nothing left to put away". */
  when?: RawBuilder<SqlBool>;
  /** Answer undefined instead of 409 when the document is not in a status (or condition) to move: a move that happens when it can. */
  ifPossible?: boolean;
  /** The 409's message, when the module has a better word than "X is A; it cannot become B". */
  refusal?: (current: string) => string;
  /** The change (audit + hub event) this transition makes, recorded with it through the change recorder. */
  change?: Change | ((row: Row) => Change);
}

/** Documents per statement in the batch moves: well inside both engines' bound-parameter limits. */
const MANY = 400;

const refused = (message: string, current: string, requested: string) =>
  new AppError(409, ERROR_CODES.CONFLICT, message, { status: current, requestedStatus: requested });

/**
 * The one status machine. A transition is one conditional UPDATE of the document's row from one of the allowed
 * statuses (the contracts' table decides which): it answers 409, naming the document's status and the one asked,
 * when the document is in another, and 404 when there is none. Each transition writes a history row, and the
 * change the caller passes (audit + hub event) through the change recorder, all in the caller's transaction.
 *
 * The history row needs the status the row had. PostgreSQL's UPDATE answers it from the row it locked (a
 * self-join FOR UPDATE, which reads the newest committed version, so a concurrent transition is seen); SQLite runs
 * one transaction at a time, so its history row is written from the row just before the UPDATE, which no one can
 * change in between. Either way two statements.
 */
export class StatusMachine {
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  constructor(deps: { dialect: Dialect; recorder: ChangeRecorder }) {
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  async transition<K extends DocumentKind, R extends Row = Row>(uow: UnitOfWork, actor: Actor, req: TransitionRequest<K> & { ifPossible: true }): Promise<(R & { previous_status: string }) | undefined>;
  async transition<K extends DocumentKind, R extends Row = Row>(uow: UnitOfWork, actor: Actor, req: TransitionRequest<K>): Promise<R & { previous_status: string }>;
  async transition<K extends DocumentKind, R extends Row = Row>(uow: UnitOfWork, actor: Actor, req: TransitionRequest<K>): Promise<(R & { previous_status: string }) | undefined> {
    const { table, label } = DOCUMENT_TABLES[req.kind];
    const to = req.to as string;
    const from = (req.from as readonly string[] | undefined) ?? sourcesOf(req.kind, to);
    // A source the table does not allow is the caller's mistake, never the user's.
    const illegal = from.filter((s) => s !== to && !mayTransition(req.kind, s, to));
    if (illegal.length || from.length === 0) throw new Error(`${req.kind}: no transition ${illegal.join('/') || '(none)'} → ${to}`);
    const moving = from.filter((s) => s !== to);
    const at = new Date().toISOString();
    const sets = sql.join([sql`status = ${to}`, ...Object.entries(req.set ?? {}).filter(([, v]) => v !== undefined).map(([c, v]) => sql`${sql.ref(c)} = ${v}`)]);
    const extra = req.returning?.length ? sql`, ${sql.join(req.returning)}` : sql``;
    const when = req.when ? sql` and ${req.when}` : sql``;
    const history = (previous: string) => sql`(${req.kind}, ${req.id}, ${previous}, ${to}, ${at}, ${actor.userId}, ${actor.username}, ${req.reason ?? null})`;
    const columns = sql`(kind, document_id, from_status, to_status, at, user_id, username, reason)`;

    let row: (Row & { previous_status: string }) | undefined;
    if (this.dialect.engine === 'postgres') {
      const r = await sql<Row & { previous_status: string }>`
        update ${sql.table(table)} set ${sets}
        from (select id, status from ${sql.table(table)} where id = ${req.id} for update) as prev
        where ${sql.ref(`${table}.id`)} = prev.id and prev.status in (${sql.join(from)})${when}
        returning ${sql.table(table)}.*, prev.status as previous_status${extra}`.execute(uow.tx);
      row = r.rows[0];
      if (row && row.previous_status !== to) await sql`insert into document_status_history ${columns} values ${history(row.previous_status)}`.execute(uow.tx);
    } else {
      const written = moving.length
        ? (await sql<{ from_status: string }>`insert into document_status_history ${columns}
            select ${req.kind}, id, status, ${to}, ${at}, ${actor.userId}, ${actor.username}, ${req.reason ?? null}
            from ${sql.table(table)} where id = ${req.id} and status in (${sql.join(moving)})${when} returning from_status`.execute(uow.tx)).rows[0]
        : undefined;
      const r = await sql<Row>`update ${sql.table(table)} set ${sets} where id = ${req.id} and status in (${sql.join(from)})${when} returning *${extra}`.execute(uow.tx);
      row = r.rows[0] && { ...r.rows[0], previous_status: written?.from_status ?? to };
    }
    if (!row) {
      if (req.ifPossible) return undefined;
      throw await this.refusal(uow, table, label, req.id, to, req.refusal);
    }
    if (row.previous_status !== to) {
      // Modules that follow documents (labour counts, billing, backorders) subscribe to this, whatever the kind.
      const owner = { warehouseId: numberOr(row.warehouse_id), customerId: numberOr(row.customer_id) };
      await this.recorder.raise(uow, actor, 'document.status-changed', { kind: req.kind, documentId: req.id, from: row.previous_status, to, ...owner });
    }
    if (req.change) await this.recorder.record(uow, actor, typeof req.change === 'function' ? req.change(row) : req.change);
    return row as R & { previous_status: string };
  }

  /**
   * Holds a document for the transaction while it is in one of these statuses, changing no status (its other
   * columns may be written): the same conditional UPDATE, 409 or 404 the same way, no history row.
   */
  async hold<K extends DocumentKind, R extends Row = Row>(uow: UnitOfWork, req: {
    kind: K; id: number; in: readonly DocumentStatus<K>[]; set?: Row; returning?: AliasedRawBuilder<unknown, string>[]; refusal?: (current: string) => string;
  }): Promise<R> {
    const { table, label } = DOCUMENT_TABLES[req.kind];
    const entries = Object.entries(req.set ?? {}).filter(([, v]) => v !== undefined);
    const sets = entries.length ? sql.join(entries.map(([c, v]) => sql`${sql.ref(c)} = ${v}`)) : sql`status = status`;
    const extra = req.returning?.length ? sql`, ${sql.join(req.returning)}` : sql``;
    const r = await sql<Row>`update ${sql.table(table)} set ${sets} where id = ${req.id} and status in (${sql.join(req.in as readonly string[])}) returning *${extra}`.execute(uow.tx);
    if (!r.rows[0]) throw await this.refusal(uow, table, label, req.id, null, req.refusal);
    return r.rows[0] as R;
  }

  /**
   * `hold` for many documents of a kind at once: one conditional UPDATE (on PostgreSQL the rows locked in id order,
   * so two batches over the same documents take turns). Answers the rows held, and for each document not held its
   * refusal (404, or 409 naming its status) — one statement more, only when some are refused.
   */
  async holdMany<K extends DocumentKind, R extends Row = Row>(uow: UnitOfWork, req: {
    kind: K; ids: number[]; in: readonly DocumentStatus<K>[]; returning?: AliasedRawBuilder<unknown, string>[]; refusal?: (current: string) => string;
    /** The status the caller means to move them to (the refusal's requestedStatus); default: none, a hold. */
    to?: DocumentStatus<K>;
  }): Promise<{ held: R[]; refused: Map<number, AppError> }> {
    const { table, label } = DOCUMENT_TABLES[req.kind];
    const ids = [...new Set(req.ids)];
    const held: R[] = [];
    const refusals = new Map<number, AppError>();
    if (ids.length === 0) return { held, refused: refusals };
    const statuses = req.in as readonly string[];
    for (let i = 0; i < ids.length; i += MANY) {
      const part = ids.slice(i, i + MANY);
      const shape = { pg: this.dialect.engine === 'postgres', table, ids: part.length, statuses: statuses.length, returning: req.returning };
      held.push(...(await holdOnce(uow.tx, shape, ...part, ...statuses)) as R[]);
    }
    const got = new Set(held.map((row) => Number(row.id)));
    const missing = ids.filter((id) => !got.has(id));
    if (missing.length) {
      const now = new Map<number, string>();
      for (let i = 0; i < missing.length; i += MANY) {
        const r = await sql<{ id: number; status: string }>`select id, status from ${sql.table(table)} where id in (${sql.join(missing.slice(i, i + MANY))})`.execute(uow.tx);
        for (const row of r.rows) now.set(Number(row.id), row.status);
      }
      for (const id of missing) {
        const status = now.get(id);
        refusals.set(id, status === undefined ? notFound(label)
          : refused(req.refusal?.(status) ?? (req.to ? `${label} is ${status}; it cannot become ${req.to as string}` : `${label} is ${status}; this cannot be done now`),
            status, (req.to as string | undefined) ?? status));
      }
    }
    return { held, refused: refusals };
  }

  /**
   * Many documents of a kind moved at once, each to its own status, from `from` (which every target must allow):
   * on PostgreSQL one UPDATE of the rows locked in id order and one INSERT of their history rows; on SQLite (one
   * writer) the history rows first, from the rows as they are, then the UPDATE. Per 400 documents. A document not
   * in a status to move is refused as `transition` refuses it (409/404), and the whole call with it: hold them
   * first (`holdMany`). A document already at its target is written (`set`) with no history row, as `transition`
   * does. Answers the rows with their previous status. `set`: other columns and their values (plain values, not SQL:
   * on SQLite they are parameters of a statement compiled once).
   */
  async transitionMany<K extends DocumentKind, R extends Row = Row>(uow: UnitOfWork, actor: Actor, req: {
    kind: K; moves: { id: number; to: DocumentStatus<K> }[]; from: readonly DocumentStatus<K>[]; reason?: string | null; set?: Row;
  }): Promise<(R & { previous_status: string })[]> {
    const { table, label } = DOCUMENT_TABLES[req.kind];
    const from = req.from as readonly string[];
    for (const to of new Set(req.moves.map((m) => m.to as string))) {
      const illegal = from.filter((s) => s !== to && !mayTransition(req.kind, s, to));
      if (illegal.length || from.length === 0) throw new Error(`${req.kind}: no transition ${illegal.join('/') || '(none)'} → ${to}`);
    }
    const at = new Date().toISOString();
    const pg = this.dialect.engine === 'postgres';
    const setEntries = Object.entries(req.set ?? {}).filter(([, v]) => v !== undefined);
    const rows: (Row & { previous_status: string })[] = [];
    for (let i = 0; i < req.moves.length; i += MANY) {
      const moves = req.moves.slice(i, i + MANY);
      let part: (Row & { previous_status: string })[];
      if (pg) {
        const values = sql.join(moves.map((m) => sql`(cast(${m.id} as integer), cast(${m.to} as text))`));
        const ids = sql.join(moves.map((m) => m.id));
        const sets = sql.join([sql`status = v.to_status`, ...setEntries.map(([c, v]) => sql`${sql.ref(c)} = ${v}`)]);
        part = (await sql<Row & { previous_status: string }>`
          with v(id, to_status) as (values ${values})
          update ${sql.table(table)} set ${sets}
          from v, (select id, status from ${sql.table(table)} where id in (${ids}) order by id for update) as prev
          where ${sql.ref(`${table}.id`)} = v.id and prev.id = v.id and prev.status in (${sql.join(from)})
          returning ${sql.table(table)}.*, prev.status as previous_status`.execute(uow.tx)).rows;
        const changed = part.filter((r) => r.previous_status !== r.status);
        if (changed.length) {
          await sql`insert into document_status_history (kind, document_id, from_status, to_status, at, user_id, username, reason) values ${sql.join(changed.map((r) =>
            sql`(${req.kind}, ${r.id}, ${r.previous_status}, ${r.status}, ${at}, ${actor.userId}, ${actor.username}, ${req.reason ?? null})`))}`.execute(uow.tx);
        }
      } else {
        // SQLite: both statements compiled once per shape (every allocation runs them). Values: the moves, then the rest.
        const shape = { table, moves: moves.length, from: from.length, set: setEntries.map(([c]) => c) };
        const rest = [req.kind, at, actor.userId, actor.username, req.reason ?? null, ...from, ...setEntries.map(([, v]) => v)];
        const movesValues = moves.flatMap((m) => [m.id, m.to]);
        const written = await historyFirstOnce(uow.tx, shape, ...movesValues, ...rest);
        const previous = new Map(written.map((w) => [Number(w.document_id), w.from_status]));
        part = (await updateToOnce(uow.tx, shape, ...movesValues, ...rest)).map((r) => ({ ...r, previous_status: previous.get(Number(r.id)) ?? (r.status as string) }));
      }
      if (part.length < moves.length) {
        const got = new Set(part.map((r) => Number(r.id)));
        const first = moves.find((m) => !got.has(m.id))!;
        throw await this.refusal(uow, table, label, first.id, first.to as string);
      }
      rows.push(...part);
    }
    const moved = rows.filter((r) => r.previous_status !== r.status);
    if (moved.length) {
      // As `transition`: modules that follow documents subscribe to this, whatever the kind.
      await this.recorder.domainEvents.raise(uow, actor, moved.map((r) => ({
        name: 'document.status-changed' as const,
        payload: { kind: req.kind, documentId: Number(r.id), from: r.previous_status, to: r.status as string, warehouseId: numberOr(r.warehouse_id), customerId: numberOr(r.customer_id) },
      })));
    }
    return rows as (R & { previous_status: string })[];
  }

  /** The answer to a refused transition: 404 for no document, else 409 naming its status and the one asked. */
  private async refusal(uow: UnitOfWork, table: string, label: string, id: number, to: string | null, message?: (current: string) => string) {
    const now = (await sql<{ status: string }>`select status from ${sql.table(table)} where id = ${id}`.execute(uow.tx)).rows[0];
    if (!now) return notFound(label);
    const text = message?.(now.status) ?? (to ? `${label} is ${now.status}; it cannot become ${to}` : `${label} is ${now.status}; this cannot be done now`);
    return refused(text, now.status, to ?? now.status);
  }
}

/** A `returning` list's key for compiledOnce: the same list object (a module's constant), the same key. */
const returningKeys = new WeakMap<object, number>();
let returningLists = 0;
const keyOfReturning = (returning?: readonly unknown[]) => {
  if (!returning?.length) return 0;
  let key = returningKeys.get(returning);
  if (key === undefined) returningKeys.set(returning, (key = ++returningLists));
  return key;
};

/**
 * holdMany's UPDATE, compiled once per shape (table, how many ids and statuses, the `returning` list): every
 * allocation runs it, and building it cost more than SQLite's run of it. A `returning` made afresh per call is a new
 * shape each time, so callers that hold often keep theirs in a constant.
 */
const holdOnce = compiledOnce(
  (s: { pg: boolean; table: string; ids: number; statuses: number; returning?: AliasedRawBuilder<unknown, string>[] }) =>
    `${s.pg}|${s.table}|${s.ids}|${s.statuses}|${keyOfReturning(s.returning)}`,
  (_db, s, ...values: unknown[]) => {
    const table = sql.table(s.table);
    const part = sql.join(values.slice(0, s.ids));
    const statuses = sql.join(values.slice(s.ids));
    const extra = s.returning?.length ? sql`, ${sql.join(s.returning)}` : sql``;
    return s.pg
      ? sql<Row>`update ${table} set status = ${sql.ref(`${s.table}.status`)}
          from (select id from ${table} where id in (${part}) and status in (${statuses}) order by id for update) as held
          where ${sql.ref(`${s.table}.id`)} = held.id returning ${table}.*${extra}`
      : sql<Row>`update ${table} set status = status where id in (${part}) and status in (${statuses}) returning *${extra}`;
  },
);

/** The shape of transitionMany's SQLite statements: which table, how many moves, from-statuses and `set` columns. */
interface TransitionShape { table: string; moves: number; from: number; set: string[] }
const keyOfTransition = (s: TransitionShape) => `${s.table}|${s.moves}|${s.from}|${s.set.join(',')}`;
/** transitionMany's values on SQLite, from compiledOnce's slots: the moves (id, to), then kind, at, user, reason, from, set. */
function transitionValues(s: TransitionShape, values: unknown[]) {
  const m = 2 * s.moves;
  const [kind, at, userId, username, reason] = values.slice(m, m + 5);
  return {
    moves: sql.join(Array.from({ length: s.moves }, (_, i) => sql`(${values[2 * i]}, ${values[2 * i + 1]})`)),
    kind, at, userId, username, reason,
    from: sql.join(values.slice(m + 5, m + 5 + s.from)),
    sets: values.slice(m + 5 + s.from).map((v, i) => sql`${sql.ref(s.set[i])} = ${v}`),
  };
}
/** transitionMany's history rows on SQLite (written first, from the rows as they are), compiled once per shape. */
const historyFirstOnce = compiledOnce(keyOfTransition, (_db, s: TransitionShape, ...values: unknown[]) => {
  const v = transitionValues(s, values);
  return sql<{ document_id: number; from_status: string }>`
    with v(id, to_status) as (values ${v.moves})
    insert into document_status_history (kind, document_id, from_status, to_status, at, user_id, username, reason)
    select ${v.kind}, t.id, t.status, v.to_status, ${v.at}, ${v.userId}, ${v.username}, ${v.reason}
    from ${sql.table(s.table)} t join v on v.id = t.id where t.status in (${v.from}) and t.status <> v.to_status
    returning document_id, from_status`;
});
/** transitionMany's UPDATE on SQLite, compiled once per shape. */
const updateToOnce = compiledOnce(keyOfTransition, (_db, s: TransitionShape, ...values: unknown[]) => {
  const v = transitionValues(s, values);
  return sql<Row>`
    with v(id, to_status) as (values ${v.moves})
    update ${sql.table(s.table)} set ${sql.join([sql`status = v.to_status`, ...v.sets])} from v
    where ${sql.ref(`${s.table}.id`)} = v.id and ${sql.ref(`${s.table}.status`)} in (${v.from})
    returning *`;
});

const numberOr = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : undefined);
