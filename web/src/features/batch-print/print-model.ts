import type { Key } from 'react';
import type { OrderStatus, OrderSummary, PickJobSummary } from '@bolx/contracts';
import type { BatchTarget } from '../../components/data-table/batch-selection';

/** What the server prints at once (contracts' printPickListsInput / printPackingSlipsInput). */
export const MAX_JOBS = 500;
export const MAX_ORDERS = 1000;

/** Orders whose packing slips are printed from here: those on the floor, and shipped ones for a reprint. */
export const SLIP_STATUSES: OrderStatus[] = ['Released', 'Picking', 'Picked', 'Packed', 'Shipped'];

export type PrintKind = 'pickLists' | 'packingSlips';

/** The picked rows' ids, in the order they were picked (a batch prints in that order). */
export function idsOf(target: BatchTarget<unknown>): number[] {
  return target.kind === 'rows' ? target.keys.map((k: Key) => Number(k)).filter((id) => Number.isInteger(id) && id > 0) : [];
}

/** Why a batch of this many cannot be printed (none picked, or more than the server prints at once); undefined when it can. */
export function printBlock(count: number, max: number, t: (id: string, values?: Record<string, string | number>) => string): string | undefined {
  if (count === 0) return t('batchPrint.pickSome');
  if (count > max) return t('batchPrint.tooMany', { max });
  return undefined;
}

/** The request body of a print: pick lists of jobs, or packing slips of jobs' orders or of orders. */
export function printBody(kind: PrintKind, of: 'jobs' | 'orders', ids: number[]): { jobIds: number[] } | { orderIds: number[] } {
  if (kind === 'pickLists' || of === 'jobs') return { jobIds: ids };
  return { orderIds: ids };
}

/** The PDF's name when the server sends none: the one document's number, or how many. */
export function printFileName(kind: PrintKind, numbers: string[]): string {
  const base = kind === 'pickLists' ? 'pick-list' : 'packing-slip';
  if (numbers.length === 1) return `${base}-${numbers[0]}.pdf`;
  return `${base}s-${numbers.length}.pdf`;
}

/** The job or order numbers of the picked rows (for the file name). */
export function numbersOf(target: BatchTarget<PickJobSummary | OrderSummary>): string[] {
  if (target.kind !== 'rows') return [];
  return target.rows.map((r) => ('jobNumber' in r ? r.jobNumber : r.soNumber));
}

/** A job's stops and units as the table shows them: "12 stops · 40 units", picked units once picking started. */
export function jobProgress(job: Pick<PickJobSummary, 'stopCount' | 'units' | 'pickedUnits'>): { stops: number; units: number; picked: number; started: boolean } {
  return { stops: job.stopCount, units: job.units, picked: job.pickedUnits, started: job.pickedUnits > 0 };
}
