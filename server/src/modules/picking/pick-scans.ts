import type { CheckPickScanResult, PickScanStep } from '@bolx/contracts';
import type { ScanSkuMatch } from '../scans/scans.service.js';
import type { StopTask } from './picking.repository.js';

/** What a stop expects to be scanned: its place, SKU (of its client), lot, and the totes of its tasks' orders. */
export interface StopExpectation {
  locationCode: string;
  skuId: number;
  skuCode: string;
  customerId: number;
  lot: string;
  totes: { slot: number; code: string | null }[];
}

export function expectationOf(tasks: StopTask[]): StopExpectation {
  const first = tasks[0];
  const slots = new Map<number, string | null>();
  for (const t of tasks) slots.set(t.slot, t.tote_code);
  return {
    locationCode: first.location_code, skuId: first.sku_id, skuCode: first.sku_code, customerId: first.customer_id, lot: first.lot,
    totes: [...slots].map(([slot, code]) => ({ slot, code })),
  };
}

const same = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

/**
 * Checks one scan of a stop against what it expects; a refusal names what was expected. An item scan is judged on
 * the scan resolver's SKU matches (its code, UPC, barcode, a package GTIN counting its units): the stop's SKU passes;
 * another client's item is refused as such, never naming that client.
 */
export function checkScan(stop: StopExpectation, step: PickScanStep, code: string, items: ScanSkuMatch[] = []): CheckPickScanResult {
  switch (step) {
    case 'location':
      return same(code, stop.locationCode)
        ? { ok: true, message: `Location ${stop.locationCode}` }
        : { ok: false, message: `Wrong location: expected ${stop.locationCode}` };
    case 'item': {
      const match = items.find((m) => m.skuId === stop.skuId);
      if (match) return { ok: true, message: `${stop.skuCode}${match.unitsPerScan > 1 ? ` × ${match.unitsPerScan}` : ''}`, unitsPerScan: match.unitsPerScan };
      if (items.length > 0 && items.every((m) => m.customerId !== stop.customerId)) {
        return { ok: false, message: `This is another client's item: expected ${stop.skuCode}` };
      }
      return { ok: false, message: items.length ? `Wrong item: expected ${stop.skuCode}` : `Unknown item '${code.trim()}': expected ${stop.skuCode}` };
    }
    case 'lot':
      if (!stop.lot) return { ok: true, message: 'No lot to check' };
      return code.trim() === stop.lot ? { ok: true, message: `Lot ${stop.lot}` } : { ok: false, message: `Wrong lot: expected ${stop.lot}` };
    case 'tote': {
      const tote = stop.totes.find((t) => t.code !== null && same(code, t.code));
      if (tote) return { ok: true, message: `Tote ${tote.code} (slot ${tote.slot})` };
      const missing = stop.totes.find((t) => t.code === null);
      if (missing && stop.totes.every((t) => t.code === null)) return { ok: false, message: `Scan a tote for slot ${missing.slot} first` };
      return { ok: false, message: `Wrong tote: expected ${stop.totes.filter((t) => t.code).map((t) => t.code).join(' or ')}` };
    }
  }
}
