import {
  SHORT_REASONS, batchAllocationSummary,
  type BatchAllocationSummary, type BatchRuleCriteria, type ConfirmShipmentResult, type JobView, type OrderLineShape, type OrderSummary,
  type PickJobSummary, type ShortReason, type WaveSummary,
} from '@bolx/contracts';
import { mayAct } from '../../lib/status-actions';

/**
 * The floor screens' rules as plain functions (unit-tested without React): the rule form and the criteria it
 * sends, the allocation job's progress and summary, what a supervisor or a picker is offered on a wave or a job,
 * the packed orders by carrier, and which of /BatchJob's views a URL asks for.
 */

// ---- The rule form ----

/** The rule form's values (the ship date as YYYY-MM-DD; empty fields mean "any"). */
export interface RuleFormValues {
  customerId?: number;
  shipDateTo?: string;
  carrierAccountId?: number;
  carrierService?: string;
  lineShape?: OrderLineShape;
  priorityTo?: number;
  zone?: string;
  maxOrders?: number;
}

const given = <T>(v: T | null | undefined | ''): v is T => v !== undefined && v !== null && v !== '';

/**
 * The criteria PreviewRule, RunBatchAllocation, SaveRule and CreateWave take: the header's warehouse and the
 * criteria given (blank ones left out, so they match anything). Null without a warehouse: a rule is one warehouse's.
 */
export function criteriaOf(values: RuleFormValues, warehouseId: number | null | undefined): BatchRuleCriteria | null {
  if (!warehouseId) return null;
  const service = values.carrierService?.trim();
  const zone = values.zone?.trim().toUpperCase();
  return {
    warehouseId,
    ...(given(values.customerId) ? { customerId: values.customerId } : {}),
    ...(given(values.shipDateTo) ? { shipDateTo: values.shipDateTo } : {}),
    // A carrier account is a client's: without the client it cannot be chosen, so it is not sent.
    ...(given(values.customerId) && given(values.carrierAccountId) ? { carrierAccountId: values.carrierAccountId } : {}),
    ...(service ? { carrierService: service } : {}),
    lineShape: values.lineShape ?? 'any',
    ...(given(values.priorityTo) ? { priorityTo: values.priorityTo } : {}),
    ...(zone ? { zone } : {}),
    ...(given(values.maxOrders) ? { maxOrders: values.maxOrders } : {}),
  };
}

/** A saved rule's criteria back in the form. */
export function formValuesOf(criteria: BatchRuleCriteria): RuleFormValues {
  return {
    customerId: criteria.customerId || undefined,
    shipDateTo: criteria.shipDateTo,
    carrierAccountId: criteria.carrierAccountId || undefined,
    carrierService: criteria.carrierService,
    lineShape: criteria.lineShape ?? 'any',
    priorityTo: criteria.priorityTo,
    zone: criteria.zone,
    maxOrders: criteria.maxOrders,
  };
}

/** One string per distinct criteria (key order does not matter): the preview asks again only when it changes. */
export function criteriaKey(criteria: BatchRuleCriteria | null): string {
  if (!criteria) return '';
  const entries = Object.entries(criteria).filter(([, v]) => given(v)).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(entries);
}

// ---- The allocation job ----

export type AllocationPhase = 'queued' | 'running' | 'done' | 'failed';

/** The progress card of one allocation run, from its background job. */
export interface AllocationRun {
  jobId: number;
  phase: AllocationPhase;
  /** 0–100 while it runs, when the job says how far it is. */
  percent: number | null;
  /** The job's progress line (e.g. "120 of 400 orders"). */
  message: string | null;
  done: number;
  total: number | null;
  summary: BatchAllocationSummary | null;
  error: string | null;
}

/** RunBatchAllocation answers the queued job, bare or as a mutation's `data`. */
export function jobOfAnswer(answer: unknown): JobView | null {
  const a = answer as { jobId?: unknown; data?: { jobId?: unknown } } | null;
  if (a && typeof a.jobId === 'number') return a as unknown as JobView;
  if (a?.data && typeof a.data.jobId === 'number') return a.data as unknown as JobView;
  return null;
}

/** The job's result as the allocation summary (the result may be the summary, or carry it as `data` or `summary`). */
export function summaryOf(result: unknown): BatchAllocationSummary | null {
  for (const candidate of [result, (result as { data?: unknown } | null)?.data, (result as { summary?: unknown } | null)?.summary]) {
    const parsed = batchAllocationSummary.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** The pick job an answer names (TakeNextJob's): the job itself, or a mutation answer whose data is the job. */
export function jobIdOf(answer: unknown): number | null {
  const a = answer as { jobId?: unknown; data?: { jobId?: unknown } | null } | null | undefined;
  const id = typeof a?.jobId === 'number' ? a.jobId : a?.data?.jobId;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/** The progress card's state for the job as it is now. */
export function runOf(job: JobView): AllocationRun {
  const { done, total, message, percent } = job.progress;
  const phase: AllocationPhase = job.status === 'succeeded' ? 'done'
    : job.status === 'failed' || job.status === 'cancelled' ? 'failed'
    : job.status === 'running' ? 'running' : 'queued';
  const computed = percent ?? (total ? Math.round((done / total) * 100) : null);
  return {
    jobId: job.jobId,
    phase,
    percent: phase === 'done' ? 100 : computed === null ? null : Math.max(0, Math.min(100, computed)),
    message,
    done,
    total,
    summary: phase === 'done' ? summaryOf(job.result) : null,
    error: phase === 'failed' ? (job.error?.message ?? (job.status === 'cancelled' ? 'cancelled' : null)) : null,
  };
}

/** Short lines by reason, most first, reasons without any left out. */
export function shortLineRows(summary: BatchAllocationSummary): { reason: ShortReason; count: number }[] {
  return SHORT_REASONS.map((reason) => ({ reason, count: summary.shortLinesByReason[reason] ?? 0 }))
    .filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count);
}

// ---- Who may do what on /BatchJob ----

/** Who is acting on /BatchJob, as the floor routes' policies see it. */
export interface FloorActor {
  /** Staff with write on Batch Job: the pick job routes (take the next job, pick one). */
  pick: boolean;
  /** Staff with write on Batch Job: assign, unassign, cancel, pack and ship. */
  write: boolean;
  userId: number | null;
}

export type JobAction = 'pick' | 'assign' | 'unassign' | 'cancel';

/** Statuses a job can still be picked in. */
const PICKABLE: ReadonlySet<string> = new Set(['Open', 'Assigned', 'In Progress']);

/**
 * The actions offered on a job: Pick for staff while it can be picked and is nobody else's; assign, unassign and
 * cancel for staff with write on Batch Job, as the PICK_JOB status machine allows.
 */
export function jobActions(job: Pick<PickJobSummary, 'status' | 'assignedTo'>, who: FloorActor): JobAction[] {
  const out: JobAction[] = [];
  if (who.pick && PICKABLE.has(job.status) && (job.assignedTo === null || job.assignedTo === who.userId)) out.push('pick');
  if (who.write) {
    for (const action of ['assign', 'unassign', 'cancel'] as const) if (mayAct('PICK_JOB', job.status, action)) out.push(action);
  }
  return out;
}

/** Whether cancelling this wave is offered (write on Batch Job; the WAVE status machine: before picking starts). */
export const mayCancelWave = (wave: Pick<WaveSummary, 'status'>, who: FloorActor): boolean => who.write && mayAct('WAVE', wave.status, 'cancel');

/** "3 / 5"-style progress of a wave or a job, and whether it is complete. */
export function progressOf(done: number, total: number): { percent: number; complete: boolean } {
  if (total <= 0) return { percent: 0, complete: false };
  return { percent: Math.min(100, Math.round((done / total) * 100)), complete: done >= total };
}

// ---- Ship ----

/** Packed orders of one carrier account (or of none). */
export interface CarrierGroup {
  key: string;
  carrierAccountId: number | null;
  carrierName: string | null;
  orders: OrderSummary[];
  units: number;
}

/** The packed orders by carrier account, named ones first (by name), orders without a carrier last. */
export function groupByCarrier(orders: OrderSummary[]): CarrierGroup[] {
  const groups = new Map<string, CarrierGroup>();
  for (const o of orders) {
    const key = o.carrierAccountId === null ? 'none' : String(o.carrierAccountId);
    let group = groups.get(key);
    if (!group) {
      group = { key, carrierAccountId: o.carrierAccountId, carrierName: o.carrierName, orders: [], units: 0 };
      groups.set(key, group);
    }
    group.orders.push(o);
    group.units += o.allocatedQuantity;
  }
  return [...groups.values()].sort((a, b) => {
    if ((a.carrierAccountId === null) !== (b.carrierAccountId === null)) return a.carrierAccountId === null ? 1 : -1;
    return (a.carrierName ?? '').localeCompare(b.carrierName ?? '') || (a.carrierAccountId ?? 0) - (b.carrierAccountId ?? 0);
  });
}

/**
 * What ConfirmShipment is sent to ship a group: every packed order of its carrier account (the server's own list,
 * so one packed since the screen loaded ships too), or the orders named when they have no carrier.
 */
export function shipGroupInput(group: CarrierGroup, warehouseId: number): { warehouseId: number; carrierAccountId?: number; orderIds?: number[] } {
  return group.carrierAccountId !== null
    ? { warehouseId, carrierAccountId: group.carrierAccountId }
    : { warehouseId, orderIds: group.orders.map((o) => o.orderId) };
}

/** A ship confirm's answer as the result panel reads it. */
export function shipSummary(result: ConfirmShipmentResult) {
  return {
    shipped: result.shipped.length,
    units: result.shipped.reduce((sum, s) => sum + s.units, 0),
    cartons: result.shipped.reduce((sum, s) => sum + s.cartons, 0),
    backorders: result.shipped.filter((s) => s.backorderOrderId !== null).map((s) => ({ soNumber: s.soNumber, backorderSoNumber: s.backorderSoNumber ?? `#${s.backorderOrderId}` })),
    refused: result.refused.map((r) => ({ soNumber: r.soNumber ?? `#${r.orderId}`, message: r.message })),
  };
}

// ---- /BatchJob's views ----

export type BatchJobView = { kind: 'picking'; jobId: number } | { kind: 'pack'; orderId: number | null } | { kind: 'supervisor' };

const positiveInt = (raw: string | null): number | null => {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : null;
};

/** Which view /BatchJob shows: the picking screen (`?job=`), the pack station (`?pack=1`, `&order=`), or the lists. */
export function batchJobViewOf(search: URLSearchParams): BatchJobView {
  const jobId = positiveInt(search.get('job'));
  if (jobId !== null) return { kind: 'picking', jobId };
  if (search.get('pack') === '1') return { kind: 'pack', orderId: positiveInt(search.get('order')) };
  return { kind: 'supervisor' };
}
