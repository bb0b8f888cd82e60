import { describe, expect, it } from 'vitest';
import type { ScanMatch, ScanResolveResponse } from '@bolx/contracts';
import { pickMatch, quantityAfterScan, scanMessage } from './scan-match';

const sku = (over: Partial<Extract<ScanMatch, { kind: 'sku' }>> = {}): ScanMatch => ({
  kind: 'sku', skuId: 1, customerId: 7, customerName: 'Acme', skuCode: 'WIDGET', description: 'Widget', uom: 'EA', isActive: true,
  isLotTracked: false, isExpiryTracked: false, matchedBy: 'sku', packageId: null, packageName: null, unitsPerScan: 1, ...over,
});
const location = (over: Partial<Extract<ScanMatch, { kind: 'location' }>> = {}): ScanMatch => ({
  kind: 'location', locationId: 5, warehouseId: 1, locationCode: 'QUARANTINE-01', type: 'quarantine', zone: null, isActive: true, ...over,
});
const pallet = (locationCode: string): ScanMatch => ({
  kind: 'pallet', pallet: 'LP-1', warehouseId: 1, locationId: 9, locationCode, onHand: 4, allocated: 0, lines: [],
});
const answer = (...matches: ScanMatch[]): ScanResolveResponse => ({ code: 'X1', kind: matches.length === 1 ? matches[0].kind : 'ambiguous', matches });
const t = (id: string, values?: Record<string, string | number>) => `${id}${values ? JSON.stringify(values) : ''}`;

describe('pickMatch', () => {
  it('takes the one match of a wanted kind, whatever else the code is', () => {
    expect(pickMatch(answer(location()), ['location'])).toEqual({ ok: true, match: location() });
    expect(pickMatch(answer(sku(), location()), ['location'])).toEqual({ ok: true, match: location() });
    expect(pickMatch(answer(sku({ unitsPerScan: 12 })), ['sku', 'location', 'pallet'])).toMatchObject({ ok: true, match: { unitsPerScan: 12 } });
  });

  it('refuses a code of another kind, naming what it is and what the field wants', () => {
    const out = pickMatch(answer(sku()), ['location']);
    expect(out).toEqual({ ok: false, message: { id: 'scan.wrongKind', values: { code: 'X1', found: 'sku', wanted: 'location' } } });
    if (!out.ok) expect(scanMessage(t, out.message)).toBe('scan.wrongKind{"code":"X1","found":"scan.kind.sku","wanted":"scan.kind.location"}');
    const two = pickMatch(answer(location()), ['sku', 'pallet']);
    if (!two.ok) expect(scanMessage(t, two.message)).toContain('"wanted":"scan.kind.skuscan.orscan.kind.pallet"');
  });

  it('asks for the client when two clients use the code, and refuses a pallet split over locations', () => {
    expect(pickMatch(answer(sku(), sku({ skuId: 2, skuCode: 'W2', customerName: 'Beta' })), ['sku'])).toEqual({
      ok: false, message: { id: 'scan.severalClients', values: { code: 'X1', list: 'WIDGET (Acme), W2 (Beta)' } },
    });
    expect(pickMatch(answer(pallet('A-1'), pallet('B-2')), ['pallet'])).toMatchObject({ ok: false, message: { id: 'scan.palletSplit', values: { list: 'A-1, B-2' } } });
  });

  it('refuses an inactive SKU or location', () => {
    expect(pickMatch(answer(sku({ isActive: false })), ['sku'])).toMatchObject({ ok: false, message: { id: 'scan.inactiveSku', values: { sku: 'WIDGET' } } });
    expect(pickMatch(answer(location({ isActive: false })), ['location'])).toMatchObject({ ok: false, message: { id: 'scan.inactiveLocation' } });
  });
});

describe('quantityAfterScan', () => {
  it('adds the units of each scan of the same SKU; a case of 12 adds 12', () => {
    expect(quantityAfterScan(undefined, 12, true)).toBe(12);
    expect(quantityAfterScan(12, 12, true)).toBe(24);
    expect(quantityAfterScan(3, 1, true)).toBe(4);
  });
  it('removes them from a negative quantity, and starts again on another SKU', () => {
    expect(quantityAfterScan(-12, 12, true)).toBe(-24);
    expect(quantityAfterScan(24, 6, false)).toBe(6);
    expect(quantityAfterScan(0, 6, true)).toBe(6);
  });
});
