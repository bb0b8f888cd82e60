import { describe, expect, it } from 'vitest';
import { adjustmentFields } from './adjustment-fields';

describe('adjustment fields', () => {
  it('offer lot and expiry only for a SKU that tracks them', () => {
    expect(adjustmentFields({ lot: false, expiry: false }, 5)).toEqual({ lot: false, expiry: false });
    expect(adjustmentFields({ lot: true, expiry: false }, 5)).toEqual({ lot: true, expiry: false });
    expect(adjustmentFields({ lot: false, expiry: true }, 5)).toEqual({ lot: false, expiry: true });
  });
  it('offer no expiry for stock taken away', () => {
    expect(adjustmentFields({ lot: true, expiry: true }, -2)).toEqual({ lot: true, expiry: false });
  });
  it('offer both before a SKU is chosen', () => {
    expect(adjustmentFields(undefined, undefined)).toEqual({ lot: true, expiry: true });
  });
});
