import { describe, expect, it } from 'vitest';
import type { JobView, OrderSummary } from '@bolx/contracts';
import {
  batchJobViewOf, criteriaKey, criteriaOf, formValuesOf, groupByCarrier, jobActions, jobIdOf, jobOfAnswer, mayCancelWave, progressOf, runOf, shipGroupInput,
  shipSummary, shortLineRows, summaryOf, type FloorActor,
} from './floor-model';

const picker: FloorActor = { pick: true, write: false, userId: 7 };
const supervisor: FloorActor = { pick: true, write: true, userId: 1 };
const reader: FloorActor = { pick: false, write: false, userId: 9 };

const summary = {
  orders: 5, fully: 2, partially: 1, notAllocated: 1, refused: 1,
  shortLinesByReason: { 'no-stock': 1, 'expired-only': 3 },
  notFully: [{ orderId: 3, soNumber: 'SO-3', status: 'Partially Allocated' as const, reason: 'No stock' }],
};
const job = (over: Partial<JobView> = {}): JobView => ({
  jobId: 42, name: 'batch-allocation', status: 'running', progress: { done: 3, total: 12, message: null, percent: null }, attempts: 1, maxAttempts: 3,
  warehouseId: 1, customerId: null, ownerUserId: 1, result: null, error: null, createdAt: '2026-01-01T00:00:00Z', startedAt: null, finishedAt: null, ...over,
});

describe('criteriaOf (the rule form as the criteria the server takes)', () => {
  it('sends the warehouse and only the criteria given, trimmed and upper-cased as the server keeps them', () => {
    expect(criteriaOf({ customerId: 4, carrierService: '  Ground ', zone: ' a ', priorityTo: 3, lineShape: 'single-line', shipDateTo: '' }, 2)).toEqual({
      warehouseId: 2, customerId: 4, carrierService: 'Ground', zone: 'A', priorityTo: 3, lineShape: 'single-line',
    });
    expect(criteriaOf({}, 2)).toEqual({ warehouseId: 2, lineShape: 'any' });
  });

  it('has no criteria without a warehouse (a rule is one warehouse’s)', () => {
    expect(criteriaOf({ customerId: 4 }, 0)).toBeNull();
    expect(criteriaOf({ customerId: 4 }, null)).toBeNull();
  });

  it('leaves a carrier account out when no client is chosen (an account is one client’s)', () => {
    expect(criteriaOf({ carrierAccountId: 9 }, 2)).not.toHaveProperty('carrierAccountId');
    expect(criteriaOf({ customerId: 4, carrierAccountId: 9 }, 2)).toHaveProperty('carrierAccountId', 9);
  });

  it('brings a saved rule back into the form unchanged', () => {
    const criteria = { warehouseId: 2, customerId: 4, shipDateTo: '2026-05-01', lineShape: 'multi-line' as const, maxOrders: 50, zone: 'B' };
    expect(criteriaOf(formValuesOf(criteria), 2)).toEqual(criteria);
  });

  it('keys criteria by content, so the preview asks again only when they change', () => {
    expect(criteriaKey({ warehouseId: 1, lineShape: 'any', zone: 'A' })).toBe(criteriaKey({ zone: 'A', lineShape: 'any', warehouseId: 1 }));
    expect(criteriaKey({ warehouseId: 1, lineShape: 'any' })).not.toBe(criteriaKey({ warehouseId: 1, lineShape: 'any', zone: 'A' }));
    expect(criteriaKey(null)).toBe('');
  });
});

describe('the allocation job’s progress card', () => {
  it('reads the queued job from the answer, bare or as a mutation’s data', () => {
    expect(jobOfAnswer(job())?.jobId).toBe(42);
    expect(jobOfAnswer({ message: 'Queued', data: job({ jobId: 43 }) })?.jobId).toBe(43);
    expect(jobOfAnswer({ message: 'nothing' })).toBeNull();
  });

  it('shows how far a running job is, from its percent or its done of total', () => {
    expect(runOf(job())).toMatchObject({ phase: 'running', percent: 25, done: 3, total: 12, summary: null });
    expect(runOf(job({ status: 'queued', progress: { done: 0, total: null, message: null, percent: null } }))).toMatchObject({ phase: 'queued', percent: null });
    expect(runOf(job({ progress: { done: 1, total: 2, message: 'half', percent: 60 } }))).toMatchObject({ percent: 60, message: 'half' });
  });

  it('ends with the summary when it succeeded, or the error when it failed', () => {
    expect(runOf(job({ status: 'succeeded', result: summary }))).toMatchObject({ phase: 'done', percent: 100, summary });
    expect(runOf(job({ status: 'succeeded', result: { message: 'ok', data: summary } })).summary).toEqual(summary);
    expect(runOf(job({ status: 'failed', error: { status: 500, message: 'boom' } }))).toMatchObject({ phase: 'failed', error: 'boom', summary: null });
    expect(summaryOf({ unexpected: true })).toBeNull();
  });

  it('lists short lines by reason, most first', () => {
    expect(shortLineRows(summary)).toEqual([{ reason: 'expired-only', count: 3 }, { reason: 'no-stock', count: 1 }]);
  });
});

describe('jobActions and mayCancelWave (what /BatchJob offers to whom)', () => {
  it('offers a picker Pick on an open job, or one that is theirs, and nothing else', () => {
    expect(jobActions({ status: 'Open', assignedTo: null }, picker)).toEqual(['pick']);
    expect(jobActions({ status: 'Assigned', assignedTo: 7 }, picker)).toEqual(['pick']);
    expect(jobActions({ status: 'In Progress', assignedTo: 7 }, picker)).toEqual(['pick']);
    expect(jobActions({ status: 'Assigned', assignedTo: 8 }, picker)).toEqual([]);
    expect(jobActions({ status: 'Done', assignedTo: 7 }, picker)).toEqual([]);
  });

  it('offers a supervisor assign, unassign and cancel as the PICK_JOB machine allows', () => {
    expect(jobActions({ status: 'Open', assignedTo: null }, supervisor)).toEqual(['pick', 'assign', 'cancel']);
    expect(jobActions({ status: 'Assigned', assignedTo: 8 }, supervisor)).toEqual(['assign', 'unassign', 'cancel']);
    expect(jobActions({ status: 'In Progress', assignedTo: 8 }, supervisor)).toEqual([]);
    expect(jobActions({ status: 'Short', assignedTo: null }, supervisor)).toEqual([]);
    expect(jobActions({ status: 'Cancelled', assignedTo: null }, supervisor)).toEqual([]);
  });

  it('offers nothing to a user who is not staff', () => {
    expect(jobActions({ status: 'Open', assignedTo: null }, reader)).toEqual([]);
  });

  it('lets a supervisor cancel a wave only before it starts', () => {
    expect(mayCancelWave({ status: 'Open' }, supervisor)).toBe(true);
    expect(mayCancelWave({ status: 'In Progress' }, supervisor)).toBe(false);
    expect(mayCancelWave({ status: 'Open' }, picker)).toBe(false);
  });

  it('says how far a wave or job is', () => {
    expect(progressOf(3, 12)).toEqual({ percent: 25, complete: false });
    expect(progressOf(12, 12)).toEqual({ percent: 100, complete: true });
    expect(progressOf(0, 0)).toEqual({ percent: 0, complete: false });
  });
});

describe('ship confirm', () => {
  const order = (orderId: number, carrierAccountId: number | null, carrierName: string | null, units = 2) =>
    ({ orderId, soNumber: `SO-${orderId}`, carrierAccountId, carrierName, allocatedQuantity: units }) as OrderSummary;

  it('groups packed orders by carrier account, named carriers first, orders without one last', () => {
    const groups = groupByCarrier([order(1, null, null), order(2, 5, 'UPS', 3), order(3, 4, 'DHL'), order(4, 5, 'UPS', 1)]);
    expect(groups.map((g) => [g.carrierName, g.orders.map((o) => o.orderId), g.units])).toEqual([
      ['DHL', [3], 2], ['UPS', [2, 4], 4], [null, [1], 2],
    ]);
  });

  it('ships a carrier’s group by its account (every packed order of it), and a group without one by its orders', () => {
    const [ups, none] = groupByCarrier([order(2, 5, 'UPS'), order(1, null, null), order(6, null, null)]);
    expect(shipGroupInput(ups, 3)).toEqual({ warehouseId: 3, carrierAccountId: 5 });
    expect(shipGroupInput(none, 3)).toEqual({ warehouseId: 3, orderIds: [1, 6] });
  });

  it('reads a ship confirm’s answer: shipped, cartons and units, backorders, refusals', () => {
    expect(shipSummary({
      shipped: [
        { orderId: 1, soNumber: 'SO-1', shipDate: '2026-01-02', cartons: 2, units: 10, backorderOrderId: null, backorderSoNumber: null },
        { orderId: 2, soNumber: 'SO-2', shipDate: '2026-01-02', cartons: 1, units: 3, backorderOrderId: 9, backorderSoNumber: 'SO-9' },
      ],
      refused: [{ orderId: 5, soNumber: null, message: 'Order is not packed' }],
    })).toEqual({
      shipped: 2, cartons: 3, units: 13,
      backorders: [{ soNumber: 'SO-2', backorderSoNumber: 'SO-9' }],
      refused: [{ soNumber: '#5', message: 'Order is not packed' }],
    });
  });
});

describe('batchJobViewOf (which /BatchJob view a URL asks for)', () => {
  it('opens the picking screen on ?job=, the pack station on ?pack=1, and the lists otherwise', () => {
    expect(batchJobViewOf(new URLSearchParams('job=12'))).toEqual({ kind: 'picking', jobId: 12 });
    expect(batchJobViewOf(new URLSearchParams('pack=1&order=7'))).toEqual({ kind: 'pack', orderId: 7 });
    expect(batchJobViewOf(new URLSearchParams('pack=1'))).toEqual({ kind: 'pack', orderId: null });
    expect(batchJobViewOf(new URLSearchParams(''))).toEqual({ kind: 'supervisor' });
  });

  it('ignores ids that are not positive whole numbers', () => {
    expect(batchJobViewOf(new URLSearchParams('job=abc'))).toEqual({ kind: 'supervisor' });
    expect(batchJobViewOf(new URLSearchParams('job=-3'))).toEqual({ kind: 'supervisor' });
    expect(batchJobViewOf(new URLSearchParams('pack=1&order=1.5'))).toEqual({ kind: 'pack', orderId: null });
  });
});

describe('jobIdOf (the job TakeNextJob gave)', () => {
  it('reads the job itself or a mutation answer carrying it', () => {
    expect(jobIdOf({ jobId: 5, jobNumber: 'JOB-5' })).toBe(5);
    expect(jobIdOf({ message: 'Job taken', data: { jobId: 6 } })).toBe(6);
    expect(jobIdOf({ message: 'No job' })).toBeNull();
    expect(jobIdOf(undefined)).toBeNull();
  });
});
