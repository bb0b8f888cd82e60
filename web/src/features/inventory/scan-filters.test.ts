import { describe, expect, it } from 'vitest';
import { palletRowOf, scanFilter } from './scan-filters';

describe('scanFilter', () => {
  it('narrows the stock list to a scanned SKU or location, and searches a scanned pallet', () => {
    expect(scanFilter({
      kind: 'sku', skuId: 4, customerId: 1, customerName: 'Acme', skuCode: 'TENT-2P', description: 'Tent', uom: 'EA', isActive: true,
      isLotTracked: false, isExpiryTracked: false, matchedBy: 'gtin', packageId: 8, packageName: 'Case of 12', unitsPerScan: 12,
    })).toEqual({ key: 'skuId', value: 4, label: 'TENT-2P (Acme)' });
    expect(scanFilter({ kind: 'location', locationId: 9, warehouseId: 1, locationCode: 'RETURNS-01', type: 'returns', zone: null, isActive: true }))
      .toEqual({ key: 'locationId', value: 9, label: 'RETURNS-01' });
    expect(scanFilter({ kind: 'pallet', pallet: 'LP-7', warehouseId: 1, locationId: 9, locationCode: 'DOCK-01', onHand: 3, allocated: 0, lines: [] }))
      .toEqual({ key: 'searchQuery', value: 'LP-7', label: 'LP-7' });
  });
});

describe('palletRowOf', () => {
  const line = (customerId: number, skuId: number, onHand: number) => ({
    customerId, customerName: `C${customerId}`, skuId, skuCode: `S${skuId}`, description: '', lot: '', expiryDate: null, onHand, allocated: 0,
  });
  it('makes the move drawer’s row of a scanned pallet: its place, units and SKUs; the client when it has one', () => {
    const one = palletRowOf({ kind: 'pallet', pallet: 'LP-1', warehouseId: 2, locationId: 9, locationCode: 'DOCK-01', onHand: 8, allocated: 1, lines: [line(3, 1, 5), line(3, 2, 3)] });
    expect(one).toMatchObject({ pallet: 'LP-1', warehouseId: 2, locationId: 9, locationCode: 'DOCK-01', onHand: 8, allocated: 1, skuCount: 2, customerId: 3, customerName: 'C3' });
    const mixed = palletRowOf({ kind: 'pallet', pallet: 'LP-2', warehouseId: 2, locationId: 9, locationCode: 'DOCK-01', onHand: 2, allocated: 0, lines: [line(3, 1, 1), line(4, 5, 1)] });
    expect(mixed).toMatchObject({ customerId: 0, customerName: '', skuCount: 2 });
  });
});
