import { sql } from 'kysely';
import type { FloorEventKind } from '@bolx/contracts';
import type { Executor } from '../db/schema.js';
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
    const rows = await this.rows(uow, actor, events, at);
    // A 5,000-line receipt put away records 10,000 events: within both engines' bound on parameters a statement.
    const ids: { id: number }[] = [];
    for (let i = 0; i < rows.length; i += EVENTS_PER_STATEMENT) {
      const part = await uow.tx.insertInto('floor_event').values(rows.slice(i, i + EVENTS_PER_STATEMENT)).returning('id').execute();
      ids.push(...part.map((r) => ({ id: Number(r.id) })));
    }
    // Ids are drawn in the rows' order on both engines; sorted, so the answer does not rest on RETURNING's order.
    return ids.sort((a, b) => a.id - b.id);
  }

  /**
   * The insert of a few events (at most EVENTS_PER_STATEMENT), answering their ids, for a caller that sends it inside
   * a statement of its own (PostgreSQL's data-modifying WITH: picking's one statement per pick).
   */
  async insert(uow: UnitOfWork, actor: Actor, events: FloorEvent[], at: Date) {
    if (events.length === 0 || events.length > EVENTS_PER_STATEMENT) throw new Error(`1 to ${EVENTS_PER_STATEMENT} floor events a statement`);
    return uow.tx.insertInto('floor_event').values(await this.rows(uow, actor, events, at)).returning('id');
  }

  private async rows(uow: UnitOfWork, actor: Actor, events: FloorEvent[], at: Date) {
    const iso = at.toISOString();
    const ms = at.getTime();
    const days = new Map<number, string>();
    for (const id of new Set(events.map((e) => e.warehouseId))) days.set(id, await this.timeZones.dayOf(id, at, uow.tx));
    const userId = actor.userId ?? null;
    const gap = userId === null
      ? sql<number | null>`NULL`
      : sql<number | null>`(SELECT CAST((${ms} - MAX(at_ms)) / 1000 AS INTEGER) FROM floor_event WHERE user_id = ${userId})`;
    const rows = events.map((e, i) => ({
      kind: e.kind, warehouse_id: e.warehouseId, customer_id: e.customerId, user_id: userId,
      job_id: e.jobId ?? null, task_id: e.taskId ?? null, order_id: e.orderId ?? null, order_line_id: e.orderLineId ?? null,
      carton_id: e.cartonId ?? null, sku_id: e.skuId ?? null, location_id: e.locationId ?? null, quantity: e.quantity ?? 0,
      doc_type: e.docType ?? null, doc_id: e.docId ?? null, detail: e.detail ?? null, amount_minor: e.amountMinor ?? null, carton_code: e.cartonCode || null,
      at: iso, at_ms: ms, business_day: days.get(e.warehouseId)!, seconds_since_previous: i === 0 ? gap : 0,
    }));
    return rows;
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
