import { describe, expect, it } from 'vitest';
import { jobIdOf, jobOf } from './answers';
import type { PickJobDetail, PickResult, PickStop } from '@bolx/contracts';
import {
  applyCheck, applyPickResult, canShort, confirmRequest, currentStop, jobProgress, planScan, shortRequest, startState, stepOf, syncScans, typedQuantity,
  type PickState, type StopScans,
} from './pick-steps';

function stop(seq: number, over: Partial<PickStop> = {}): PickStop {
  return {
    seq, locationId: 100 + seq, locationCode: `A-01-0${seq}`, zone: 'A', skuId: seq, skuCode: `SKU-${seq}`, skuDescription: `Item ${seq}`,
    lot: '', expiryDate: null, tracksLot: false, quantity: 30, pickedQuantity: 0, shortQuantity: 0,
    tasks: [
      { taskId: seq * 10 + 1, orderId: 1, soNumber: 'SO-1', orderLineId: seq, slot: 1, toteCode: 'T1', quantity: 20, pickedQuantity: 0, shortQuantity: 0, status: 'Open' },
      { taskId: seq * 10 + 2, orderId: 2, soNumber: 'SO-2', orderLineId: 50 + seq, slot: 2, toteCode: 'T2', quantity: 10, pickedQuantity: 0, shortQuantity: 0, status: 'Open' },
    ],
    ...over,
  };
}

function job(over: Partial<PickJobDetail> = {}): PickJobDetail {
  return {
    uniqueid: 7, jobId: 7, jobNumber: 'JOB-7', waveId: 1, waveNumber: 'WAVE-1', warehouseId: 1, strategy: 'cluster', zone: null,
    status: 'In Progress', assignedTo: 3, assignedToName: 'staff', orderCount: 2, stopCount: 2, units: 60, pickedUnits: 0, shortUnits: 0,
    startedAt: null, finishedAt: null, createdAt: '2026-01-01T00:00:00Z',
    totes: [
      { slot: 1, orderId: 1, soNumber: 'SO-1', customerName: 'C', toteLocationId: 501, toteCode: 'T1' },
      { slot: 2, orderId: 2, soNumber: 'SO-2', customerName: 'C', toteLocationId: 502, toteCode: 'T2' },
    ],
    // Out of order on purpose: the walk follows seq.
    stops: [stop(2), stop(1)],
    lastPick: null,
    ...over,
  };
}

const at = (scans: StopScans | null): PickState => ({ scans, inFlight: false });

describe('the picking steps', () => {
  it('asks for a tote for each slot without one, one slot at a time, before the first stop', () => {
    const j = job({ totes: [
      { slot: 2, orderId: 2, soNumber: 'SO-2', customerName: 'C', toteLocationId: null, toteCode: null },
      { slot: 1, orderId: 1, soNumber: 'SO-1', customerName: 'C', toteLocationId: null, toteCode: null },
    ] });
    expect(stepOf(j, null)).toBe('tote');
    expect(planScan(j, startState(), ' TOTE-9 ')).toEqual({ kind: 'assignTote', slot: 1, toteCode: 'TOTE-9' });
    expect(planScan(j, startState(), '')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pick.refuse.emptyTote', values: { slot: 1 } } });
  });

  it('walks the stops in seq order and starts at the location', () => {
    const j = job();
    expect(currentStop(j)?.seq).toBe(1);
    expect(stepOf(j, syncScans(j, null))).toBe('location');
    expect(planScan(j, startState(), 'A-01-01')).toEqual({ kind: 'check', step: 'location', stopSeq: 1, code: 'A-01-01' });
  });

  it('keeps a wrong location on step 1 with the server’s message', () => {
    const j = job();
    const scans = syncScans(j, null);
    const answer = applyCheck(j, scans, 'location', 'B-09-09', { ok: false, message: 'Wrong location: go to A-01-01' });
    expect(answer.refused).toBe('Wrong location: go to A-01-01');
    expect(stepOf(j, answer.scans)).toBe('location');
    expect(answer.scans?.locationCode).toBeUndefined();
  });

  it('refuses an empty Enter before the location, naming the location expected', () => {
    expect(planScan(job(), startState(), '')).toEqual({ kind: 'refuse', message: { id: 'handheld.pick.refuse.location', values: { location: 'A-01-01', sku: 'SKU-1', lot: '' } } });
  });

  it('counts item scans: a case GTIN adds its units, the same code again adds them again, never past what is needed', () => {
    const j = job();
    let scans = applyCheck(j, syncScans(j, null), 'location', 'A-01-01', { ok: true, message: '' }).scans;
    expect(stepOf(j, scans)).toBe('item');
    expect(planScan(j, at(scans), '00012345678905')).toEqual({ kind: 'check', step: 'item', stopSeq: 1, code: '00012345678905' });
    scans = applyCheck(j, scans, 'item', '00012345678905', { ok: true, message: '', unitsPerScan: 12 }).scans;
    expect(scans).toMatchObject({ itemCode: '00012345678905', unitsPerScan: 12, quantity: 12 });
    expect(stepOf(j, scans)).toBe('quantity');

    // The same case again: counted here, without asking the server.
    const again = planScan(j, at(scans), '00012345678905');
    expect(again).toMatchObject({ kind: 'count', scans: { quantity: 24 } });
    scans = (again as { scans: StopScans }).scans;

    // A third case would make 36 of the 30 needed: refused, the count stays.
    expect(planScan(j, at(scans), '00012345678905')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pick.refuse.tooMany', values: { left: 30, units: 12 } } });

    // Another code of the SKU (the unit UPC) is checked, then adds its one unit; the first code is the one confirmed.
    expect(planScan(j, at(scans), '012345678905')).toEqual({ kind: 'check', step: 'item', stopSeq: 1, code: '012345678905' });
    scans = applyCheck(j, scans, 'item', '012345678905', { ok: true, message: '', unitsPerScan: 1 }).scans;
    expect(scans).toMatchObject({ itemCode: '00012345678905', quantity: 25 });
  });

  it('keeps a wrong item on step 2 and moves nothing', () => {
    const j = job();
    const scans = applyCheck(j, syncScans(j, null), 'location', 'A-01-01', { ok: true, message: '' }).scans;
    const answer = applyCheck(j, scans, 'item', 'SKU-2', { ok: false, message: 'Wrong item: scan SKU-1' });
    expect(answer.refused).toBe('Wrong item: scan SKU-1');
    expect(stepOf(j, answer.scans)).toBe('item');
    expect(answer.scans).toEqual(scans);
  });

  it('asks for the lot only when the stop’s SKU tracks lots', () => {
    const untracked = job();
    const tracked = job({ stops: [stop(1, { tracksLot: true, lot: 'L-42' })] });
    for (const [j, next] of [[untracked, 'quantity'], [tracked, 'lot']] as const) {
      let scans = applyCheck(j, syncScans(j, null), 'location', 'A-01-01', { ok: true, message: '' }).scans;
      scans = applyCheck(j, scans, 'item', 'SKU-1', { ok: true, message: '', unitsPerScan: 1 }).scans;
      expect(stepOf(j, scans)).toBe(next);
    }
    let scans = applyCheck(tracked, syncScans(tracked, null), 'location', 'A-01-01', { ok: true, message: '' }).scans;
    scans = applyCheck(tracked, scans, 'item', 'SKU-1', { ok: true, message: '', unitsPerScan: 1 }).scans;
    expect(planScan(tracked, at(scans), '')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pick.refuse.lot', values: { lot: 'L-42' } } });
    expect(planScan(tracked, at(scans), 'L-42')).toEqual({ kind: 'check', step: 'lot', stopSeq: 1, code: 'L-42' });
    expect(applyCheck(tracked, scans, 'lot', 'L-41', { ok: false, message: 'Wrong lot: scan L-42' }).scans?.lot).toBeUndefined();
    scans = applyCheck(tracked, scans, 'lot', 'L-42', { ok: true, message: '' }).scans;
    expect(stepOf(tracked, scans)).toBe('quantity');
    expect(planScan(tracked, at(scans), '')).toEqual({
      kind: 'confirm', request: { jobId: 7, stopSeq: 1, locationCode: 'A-01-01', itemCode: 'SKU-1', lot: 'L-42', quantity: 1 },
    });
  });

  it('confirms on an empty Enter with the scans and the quantity (typed quantities stay within what is needed)', () => {
    const j = job();
    let scans = applyCheck(j, syncScans(j, null), 'location', 'A-01-01', { ok: true, message: '' }).scans!;
    scans = applyCheck(j, scans, 'item', 'SKU-1', { ok: true, message: '', unitsPerScan: 1 }).scans!;
    scans = typedQuantity(j, scans, 99);
    expect(scans.quantity).toBe(30);
    scans = typedQuantity(j, scans, 18);
    expect(planScan(j, at(scans), '')).toEqual({ kind: 'confirm', request: { jobId: 7, stopSeq: 1, locationCode: 'A-01-01', itemCode: 'SKU-1', quantity: 18 } });
    expect(confirmRequest(j, scans)).not.toHaveProperty('lot');
    expect(planScan(j, at(typedQuantity(j, scans, 0)), '')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pick.refuse.quantity' } });
  });

  it('ignores every scan and Enter while a call is in flight (a fast double Enter submits once)', () => {
    const j = job();
    let scans = applyCheck(j, syncScans(j, null), 'location', 'A-01-01', { ok: true, message: '' }).scans!;
    scans = applyCheck(j, scans, 'item', 'SKU-1', { ok: true, message: '', unitsPerScan: 1 }).scans!;
    expect(planScan(j, { scans, inFlight: false }, '').kind).toBe('confirm');
    expect(planScan(j, { scans, inFlight: true }, '')).toEqual({ kind: 'ignore' });
    expect(planScan(j, { scans, inFlight: true }, 'SKU-1')).toEqual({ kind: 'ignore' });
  });

  it('keeps the scans of a stop still open after a reload and starts the next stop empty', () => {
    const j = job();
    const scans: StopScans = { stopSeq: 1, locationCode: 'A-01-01', itemCode: 'SKU-1', unitsPerScan: 1, quantity: 5 };
    expect(syncScans(j, scans)).toEqual(scans);
    const partly = job({ stops: [stop(1, { pickedQuantity: 28 }), stop(2)] });
    expect(syncScans(partly, scans)?.quantity).toBe(2);
    const next = job({ stops: [stop(1, { pickedQuantity: 30 }), stop(2)] });
    expect(syncScans(next, scans)).toEqual({ stopSeq: 2, quantity: 0 });
    expect(stepOf(next, syncScans(next, scans))).toBe('location');
  });

  it('is done when no stop needs units, and counts progress', () => {
    const j = job({ stops: [stop(1, { pickedQuantity: 30 }), stop(2, { pickedQuantity: 25, shortQuantity: 5 })] });
    expect(stepOf(j, null)).toBe('done');
    expect(planScan(j, startState(), 'X')).toEqual({ kind: 'ignore' });
    expect(jobProgress(j)).toEqual({ stopsDone: 2, stops: 2, units: 60, picked: 55, short: 5 });
  });

  it('offers Short once the location is scanned, with the scans made so far', () => {
    const j = job();
    expect(canShort(j, at(syncScans(j, null)))).toBe(false);
    const scans = applyCheck(j, syncScans(j, null), 'location', 'A-01-01', { ok: true, message: '' }).scans!;
    expect(canShort(j, at(scans))).toBe(true);
    expect(shortRequest(j, scans, 4, '  empty bin ')).toEqual({ jobId: 7, stopSeq: 1, locationCode: 'A-01-01', foundQuantity: 4, reason: 'empty bin' });
  });
});

describe('reading the job from an answer', () => {
  it('takes the job itself, or the one wrapped as {job} or {data}', () => {
    const j = job();
    expect(jobOf(j)).toBe(j);
    expect(jobOf({ message: 'Picked', job: j })).toBe(j);
    expect(jobOf({ message: 'ok' })).toBeUndefined();
    expect(jobIdOf(j)).toBe(7);
    expect(jobIdOf({ message: 'Taken', data: { jobId: 9 } })).toBe(9);
    expect(jobIdOf(null)).toBeUndefined();
  });

  it('merges a picking answer (what the step changed) into the job: the stops changed, new stops added, the totals, the last pick', () => {
    const j = job();
    const picked = stop(1, { pickedQuantity: 30, tasks: stop(1).tasks.map((x) => ({ ...x, pickedQuantity: x.quantity, status: 'Picked' as const })) });
    const result: PickResult = {
      message: 'Picked 30 units',
      job: { jobId: 7, jobNumber: 'JOB-7', status: 'In Progress', assignedTo: 3, assignedToName: 'staff', stopCount: 3, stopsDone: 1, units: 65, pickedUnits: 30, shortUnits: 0, startedAt: 'x', finishedAt: null },
      stops: [picked, stop(3, { quantity: 5 })],
      lines: [], orders: [],
      lastPick: { eventId: 9, taskId: 12, quantity: 10, at: 'x' },
    };
    const after = applyPickResult(j, result);
    expect(after.stops.map((s) => s.seq).sort()).toEqual([1, 2, 3]);
    expect(after.stops.find((s) => s.seq === 1)).toBe(picked);
    expect(after.stops.find((s) => s.seq === 2)).toBe(j.stops[0]);
    expect(after).toMatchObject({ pickedUnits: 30, units: 65, stopCount: 3, lastPick: { eventId: 9 }, totes: j.totes });
    expect(currentStop(after)?.seq).toBe(2);
    expect(jobProgress(after)).toMatchObject({ stopsDone: 1, stops: 3, picked: 30 });
  });
});
