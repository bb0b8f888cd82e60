import { sql } from 'kysely';
import type { FloorEventKind } from '@bolx/contracts';
import type { Executor } from '../db/schema.js';
import type { Actor } from './actor.js';
import type { WarehouseTimeZones } from './business-day.js';
import type { UnitOfWork } from './unit-of-work.js';

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
}

/**
 * The floor's event log (pick, short, pack, ship…): who, when, where, and seconds since the same user's previous
 * event, which labour reports and billing read without joining the documents. Written in the caller's transaction,
 * one statement for any number of events; the gap is taken by the statement itself from the user's latest event
 * (index floor_event_user), so it costs no read. Events of one call share one moment: only the first carries the gap.
 */
export class FloorEvents {
  constructor(private readonly timeZones: WarehouseTimeZones) {}

  async record(uow: UnitOfWork, actor: Actor, events: FloorEvent[], at: Date = new Date()): Promise<void> {
    if (events.length === 0) return;
    const iso = at.toISOString();
    const ms = at.getTime();
    const days = new Map<number, string>();
    for (const id of new Set(events.map((e) => e.warehouseId))) days.set(id, await this.timeZones.dayOf(id, at, uow.tx));
    const userId = actor.userId ?? null;
    const gap = userId === null
      ? sql<number | null>`NULL`
      : sql<number | null>`(SELECT CAST((${ms} - MAX(at_ms)) / 1000 AS INTEGER) FROM floor_event WHERE user_id = ${userId})`;
    await uow.tx.insertInto('floor_event').values(events.map((e, i) => ({
      kind: e.kind, warehouse_id: e.warehouseId, customer_id: e.customerId, user_id: userId,
      job_id: e.jobId ?? null, task_id: e.taskId ?? null, order_id: e.orderId ?? null, order_line_id: e.orderLineId ?? null,
      carton_id: e.cartonId ?? null, sku_id: e.skuId ?? null, location_id: e.locationId ?? null, quantity: e.quantity ?? 0,
      at: iso, at_ms: ms, business_day: days.get(e.warehouseId)!, seconds_since_previous: i === 0 ? gap : 0,
    }))).execute();
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
