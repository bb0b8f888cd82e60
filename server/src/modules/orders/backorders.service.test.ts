import { describe, expect, it } from 'vitest';
import { arrivedSkuIds } from './backorders.service.js';

const leg = (skuId: number, qty: number, txnType: string) => ({ skuId, locationId: 1, lot: '', pallet: '', qty, txnType });

describe('which postings make waiting orders look for stock', () => {
  it('units arriving (receipt, putaway, adjustment up, count gain, return, kit build, move) do; an order’s own picked or packed units moving on do not', () => {
    expect(arrivedSkuIds([leg(1, 5, 'receive'), leg(2, 3, 'adjust'), leg(3, 1, 'return'), leg(4, 2, 'kit_produce'), leg(5, 2, 'move_in'), leg(6, 1, 'count')])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(arrivedSkuIds([leg(1, -5, 'pick_out'), leg(1, 5, 'pick_in')])).toEqual([]);
    expect(arrivedSkuIds([leg(1, -5, 'pack_out'), leg(1, 5, 'pack_in')])).toEqual([]);
    expect(arrivedSkuIds([leg(1, -5, 'ship'), leg(2, -1, 'adjust')])).toEqual([]);
  });
});
