import { describe, expect, it } from 'vitest';
import type { AllocationResult, OrderBatchResult, SkuPackage } from '@bolx/contracts';
import { eligibleOrders, floorOrderActions, lotProblem, machineHas, matchingBatch, mayMakeMove, offersKitBuild, orderActions, tooManyMatching, repeatedLine, summarizeBatch, toOrderLines, unitsPer } from './order-model';

const staff = { staff: true, canWrite: true, isClient: false };
const client = { staff: false, canWrite: true, isClient: true };
const reader = { staff: false, canWrite: false, isClient: true };

describe('offersKitBuild (the drawer\'s "Build kits" on a line)', () => {
  const kitBuilder = { ...staff, buildsKits: true };
  const shortKit = { isKit: true, quantity: 10, allocatedQuantity: 4 };

  it('offers it on a kit line short of kits, to staff who build kits, while the order waits for stock', () => {
    for (const status of ['New', 'Partially Allocated', 'Backordered', 'On Hold'] as const) expect(offersKitBuild(status, shortKit, kitBuilder)).toBe(true);
  });

  it('not on a whole line, a plain SKU, an order on the floor or closed, nor to anyone without Kit Dashboard write', () => {
    expect(offersKitBuild('Partially Allocated', { ...shortKit, allocatedQuantity: 10 }, kitBuilder)).toBe(false);
    expect(offersKitBuild('Partially Allocated', { ...shortKit, isKit: false }, kitBuilder)).toBe(false);
    for (const status of ['Allocated', 'Released', 'Picking', 'Shipped', 'Cancelled'] as const) expect(offersKitBuild(status, shortKit, kitBuilder)).toBe(false);
    expect(offersKitBuild('Backordered', shortKit, staff)).toBe(false);
    expect(offersKitBuild('Backordered', shortKit, { ...client, buildsKits: false })).toBe(false);
  });
});

describe('bulk moves on all orders matching the filters', () => {
  it('send the list\'s filters (unset ones left out) and search, not ids', () => {
    expect(matchingBatch({ filters: { warehouseId: 3, customerId: undefined, status: 'New', fromDate: '', priority: 2 }, searchQuery: ' acme ' }))
      .toEqual({ filters: { warehouseId: 3, status: 'New', priority: 2 }, searchQuery: 'acme' });
    expect(matchingBatch({ filters: {}, searchQuery: '' })).toEqual({ filters: {}, searchQuery: '' });
  });

  it('are not offered past the server\'s bound of 5,000 orders', () => {
    expect(tooManyMatching(5000)).toBe(false);
    expect(tooManyMatching(5001)).toBe(true);
  });
});

describe('orderActions (what an order offers to whom)', () => {
  it('offers staff the moves the status machine allows from the status', () => {
    expect(orderActions('New', staff)).toEqual(expect.arrayContaining(['hold', 'cancel']));
    expect(orderActions('New', staff)).not.toContain('releaseHold');
    expect(orderActions('On Hold', staff)).toEqual(expect.arrayContaining(['releaseHold', 'cancel']));
    expect(orderActions('On Hold', staff)).not.toContain('hold');
    expect(orderActions('Picking', staff)).toEqual([]);
    expect(orderActions('Shipped', staff)).toEqual([]);
  });

  it('never offers a client account the staff-only moves, and cancel only before release', () => {
    for (const status of ['New', 'On Hold', 'Backordered'] as const) {
      expect(orderActions(status, client)).toEqual(['cancel']);
    }
    expect(orderActions('Released', staff)).toContain('cancel');
    expect(orderActions('Released', client)).toEqual([]);
    expect(orderActions('New', reader)).toEqual([]);
  });

  it('offers allocate and unallocate only once the status machine has them, and only to staff', () => {
    expect(mayMakeMove('allocate', staff)).toBe(machineHas('allocate'));
    expect(mayMakeMove('allocate', client)).toBe(false);
    expect(mayMakeMove('hold', client)).toBe(false);
    expect(mayMakeMove('cancel', client)).toBe(true);
    expect(mayMakeMove('cancel', reader)).toBe(false);
  });

  it('sends a bulk move only the selected orders whose status allows it', () => {
    const rows = [{ orderId: 1, status: 'New' as const }, { orderId: 2, status: 'On Hold' as const }, { orderId: 3, status: 'Shipped' as const }];
    expect(eligibleOrders(rows, 'hold', staff).map((r) => r.orderId)).toEqual([1]);
    expect(eligibleOrders(rows, 'releaseHold', staff).map((r) => r.orderId)).toEqual([2]);
    expect(eligibleOrders(rows, 'cancel', staff).map((r) => r.orderId)).toEqual([1, 2]);
    expect(eligibleOrders(rows, 'hold', client)).toEqual([]);
  });
});

describe('summarizeBatch (a bulk move’s answer)', () => {
  it('counts the done and lists each refusal with its order', () => {
    const result: OrderBatchResult = {
      done: [{ orderId: 1, soNumber: 'SO-1', status: 'On Hold' }],
      refused: [{ orderId: 2, soNumber: 'SO-2', message: 'Picking has started' }, { orderId: 9, soNumber: null, message: 'Order not found' }],
    };
    expect(summarizeBatch(result)).toEqual({
      done: 1, shortLines: [],
      refused: [{ soNumber: 'SO-2', message: 'Picking has started' }, { soNumber: '#9', message: 'Order not found' }],
    });
  });

  it('gives allocation’s outcome and its short lines by reason, most first, leaving out reasons with none', () => {
    const result: AllocationResult = {
      done: [{ orderId: 1, soNumber: 'SO-1', status: 'Allocated' }, { orderId: 2, soNumber: 'SO-2', status: 'Backordered' }],
      refused: [],
      orders: [],
      summary: { orders: 2, allocated: 1, partiallyAllocated: 0, backordered: 1, refused: 0, shortLinesByReason: { 'expired-only': 1, 'no-stock': 3, 'in-quarantine': 0 } },
    };
    const s = summarizeBatch(result);
    expect(s.allocation).toEqual({ allocated: 1, partiallyAllocated: 0, backordered: 1 });
    expect(s.shortLines).toEqual([{ reason: 'no-stock', count: 3 }, { reason: 'expired-only', count: 1 }]);
  });
});

describe('the order form’s lines', () => {
  const pkg = (packageid: number, parentPackageId: number | null, quantity: number, packageName = 'Case') =>
    ({ packageid, parentPackageId, quantity, packageName }) as SkuPackage;
  // A pallet of 40 cases of 12 eaches.
  const packages = [pkg(1, null, 1, 'Pallet'), pkg(2, 1, 40, 'Case'), pkg(3, 2, 12, 'Each')];

  it('counts a package level in the units it holds (the server’s rule)', () => {
    expect(unitsPer(packages, 2)).toBe(12);
    expect(unitsPer(packages, 1)).toBe(480);
    expect(unitsPer(packages, undefined)).toBe(1);
    expect(unitsPer(undefined, 2)).toBe(1);
  });

  it('sends quantity in units — a whole number of packages — and the lot only when one is asked for', () => {
    expect(toOrderLines([
      { skuId: 7, count: 3, packageId: 2, unitsPerPackage: 12, lot: '  ' },
      { skuId: 8, count: 5, lot: ' L-42 ' },
      { skuId: 9, count: 2, unitsPerPackage: 12 },
    ])).toEqual([
      { skuId: 7, quantity: 36, packageId: 2 },
      { skuId: 8, quantity: 5, lot: 'L-42' },
      { skuId: 9, quantity: 2 },
    ]);
  });

  it('refuses a lot on a SKU that does not track lots, before sending', () => {
    expect(lotProblem({ skuId: 1, lot: 'L1', lotTracked: false })).toBe('lotNotTracked');
    expect(lotProblem({ skuId: 1, lot: 'L1', lotTracked: true })).toBeUndefined();
    expect(lotProblem({ skuId: 1, lot: ' ', lotTracked: false })).toBeUndefined();
  });

  it('names the earlier line a line repeats (same SKU, level and lot)', () => {
    const lines = [{ skuId: 1, lot: 'A' }, { skuId: 2 }, { skuId: 1, lot: 'A ' }, { skuId: 1, lot: 'B' }, { skuId: 2, packageId: 5 }];
    expect(lines.map((_, i) => repeatedLine(lines, i))).toEqual([undefined, undefined, 1, undefined, undefined]);
  });
});

describe('floorOrderActions (the floor steps of the order drawer)', () => {
  const floorStaff = { release: true, pick: true, packAndShip: true };
  const picker = { release: false, pick: true, packAndShip: false };
  const clientAccount = { release: false, pick: false, packAndShip: false };

  it('offers each step in the status it belongs to', () => {
    expect(floorOrderActions('Allocated', floorStaff)).toEqual(['release']);
    expect(floorOrderActions('Released', floorStaff)).toEqual(['pick', 'packingSlip']);
    expect(floorOrderActions('Picking', floorStaff)).toEqual(['pick', 'packingSlip']);
    expect(floorOrderActions('Picked', floorStaff)).toEqual(['pack', 'packingSlip']);
    expect(floorOrderActions('Packed', floorStaff)).toEqual(['ship', 'packingSlip']);
    expect(floorOrderActions('Shipped', floorStaff)).toEqual(['packingSlip']);
  });

  it('releases what the status machine lets be released, but never an order with nothing allocated', () => {
    expect(floorOrderActions('Partially Allocated', floorStaff)).toEqual(['release']);
    expect(floorOrderActions('Backordered', floorStaff)).toEqual([]);
    for (const status of ['New', 'On Hold', 'Cancelled'] as const) expect(floorOrderActions(status, floorStaff)).toEqual([]);
  });

  it('offers each step only to whom its route allows: a picker picks, a client account only reads its packing slip', () => {
    expect(floorOrderActions('Allocated', picker)).toEqual([]);
    expect(floorOrderActions('Released', picker)).toEqual(['pick', 'packingSlip']);
    expect(floorOrderActions('Packed', picker)).toEqual(['packingSlip']);
    for (const status of ['Allocated', 'Released', 'Picked', 'Packed'] as const) {
      expect(floorOrderActions(status, clientAccount)).not.toEqual(expect.arrayContaining(['release', 'pick', 'pack', 'ship']));
    }
    expect(floorOrderActions('Shipped', clientAccount)).toEqual(['packingSlip']);
  });
});
