import { describe, expect, it } from 'vitest';
import type { OrderSummary, PickJobSummary } from '@bolx/contracts';
import type { BatchTarget } from '../../components/data-table/batch-selection';
import { MAX_JOBS, MAX_ORDERS, SLIP_STATUSES, idsOf, jobProgress, numbersOf, printBlock, printBody, printFileName } from './print-model';

const t = (id: string, values?: Record<string, string | number>) => (values ? `${id}:${JSON.stringify(values)}` : id);
const job = (id: number, jobNumber: string) => ({ jobId: id, jobNumber, stopCount: 3, units: 9, pickedUnits: 0 }) as PickJobSummary;
const order = (id: number, soNumber: string) => ({ orderId: id, soNumber }) as OrderSummary;
const rows = <T,>(items: T[], key: (r: T) => number): BatchTarget<T> => ({ kind: 'rows', keys: items.map(key), rows: items });

describe('what a print sends', () => {
  it('sends the picked rows’ ids in the order picked', () => {
    expect(idsOf(rows([job(7, 'JOB-7'), job(3, 'JOB-3')], (j) => j.jobId))).toEqual([7, 3]);
    expect(idsOf({ kind: 'allMatching', request: { filters: {}, searchQuery: '' }, total: 40 })).toEqual([]);
  });

  it('pick lists always by job; packing slips by the jobs’ orders or by orders', () => {
    expect(printBody('pickLists', 'jobs', [1, 2])).toEqual({ jobIds: [1, 2] });
    expect(printBody('packingSlips', 'jobs', [1])).toEqual({ jobIds: [1] });
    expect(printBody('packingSlips', 'orders', [5, 6])).toEqual({ orderIds: [5, 6] });
  });

  it('refuses an empty batch and one larger than the server prints at once', () => {
    expect(printBlock(0, MAX_JOBS, t)).toBe('batchPrint.pickSome');
    expect(printBlock(MAX_JOBS + 1, MAX_JOBS, t)).toBe(`batchPrint.tooMany:{"max":${MAX_JOBS}}`);
    expect(printBlock(MAX_ORDERS, MAX_ORDERS, t)).toBeUndefined();
    expect(printBlock(1, MAX_JOBS, t)).toBeUndefined();
  });
});

describe('file names and the table', () => {
  it('names the file after the one document, or counts them', () => {
    expect(printFileName('pickLists', ['JOB-000012'])).toBe('pick-list-JOB-000012.pdf');
    expect(printFileName('pickLists', ['A', 'B', 'C'])).toBe('pick-lists-3.pdf');
    expect(printFileName('packingSlips', ['SO-000001'])).toBe('packing-slip-SO-000001.pdf');
    expect(printFileName('packingSlips', ['A', 'B'])).toBe('packing-slips-2.pdf');
  });

  it('takes the job or SO numbers of the picked rows', () => {
    expect(numbersOf(rows([job(1, 'JOB-1'), job(2, 'JOB-2')], (j) => j.jobId))).toEqual(['JOB-1', 'JOB-2']);
    expect(numbersOf(rows([order(9, 'SO-9')], (o) => o.orderId))).toEqual(['SO-9']);
  });

  it('offers the floor’s statuses for packing slips, in floor order', () => {
    expect(SLIP_STATUSES).toEqual(['Released', 'Picking', 'Picked', 'Packed', 'Shipped']);
  });

  it('shows a job as started once a unit is picked', () => {
    expect(jobProgress({ stopCount: 4, units: 10, pickedUnits: 0 })).toEqual({ stops: 4, units: 10, picked: 0, started: false });
    expect(jobProgress({ stopCount: 4, units: 10, pickedUnits: 3 }).started).toBe(true);
  });
});
