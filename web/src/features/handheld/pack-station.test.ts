import { describe, expect, it } from 'vitest';
import type { Carton, CartonType, PackItemResult, PackOrderView } from '@bolx/contracts';
import {
  applyPackItem, packLines, packStage, planPackScan, readStationSettings, unitsLeft, weightPrefill, writeStationSettings, type PackContext,
} from './pack-station';

function carton(id: number, status: Carton['status'], lines: Carton['lines']): Carton {
  return {
    cartonId: id, cartonNumber: `CTN-${id}`, orderId: 1, cartonTypeId: 3, cartonTypeCode: 'BOX-S', status, lengthCm: 30, widthCm: 20, heightCm: 10,
    weightKg: status === 'Closed' ? 2.5 : null, trackingNumber: null, lines, closedAt: null,
  };
}

function order(cartons: Carton[] = [], over: Partial<PackOrderView> = {}): PackOrderView {
  return {
    orderId: 1, soNumber: 'SO-1', referenceNumber: 'R-1', customerId: 1, customerName: 'C', status: 'Picked', shipToName: null,
    carrierName: null, carrierService: null, toteCodes: ['T1'],
    lines: [
      { orderLineId: 11, lineNo: 2, skuId: 2, skuCode: 'SKU-2', skuDescription: '', lot: '', quantity: 5, pickedQuantity: 5, packedQuantity: 0 },
      { orderLineId: 10, lineNo: 1, skuId: 1, skuCode: 'SKU-1', skuDescription: '', lot: '', quantity: 4, pickedQuantity: 3, packedQuantity: 0 },
    ],
    cartons,
    ...over,
  };
}

const ctx = (o: PackOrderView | undefined, over: Partial<PackContext> = {}): PackContext =>
  ({ warehouseId: 1, stationLocationId: 40, cartonTypeId: 3, order: o, inFlight: false, ...over });

describe('the pack station', () => {
  it('opens an order or tote on the first scan', () => {
    expect(packStage(undefined)).toBe('order');
    expect(planPackScan(ctx(undefined), ' T1 ')).toEqual({ kind: 'openPack', request: { warehouseId: 1, code: 'T1' } });
  });

  it('asks for the station location before anything is scanned', () => {
    expect(planPackScan(ctx(undefined, { stationLocationId: undefined }), 'T1')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pack.refuse.noStation' } });
  });

  it('packs the first item scan into a carton of the default type the server opens with it (one call), or refuses without one', () => {
    const o = order();
    expect(packStage(o)).toBe('carton');
    expect(planPackScan(ctx(o), 'SKU-1', 2)).toEqual({ kind: 'packItem', request: { orderId: 1, cartonTypeId: 3, code: 'SKU-1', quantity: 2 } });
    expect(planPackScan(ctx(o, { cartonTypeId: undefined }), 'SKU-1')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pack.refuse.noCartonType' } });
  });

  it('packs item scans into the open carton, counting what is left from the cartons’ contents', () => {
    const o = order([carton(8, 'Closed', [{ orderLineId: 11, skuId: 2, skuCode: 'SKU-2', lot: '', quantity: 5 }]), carton(9, 'Open', [{ orderLineId: 10, skuId: 1, skuCode: 'SKU-1', lot: '', quantity: 1 }])]);
    expect(packStage(o)).toBe('item');
    expect(planPackScan(ctx(o), 'SKU-1')).toEqual({ kind: 'packItem', request: { cartonId: 9, code: 'SKU-1', quantity: 1 } });
    expect(packLines(o).map((l) => [l.lineNo, l.packed, l.left])).toEqual([[1, 1, 2], [2, 5, 0]]);
    expect(unitsLeft(o)).toBe(2);
  });

  it('asks to close the carton when everything picked is in it, then for the next order once packed', () => {
    const full = order([carton(9, 'Open', [
      { orderLineId: 10, skuId: 1, skuCode: 'SKU-1', lot: '', quantity: 3 }, { orderLineId: 11, skuId: 2, skuCode: 'SKU-2', lot: '', quantity: 5 },
    ])]);
    expect(packStage(full)).toBe('close');
    expect(planPackScan(ctx(full), 'SKU-1')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pack.refuse.nothingLeft' } });
    const packed = { ...full, status: 'Packed' as const, cartons: full.cartons.map((c) => ({ ...c, status: 'Closed' as const })) };
    expect(packStage(packed)).toBe('packed');
    expect(planPackScan(ctx(packed), 'T2')).toEqual({ kind: 'openPack', request: { warehouseId: 1, code: 'T2' } });
  });

  it('ignores scans while a call is in flight and refuses an empty Enter', () => {
    expect(planPackScan(ctx(order(), { inFlight: true }), 'SKU-1')).toEqual({ kind: 'ignore' });
    expect(planPackScan(ctx(order()), '  ')).toMatchObject({ kind: 'refuse', message: { id: 'handheld.pack.refuse.empty' } });
  });

  it('prefills the closing weight with the carton type’s tare', () => {
    const types = [{ cartonTypeId: 3, tareWeightKg: 0.35 }, { cartonTypeId: 4, tareWeightKg: 0 }] as CartonType[];
    expect(weightPrefill(carton(9, 'Open', []), types)).toBe(0.35);
    expect(weightPrefill({ ...carton(9, 'Open', []), cartonTypeId: 4 }, types)).toBeUndefined();
  });

  it('remembers the station location and the carton type per warehouse, forgetting broken entries', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    writeStationSettings(storage, 1, { stationLocationId: 40 });
    writeStationSettings(storage, 1, { cartonTypeId: 3 });
    writeStationSettings(storage, 2, { stationLocationId: 77 });
    expect(readStationSettings(storage, 1)).toEqual({ stationLocationId: 40, cartonTypeId: 3 });
    expect(readStationSettings(storage, 2)).toEqual({ stationLocationId: 77 });
    store.set('bolx.packStation.3', '{not json');
    expect(readStationSettings(storage, 3)).toEqual({});
    expect(readStationSettings(undefined, 1)).toEqual({});
  });

  it('merges a PackItem answer (what the scan changed) into the order: the line\'s units, the carton\'s line, a carton the scan opened', () => {
    const header = (id: number): PackItemResult['carton'] => { const { lines: _l, ...c } = carton(id, 'Open', []); return c; };
    const answer = (over: Partial<PackItemResult>): PackItemResult => ({
      message: 'ok', orderId: 1, carton: header(9), opened: false,
      cartonLine: { orderLineId: 10, skuId: 1, skuCode: 'SKU-1', lot: '', quantity: 2 }, line: { orderLineId: 10, pickedQuantity: 3, packedQuantity: 2 }, ...over,
    });
    const o = order([carton(8, 'Closed', [{ orderLineId: 11, skuId: 2, skuCode: 'SKU-2', lot: '', quantity: 5 }]), carton(9, 'Open', [{ orderLineId: 10, skuId: 1, skuCode: 'SKU-1', lot: '', quantity: 1 }])]);
    const after = applyPackItem(o, answer({}));
    expect(after.cartons[1].lines).toEqual([{ orderLineId: 10, skuId: 1, skuCode: 'SKU-1', lot: '', quantity: 2 }]);
    expect(after.cartons[0]).toBe(o.cartons[0]);
    expect(after.lines.find((l) => l.orderLineId === 10)).toMatchObject({ pickedQuantity: 3, packedQuantity: 2 });
    expect(unitsLeft(after)).toBe(1);
    // A new line (another lot) is added to the carton; a carton the scan opened is added to the order.
    expect(applyPackItem(o, answer({ cartonLine: { orderLineId: 10, skuId: 1, skuCode: 'SKU-1', lot: 'L2', quantity: 1 } })).cartons[1].lines).toHaveLength(2);
    const fresh = applyPackItem(order(), answer({ carton: header(12), opened: true, cartonLine: { orderLineId: 11, skuId: 2, skuCode: 'SKU-2', lot: '', quantity: 1 }, line: { orderLineId: 11, pickedQuantity: 5, packedQuantity: 1 } }));
    expect(fresh.cartons.map((c) => [c.cartonId, c.status, c.lines.length])).toEqual([[12, 'Open', 1]]);
    expect(packStage(fresh)).toBe('item');
    // Another order's answer changes nothing.
    expect(applyPackItem(o, answer({ orderId: 2 }))).toBe(o);
  });
});
