import type { ScanMatch, ScanPallet } from '@bolx/contracts';
import type { PalletRow } from './inventory-api';

/**
 * How a scan narrows a stock list: a SKU (or a package level of it) to that SKU, a location to that location,
 * a pallet by searching its licence plate (the list has no pallet filter; the search looks in pallets).
 */
export function scanFilter(m: ScanMatch): { key: 'skuId' | 'locationId' | 'searchQuery'; value: number | string; label: string } {
  if (m.kind === 'sku') return { key: 'skuId', value: m.skuId, label: `${m.skuCode} (${m.customerName})` };
  if (m.kind === 'location') return { key: 'locationId', value: m.locationId, label: m.locationCode };
  return { key: 'searchQuery', value: m.pallet, label: m.pallet };
}

/** A scanned pallet as the list's row, for the move drawer. */
export function palletRowOf(m: ScanPallet): PalletRow {
  const customers = [...new Set(m.lines.map((l) => l.customerId))];
  return {
    warehouseId: m.warehouseId, warehouseName: '', pallet: m.pallet, locationId: m.locationId, locationCode: m.locationCode,
    customerId: customers.length === 1 ? customers[0] : 0, customerName: customers.length === 1 ? m.lines[0].customerName : '',
    skuCount: new Set(m.lines.map((l) => l.skuId)).size, onHand: m.onHand, allocated: m.allocated,
  };
}
