import { sql, type Insertable } from 'kysely';
import type { FloorEventKind } from '@bolx/contracts';
import { compiledOnce } from '../db/compiled-once.js';
import type { Executor } from '../db/schema.js';
import type { FloorEventTable } from '../db/tables/floor.js';
import type { Actor } from './actor.js';
import type { WarehouseTimeZones } from './business-day.js';
import type { UnitOfWork } from './unit-of-work.js';

/** Rows of one insert: 21 parameters each, well inside SQLite's 32,766 and PostgreSQL's 65,535. */
const EVENTS_PER_STATEMENT = 1000;

/** One floor step to record: what happened, where, to what. */
export interface FloorEvent {
  kind: FloorEventKind;
  warehouseId: number;
  customerId: number;
  jobId?: number | null;
  taskId?: number | null;
  orderId?: number | null;
  orderLineId?: number | null;
  cartonId?: number | null;
  skuId?: number | null;
  locationId?: number | null;
  quantity?: number;
  /** The document when no field above names it (RO, RMA, SHIPMENT, FREIGHT…) and its id. */
  docType?: string | null;
  docId?: number | null;
  /** A detail worth billing or reporting on (a return's disposition). */
  detail?: string | null;
  /** Money in minor units (a label's carrier charge). */
  amountMinor?: number | null;
  /** The inbound carton a receive step names (its label or LPN): receiving per carton bills each once. */
  cartonCode?: string | null;
}

/** A floor event row's columns in the order FloorEvents.values gives them (the gap apart: the statement takes it). */
const COLUMNS = [
  'kind', 'warehouse_id', 'customer_id', 'user_id', 'job_id', 'task_id', 'order_id', 'order_line_id', 'carton_id', 'sku_id', 'location_id', 'quantity',
  'doc_type', 'doc_id', 'detail', 'amount_minor', 'carton_code', 'at', 'at_ms', 'business_day',
] as const;
/** A column COLUMNS names that floor_event has not fails to compile here. */
const known: readonly (keyof FloorEventTable)[] = COLUMNS;
void known;
const USER = COLUMNS.indexOf('user_id');
const AT_MS = COLUMNS.indexOf('at_ms');

/** Some floor events as one insert takes them: COLUMNS' values row after row, and whether they have a user (a gap to take). */
export interface FloorEventValues { count: number; withUser: boolean; values: unknown[] }

/**
 * The insert of `count` events (COLUMNS' values a row, in order; compiledOnce's slots when compiled), answering
 * their ids. Only the first row carries the gap, taken from the user's latest event (index floor_event_user).
 */
export function floorEventInsert(db: Executor, { count, withUser, values }: FloorEventValues) {
  const at = (row: number, column: number) => values[row * COLUMNS.length + column];
  const gap = withUser
    ? sql<number | null>`(SELECT CAST((${at(0, AT_MS)} - MAX(at_ms)) / 1000 AS INTEGER) FROM floor_event WHERE user_id = ${at(0, USER)})`
    : sql<number | null>`NULL`;
  const rows = Array.from({ length: count }, (_, row) => ({
    ...Object.fromEntries(COLUMNS.map((c, i) => [c, at(row, i)])) as Insertable<FloorEventTable>,
    seconds_since_previous: row === 0 ? gap : 0,
  }));
  return db.insertInto('floor_event').values(rows).returning('id');
}

/** floorEventInsert compiled once per count and user for a few events (a pick, a pack scan: one each); more are built each time. */
const FEW_EVENTS = 16;
const insertOnce = compiledOnce((s: { count: number; withUser: boolean }) => `${s.count}|${s.withUser}`,
  (db, s, ...values: unknown[]) => floorEventInsert(db, { ...s, values }));

/**
 * The floor's event log (pick, short, pack, ship…): who, when, where, and seconds since the same user's previous
 * event, which labour reports and billing read without joining the documents. Written in the caller's transaction,
 * one statement for up to EVENTS_PER_STATEMENT events; the gap is taken by the statement itself from the user's
 * latest event (index floor_event_user), so it costs no read. Events of one call share one moment: only the first
 * carries the gap.
 */
export class FloorEvents {
  constructor(private readonly timeZones: WarehouseTimeZones) {}

  /** Answers the events' ids, in the order given. */
  async record(uow: UnitOfWork, actor: Actor, events: FloorEvent[], at: Date = new Date()): Promise<{ id: number }[]> {
    if (events.length === 0) return [];
    const { withUser, values } = await this.values(uow, actor, events, at);
    // A 5,000-line receipt put away records 10,000 events: within both engines' bound on parameters a statement.
    const ids: { id: number }[] = [];
    const perRow = COLUMNS.length;
    for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT) {
      const count = Math.min(EVENTS_PER_STATEMENT, events.length - i);
      const part = count <= FEW_EVENTS ? await insertOnce(uow.tx, { count, withUser }, ...values.slice(i * perRow, (i + count) * perRow))
        : await floorEventInsert(uow.tx, { count, withUser, values: values.slice(i * perRow, (i + count) * perRow) }).execute();
      ids.push(...part.map((r) => ({ id: Number(r.id) })));
    }
    // Ids are drawn in the rows' order on both engines; sorted, so the answer does not rest on RETURNING's order.
    return ids.sort((a, b) => a.id - b.id);
  }

  /**
   * The values of a few events (at most EVENTS_PER_STATEMENT) for floorEventInsert, for a caller that sends the
   * insert inside a statement of its own (PostgreSQL's data-modifying WITH: picking's one statement per pick).
   */
  async values(uow: UnitOfWork, actor: Actor, events: FloorEvent[], at: Date): Promise<FloorEventValues> {
    if (events.length === 0) throw new Error('No floor events to write');
    const iso = at.toISOString();
    const ms = at.getTime();
    const days = new Map<number, string>();
    for (const id of new Set(events.map((e) => e.warehouseId))) days.set(id, await this.timeZones.dayOf(id, at, uow.tx));
    const userId = actor.userId ?? null;
    const values = events.flatMap((e) => [
      e.kind, e.warehouseId, e.customerId, userId, e.jobId ?? null, e.taskId ?? null, e.orderId ?? null, e.orderLineId ?? null,
      e.cartonId ?? null, e.skuId ?? null, e.locationId ?? null, e.quantity ?? 0, e.docType ?? null, e.docId ?? null, e.detail ?? null,
      e.amountMinor ?? null, e.cartonCode || null, iso, ms, days.get(e.warehouseId)!,
    ] satisfies { [K in keyof typeof COLUMNS]: unknown });
    return { count: events.length, withUser: userId !== null, values };
  }
}

/** A user's picks and unpicks of a job, oldest first: the stack an undo works on. */
export function jobPickEvents(db: Executor, jobId: number, userId: number) {
  return db.selectFrom('floor_event').select(['id', 'kind', 'task_id', 'quantity', 'at'])
    .where('job_id', '=', jobId).where('user_id', '=', userId).where('kind', 'in', ['pick', 'unpick']).orderBy('id').execute();
}

/** The pick an undo takes back: picks and unpicks as a stack, each unpick having taken the latest pick still standing. */
export function standingPick<E extends { kind: string }>(events: E[]): E | undefined {
  const standing: E[] = [];
  for (const e of events) {
    if (e.kind === 'pick') standing.push(e);
    else standing.pop();
  }
  return standing.at(-1);
}
