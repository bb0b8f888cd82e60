import type { z } from 'zod';
import type { CheckPickScanResult, ConfirmPickInput, shortPickInput, PickJobDetail, PickJobTote, PickResult, PickScanStep, PickStop } from '@bolx/contracts';
import { quantityAfterScan } from '../../components/scan/scan-match';

/**
 * The picking screen's scan steps, as pure functions of the job (as the server last answered it) and the scans
 * of the stop being worked on: a tote for each slot without one, then stop by stop in seq order the location,
 * the item (each further scan of it counts its units), the lot where the SKU tracks lots, then Confirm.
 * A scan either is refused here, asks the server to check it (nothing written), or builds the request to send.
 */

export type ShortPickInput = z.input<typeof shortPickInput>;

export type PickStep = 'tote' | 'location' | 'item' | 'lot' | 'quantity' | 'done';

/** A message id and its values (translated by the screen). */
export interface PickMessage { id: string; values?: Record<string, string | number> }

/** What was scanned at the current stop so far. */
export interface StopScans {
  stopSeq: number;
  locationCode?: string;
  itemCode?: string;
  /** Units one scan of itemCode counts (1, or a package's units). */
  unitsPerScan?: number;
  lot?: string;
  quantity: number;
}

export interface PickState {
  scans: StopScans | null;
  /** A call is on its way: every further scan (a fast double Enter) is ignored until it answers. */
  inFlight: boolean;
}

export type PickPlan =
  | { kind: 'ignore' }
  | { kind: 'refuse'; message: PickMessage }
  | { kind: 'assignTote'; slot: number; toteCode: string }
  | { kind: 'check'; step: PickScanStep; stopSeq: number; code: string }
  | { kind: 'count'; scans: StopScans }
  | { kind: 'confirm'; request: ConfirmPickInput };

const FINISHED = new Set(['Done', 'Short', 'Cancelled']);

/** Units a stop still needs (neither picked nor short). */
export const stopLeft = (stop: PickStop) => Math.max(0, stop.quantity - stop.pickedQuantity - stop.shortQuantity);

export const stopsInOrder = (job: PickJobDetail) => [...job.stops].sort((a, b) => a.seq - b.seq);

/** The first stop in walking order that still needs units. */
export const currentStop = (job: PickJobDetail): PickStop | undefined => stopsInOrder(job).find((s) => stopLeft(s) > 0);

/** The first slot (by slot number) still without a tote, asked for one at a time before the first stop. */
export const slotWithoutTote = (job: PickJobDetail): PickJobTote | undefined =>
  [...job.totes].sort((a, b) => a.slot - b.slot).find((t) => t.toteLocationId === null);

export const jobFinished = (job: PickJobDetail) => FINISHED.has(job.status) || currentStop(job) === undefined;

export function jobProgress(job: PickJobDetail) {
  const stops = stopsInOrder(job);
  return {
    stopsDone: stops.filter((s) => stopLeft(s) === 0).length,
    stops: stops.length,
    units: stops.reduce((n, s) => n + s.quantity, 0),
    picked: stops.reduce((n, s) => n + s.pickedQuantity, 0),
    short: stops.reduce((n, s) => n + s.shortQuantity, 0),
  };
}

export const startState = (): PickState => ({ scans: null, inFlight: false });

/** Keeps the scans of the stop still being worked on after the job was reloaded; a new stop starts empty. */
export function syncScans(job: PickJobDetail, scans: StopScans | null): StopScans | null {
  const stop = currentStop(job);
  if (!stop || jobFinished(job)) return null;
  if (scans?.stopSeq === stop.seq) return { ...scans, quantity: Math.min(scans.quantity, stopLeft(stop)) };
  return { stopSeq: stop.seq, quantity: 0 };
}

export function stepOf(job: PickJobDetail, scans: StopScans | null): PickStep {
  if (jobFinished(job)) return 'done';
  if (slotWithoutTote(job)) return 'tote';
  const stop = currentStop(job);
  if (!stop || !scans || scans.stopSeq !== stop.seq) return 'location';
  if (!scans.locationCode) return 'location';
  if (!scans.itemCode) return 'item';
  if (stop.tracksLot && scans.lot === undefined) return 'lot';
  return 'quantity';
}

const expected = (stop: PickStop, step: 'location' | 'item' | 'lot'): PickMessage => ({
  id: `handheld.pick.refuse.${step}`,
  values: { location: stop.locationCode, sku: stop.skuCode, lot: stop.lot },
});

/** The same item scanned again: its units counted, or refused when the stop needs fewer. */
function count(stop: PickStop, scans: StopScans, units: number): PickPlan {
  const quantity = quantityAfterScan(scans.quantity, units, true);
  if (quantity > stopLeft(stop)) return { kind: 'refuse', message: { id: 'handheld.pick.refuse.tooMany', values: { left: stopLeft(stop), units } } };
  return { kind: 'count', scans: { ...scans, quantity } };
}

/** What one scan (the code and Enter; an empty Enter confirms) does at the current step. */
export function planScan(job: PickJobDetail, state: PickState, raw: string): PickPlan {
  if (state.inFlight) return { kind: 'ignore' };
  const code = raw.trim();
  const step = stepOf(job, state.scans);
  if (step === 'done') return { kind: 'ignore' };
  if (step === 'tote') {
    const tote = slotWithoutTote(job)!;
    if (!code) return { kind: 'refuse', message: { id: 'handheld.pick.refuse.emptyTote', values: { slot: tote.slot } } };
    return { kind: 'assignTote', slot: tote.slot, toteCode: code };
  }
  const stop = currentStop(job)!;
  const scans = state.scans?.stopSeq === stop.seq ? state.scans : { stopSeq: stop.seq, quantity: 0 };
  const check = (s: PickScanStep): PickPlan => ({ kind: 'check', step: s, stopSeq: stop.seq, code });
  switch (step) {
    case 'location':
    case 'item':
      return code ? check(step) : { kind: 'refuse', message: expected(stop, step) };
    case 'lot':
      if (!code) return { kind: 'refuse', message: expected(stop, 'lot') };
      return code === scans.itemCode ? count(stop, scans, scans.unitsPerScan ?? 1) : check('lot');
    case 'quantity':
      if (!code) {
        return scans.quantity > 0 ? { kind: 'confirm', request: confirmRequest(job, scans) } : { kind: 'refuse', message: { id: 'handheld.pick.refuse.quantity' } };
      }
      // The same code again counts without asking the server; another code (a case of the same SKU) is checked.
      return code === scans.itemCode ? count(stop, scans, scans.unitsPerScan ?? 1) : check('item');
  }
}

/** The server's answer to a checked scan: the step advances, or the refusal is shown and nothing changes. */
export function applyCheck(
  job: PickJobDetail, scans: StopScans | null, step: PickScanStep, code: string, result: CheckPickScanResult,
): { scans: StopScans | null; refused?: PickMessage | string } {
  const stop = currentStop(job);
  if (!stop) return { scans };
  const current = scans?.stopSeq === stop.seq ? scans : { stopSeq: stop.seq, quantity: 0 };
  if (!result.ok) return { scans: current, refused: result.message };
  if (step === 'location') return { scans: { stopSeq: stop.seq, locationCode: code, quantity: 0 } };
  if (step === 'lot') return { scans: { ...current, lot: code } };
  if (step !== 'item') return { scans: current };
  const units = result.unitsPerScan ?? 1;
  const counted = count(stop, current, units);
  if (counted.kind === 'refuse') return { scans: current, refused: counted.message };
  const next = (counted as Extract<PickPlan, { kind: 'count' }>).scans;
  // The first accepted code is the one confirmed; a later one (a case of the same SKU) only adds its units.
  return { scans: current.itemCode ? next : { ...next, itemCode: code, unitsPerScan: units } };
}

/** A typed quantity, within 0 and what the stop still needs. */
export function typedQuantity(job: PickJobDetail, scans: StopScans, quantity: number | null): StopScans {
  const stop = currentStop(job);
  const left = stop ? stopLeft(stop) : 0;
  return { ...scans, quantity: Math.max(0, Math.min(left, Math.floor(quantity ?? 0))) };
}

export function confirmRequest(job: PickJobDetail, scans: StopScans): ConfirmPickInput {
  return {
    jobId: job.jobId,
    stopSeq: scans.stopSeq,
    locationCode: scans.locationCode ?? '',
    itemCode: scans.itemCode ?? '',
    ...(scans.lot !== undefined ? { lot: scans.lot } : {}),
    quantity: scans.quantity,
  };
}

/** Short needs the location scanned (the picker is at the bin); the item only when it was scanned. */
export const canShort = (job: PickJobDetail, state: PickState) => {
  const step = stepOf(job, state.scans);
  return !state.inFlight && step !== 'done' && step !== 'tote' && step !== 'location';
};

export function shortRequest(job: PickJobDetail, scans: StopScans, foundQuantity: number, reason: string | undefined): ShortPickInput {
  return {
    jobId: job.jobId,
    stopSeq: scans.stopSeq,
    locationCode: scans.locationCode ?? '',
    ...(scans.itemCode ? { itemCode: scans.itemCode } : {}),
    ...(scans.lot !== undefined ? { lot: scans.lot } : {}),
    foundQuantity,
    ...(reason?.trim() ? { reason: reason.trim() } : {}),
  };
}

/** Whether Confirm may be pressed: every scan the stop needs is in and the quantity is at least one. */
export const canConfirm = (job: PickJobDetail, state: PickState) =>
  !state.inFlight && stepOf(job, state.scans) === 'quantity' && (state.scans?.quantity ?? 0) > 0;

/** The totes a stop's open tasks drop into (per task: slot, tote, units still to go). */
export const dropsOf = (stop: PickStop) => stop.tasks
  .filter((t) => t.quantity - t.pickedQuantity - t.shortQuantity > 0)
  .map((t) => ({ taskId: t.taskId, slot: t.slot, soNumber: t.soNumber, toteCode: t.toteCode, quantity: t.quantity - t.pickedQuantity - t.shortQuantity }));

/**
 * The job after a picking step's answer (ConfirmPick, ShortPick, UndoPick answer only what changed): its status and
 * totals, the stops the step changed put in place of the ones shown (a short pick's new stops added), its last pick.
 */
export function applyPickResult(job: PickJobDetail, result: PickResult): PickJobDetail {
  const changed = new Map(result.stops.map((s) => [s.seq, s]));
  const known = new Set(job.stops.map((s) => s.seq));
  const p = result.job;
  return {
    ...job,
    status: p.status, assignedTo: p.assignedTo, assignedToName: p.assignedToName, stopCount: p.stopCount, units: p.units,
    pickedUnits: p.pickedUnits, shortUnits: p.shortUnits, startedAt: p.startedAt, finishedAt: p.finishedAt,
    stops: [...job.stops.map((s) => changed.get(s.seq) ?? s), ...result.stops.filter((s) => !known.has(s.seq))],
    lastPick: result.lastPick,
  };
}
