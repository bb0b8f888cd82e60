import { describe, expect, it } from 'vitest';
import { asksExpiredConfirmation, putawaySources, roActions, roFileProblem } from './inbound-model';

const receipt = (over: Partial<{ lineId: number; locationId: number; locationCode: string; lot: string; pallet: string; quantity: number }>) => ({
  receiptId: 1, lineId: 1, skuCode: 'A', locationId: 10, locationCode: 'DOCK-01', lot: '', expiryDate: null, pallet: '', carton: '', quantity: 0,
  damagedQuantity: 0, damagedLocationCode: null, document: 'RO-1', receivedBy: 'admin', receivedAt: '2026-01-01T00:00:00Z', ...over,
});
const putaway = (over: Partial<{ lineId: number; fromLocationCode: string; lot: string; pallet: string; quantity: number }>) => ({
  putawayId: 1, lineId: 1, skuCode: 'A', fromLocationCode: 'DOCK-01', toLocationCode: 'A-01', lot: '', pallet: '', quantity: 0,
  document: 'RO-1', putawayBy: 'admin', putawayAt: '2026-01-01T00:00:00Z', ...over,
});

describe('putawaySources', () => {
  it('sums good units per dock place of the line, less what was put away from there', () => {
    const order = {
      receipts: [
        receipt({ quantity: 5, lot: 'L1', pallet: 'P1' }),
        receipt({ quantity: 3, lot: 'L1', pallet: 'P1' }),
        receipt({ quantity: 4, lot: 'L2', locationId: 11, locationCode: 'STAGE-01' }),
        receipt({ quantity: 0 }), // damaged only
        receipt({ quantity: 9, lineId: 2 }),
      ],
      putaways: [putaway({ quantity: 6, lot: 'L1', pallet: 'P1' }), putaway({ quantity: 4, lot: 'L2', fromLocationCode: 'STAGE-01' })],
    };
    expect(putawaySources(order, 1).map((s) => [s.locationCode, s.lot, s.pallet, s.quantity])).toEqual([['DOCK-01', 'L1', 'P1', 2]]);
    expect(putawaySources(order, 2)).toMatchObject([{ locationId: 10, quantity: 9 }]);
  });
});

describe('roActions', () => {
  it('offers each action only in the statuses the server allows it', () => {
    expect(roActions('Open')).toEqual({ edit: true, receive: true, putaway: false, finalize: false, cancel: true });
    expect(roActions('Receiving')).toEqual({ edit: true, receive: true, putaway: true, finalize: true, cancel: false });
    expect(roActions('Received')).toEqual({ edit: false, receive: false, putaway: true, finalize: false, cancel: false });
    expect(Object.values(roActions('Closed')).some(Boolean)).toBe(false);
    expect(Object.values(roActions('Cancelled')).some(Boolean)).toBe(false);
  });
});

describe('helpers', () => {
  it('accepts only CSV or XLSX files within the size limit', () => {
    expect(roFileProblem({ name: 'ro.CSV', size: 10 }, 100)).toBeNull();
    expect(roFileProblem({ name: 'ro.pdf', size: 10 }, 100)).toBe('type');
    expect(roFileProblem({ name: 'ro.xlsx', size: 0 }, 100)).toBe('empty');
    expect(roFileProblem({ name: 'ro.xlsx', size: 101 }, 100)).toBe('size');
  });
});

describe('asksExpiredConfirmation', () => {
  it('is the server asking about an expired lot (409 ending "expired on <date>"), not any other 409', () => {
    expect(asksExpiredConfirmation({ status: 409, message: 'Lot L-1 of SKU-1 expired on 2020-01-31' })).toBe(true);
    expect(asksExpiredConfirmation({ status: 409, message: '2 lines have expired lots: SKU-1 expired on 2020-01-31' })).toBe(true);
    expect(asksExpiredConfirmation({ status: 409, message: 'A request with this Idempotency-Key is still in progress' })).toBe(false);
    expect(asksExpiredConfirmation({ status: 422, message: 'Lot L-1 of SKU-1 expired on 2020-01-31' })).toBe(false);
  });
});
