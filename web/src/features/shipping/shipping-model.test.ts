import { describe, expect, it } from 'vitest';
import type { WaitingOrder } from '@bolx/contracts';
import { exceptionParts, groupWaiting, money, rowActions, selectionPlan } from './shipping-model';

const order = (over: Partial<WaitingOrder>): WaitingOrder => ({
  orderId: 1, soNumber: 'SO-1', referenceNumber: 'R', customerId: 1, customerName: 'Acme', carrierAccountId: 1, accountName: 'UPS', carrierService: null,
  requestedShipDate: null, cutoff: '17:00', cartons: 1, weightKg: 5, shipToName: null, shipToZip: null, shipmentId: null, shipmentNumber: null,
  shipmentStatus: null, serviceName: null, rateMinor: null, exception: null, ...over,
});

describe('shipping dashboard model', () => {
  it('groups packed orders by carrier, earliest cut-off first, no carrier last', () => {
    const groups = groupWaiting([
      order({ orderId: 1, carrierAccountId: 1, accountName: 'UPS', cutoff: '18:00' }),
      order({ orderId: 2, carrierAccountId: null, accountName: null, cutoff: null }),
      order({ orderId: 3, carrierAccountId: 2, accountName: 'FedEx', cutoff: '16:30', cartons: 2 }),
      order({ orderId: 4, carrierAccountId: 2, accountName: 'FedEx', cutoff: '17:00', cartons: 3 }),
    ]);
    expect(groups.map((g) => [g.accountName, g.cutoff, g.orders.map((o) => o.orderId), g.cartons])).toEqual([
      ['FedEx', '16:30', [3, 4], 5], ['UPS', '18:00', [1], 1], [null, null, [2], 1],
    ]);
  });

  it('reads an exception, offers label before and print/void/ship after, and splits a selection', () => {
    expect(exceptionParts('overweight: Package 1 bills 45 kg')).toEqual({ kind: 'overweight', text: 'Package 1 bills 45 kg' });
    expect(exceptionParts(null)).toBeNull();
    expect(rowActions(order({}))).toEqual({ rate: true, label: true, print: false, void: false, ship: false });
    expect(rowActions(order({ shipmentStatus: 'Labelled', shipmentId: 9 }))).toEqual({ rate: false, label: false, print: true, void: true, ship: true });
    expect(selectionPlan([order({ orderId: 1 }), order({ orderId: 2, shipmentId: 7, shipmentStatus: 'Labelled' }), order({ orderId: 3, shipmentId: 8, shipmentStatus: 'Open' })]))
      .toEqual({ toLabel: [1, 3], labelled: [7] });
    expect(money(1125)).toBe('$11.25');
    expect(money(null)).toBe('—');
  });
});
