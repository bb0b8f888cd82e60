import { describe, expect, it } from 'vitest';
import { NO_PINS, valuesAfterReceipt } from './scan-pins';

describe('valuesAfterReceipt', () => {
  it('clears the quantities, the lot and the expiry when nothing is pinned', () => {
    expect(valuesAfterReceipt(NO_PINS)).toEqual({ quantity: 1, damagedQuantity: 0, lot: '', expiryDate: '' });
  });

  it('leaves the scan box alone: a code typed while the receipt posted (the same one again) is the next scan', () => {
    expect(valuesAfterReceipt(NO_PINS)).not.toHaveProperty('scanCode');
  });

  it('leaves a pinned field out, so the form keeps its value for the next carton', () => {
    expect(valuesAfterReceipt({ lot: true, expiryDate: false })).toEqual({ quantity: 1, damagedQuantity: 0, expiryDate: '' });
    expect(valuesAfterReceipt({ lot: true, expiryDate: true })).toEqual({ quantity: 1, damagedQuantity: 0 });
  });

  it('never touches the pallet or the dock', () => {
    const next = valuesAfterReceipt(NO_PINS);
    expect(next).not.toHaveProperty('pallet');
    expect(next).not.toHaveProperty('locationId');
  });
});
