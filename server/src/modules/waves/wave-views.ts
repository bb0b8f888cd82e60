import type { HubEventMap, PickJobDetail, PickJobSummary, PickStop, PickStrategy, PickJobStatus, PickTaskStatus, WaveStatus, WaveSummary } from '@bolx/contracts';
import type { Change } from '../../platform/change-recorder.js';
import type { JobRow, WaveRow, wavesRepository } from './waves.repository.js';

const n = (v: unknown) => Number(v);

export const toWaveSummary = (r: WaveRow): WaveSummary => ({
  uniqueid: n(r.id), waveId: n(r.id), waveNumber: r.wave_number, warehouseId: n(r.warehouse_id), warehouseName: r.warehouse_name,
  strategy: r.strategy as PickStrategy, status: r.status as WaveStatus, orderCount: n(r.order_count), jobCount: n(r.job_count), jobsDone: n(r.jobs_done),
  lineCount: n(r.line_count), units: n(r.units), pickedUnits: n(r.picked_units), createdBy: r.created_by_name, createdAt: r.created_at,
});

export const toJobSummary = (r: JobRow): PickJobSummary => ({
  uniqueid: n(r.id), jobId: n(r.id), jobNumber: r.job_number, waveId: n(r.wave_id), waveNumber: r.wave_number, warehouseId: n(r.warehouse_id),
  strategy: r.strategy as PickStrategy, zone: r.zone, status: r.status as PickJobStatus,
  assignedTo: r.assigned_to == null ? null : n(r.assigned_to), assignedToName: r.assigned_to_name,
  orderCount: n(r.order_count), stopCount: n(r.stop_count), units: n(r.units), pickedUnits: n(r.picked_units), shortUnits: n(r.short_units),
  startedAt: r.started_at ?? null, finishedAt: r.finished_at ?? null, createdAt: r.created_at,
});

type Repo = typeof wavesRepository;
type TaskRow = Awaited<ReturnType<Repo['jobTasks']>>[number];
type OrderOfJob = Awaited<ReturnType<Repo['jobOrders']>>[number];
export type LastPick = { id: number | string; task_id: number | string | null; quantity: number | string; at: string } | undefined;

/** A task row as the stop views read it (the job's tasks, or one stop's): its place, SKU, order, slot and tote. */
export interface StopTaskRow {
  id: number; seq: number; order_id: number; order_line_id: number; sku_id: number; location_id: number; lot: string;
  quantity: number; picked_qty: number; short_qty: number; status: string; location_code: string; zone: string | null; sku_code: string;
  description: string; is_lot_tracked: number; so_number: string; slot: number; tote_code: string | null; expiry_date?: string | null;
}

/** Tasks grouped into their stops (one per seq), in walking order, each stop's tasks in the order given. */
export function toStops(tasks: StopTaskRow[]): PickStop[] {
  const stops = new Map<number, PickStop>();
  for (const t of tasks) {
    const seq = n(t.seq);
    let stop = stops.get(seq);
    if (!stop) {
      stop = {
        seq, locationId: n(t.location_id), locationCode: t.location_code, zone: t.zone, skuId: n(t.sku_id), skuCode: t.sku_code, skuDescription: t.description,
        lot: t.lot, expiryDate: t.expiry_date ?? null, tracksLot: n(t.is_lot_tracked) === 1, quantity: 0, pickedQuantity: 0, shortQuantity: 0, tasks: [],
      };
      stops.set(seq, stop);
    }
    stop.quantity += n(t.quantity);
    stop.pickedQuantity += n(t.picked_qty);
    stop.shortQuantity += n(t.short_qty);
    stop.tasks.push({
      taskId: n(t.id), orderId: n(t.order_id), soNumber: t.so_number, orderLineId: n(t.order_line_id), slot: n(t.slot), toteCode: t.tote_code,
      quantity: n(t.quantity), pickedQuantity: n(t.picked_qty), shortQuantity: n(t.short_qty), status: t.status as PickTaskStatus,
    });
  }
  return [...stops.values()].sort((a, b) => a.seq - b.seq);
}

/** The pick an UndoPick would take back, as the job views show it. */
export const toLastPick = (last: LastPick): PickJobDetail['lastPick'] =>
  (last ? { eventId: n(last.id), taskId: n(last.task_id), quantity: n(last.quantity), at: last.at } : null);

/** A job's detail: its summary, totes by slot, stops in walking order with their tasks, and the pick UndoPick would take back. */
export function toJobDetail(job: JobRow, orders: OrderOfJob[], tasks: TaskRow[], last: LastPick): PickJobDetail {
  return {
    ...toJobSummary(job),
    totes: orders.map((o) => ({
      slot: n(o.slot), orderId: n(o.order_id), soNumber: o.so_number, customerName: o.customer_name,
      toteLocationId: o.tote_location_id == null ? null : n(o.tote_location_id), toteCode: o.tote_code,
    })),
    stops: toStops(tasks),
    lastPick: toLastPick(last),
  };
}

type WaveSubEvent = HubEventMap['ReceiveWaveData']['subEvent'];

/** A wave's change: its audit row and the floor screens' event. */
export function waveChange(after: WaveSummary, action: string, subEvent: WaveSubEvent, before?: unknown, extra?: Record<string, unknown>): Change {
  return {
    audit: { action, entity: 'wave', entityId: after.waveId, warehouseId: after.warehouseId, before, after: extra ? { ...after, ...extra } : after },
    events: { target: 'ReceiveWaveData', payload: { subEvent, payload: after }, warehouseId: after.warehouseId },
  };
}

/** A pick job's change: its audit row and UpdateJob (payload: the job summary). */
export function jobChange(after: PickJobSummary, action: string, before?: unknown, extra?: Record<string, unknown>): Change {
  return {
    audit: { action, entity: 'pick_job', entityId: after.jobId, warehouseId: after.warehouseId, before, after: extra ? { ...after, ...extra } : after },
    events: { target: 'ReceiveWaveData', payload: { subEvent: 'UpdateJob', payload: after }, warehouseId: after.warehouseId },
  };
}
