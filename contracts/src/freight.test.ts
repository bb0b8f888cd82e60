import { describe, expect, it } from 'vitest';
import { NMFC_CLASSES, createFreightShipmentInput, densityLbPerFt3, densityScaleOn, freightClassForDensity } from './freight.js';

describe('NMFC classes and the density scale', () => {
  it('holds the 18 NMFC classes', () => {
    expect(NMFC_CLASSES).toEqual(['50', '55', '60', '65', '70', '77.5', '85', '92.5', '100', '110', '125', '150', '175', '200', '250', '300', '400', '500']);
  });

  it('works out density in lb/ft³ from kg and cm (a 48×40×48 in pallet of 500 lb is 9.375 lb/ft³)', () => {
    // 48×40×48 in = 92,160 in³ = 53.333 ft³; 500 lb = 226.796 kg; 1 in = 2.54 cm.
    expect(densityLbPerFt3(226.796185, 121.92, 101.6, 121.92)).toBeCloseTo(9.375, 3);
    expect(densityLbPerFt3(10, 0, 10, 10)).toBe(0);
  });

  it('gives the class of the 13-tier scale in force since 19 July 2025, at each boundary', () => {
    const day = '2025-07-19';
    const cases: [number, string][] = [
      [60, '50'], [50, '50'], [49.99, '55'], [35, '55'], [34.9, '60'], [30, '60'], [29.9, '65'], [22.5, '65'], [22.4, '70'], [15, '70'],
      [14.9, '85'], [12, '85'], [11.9, '92.5'], [10, '92.5'], [9.99, '100'], [8, '100'], [7.9, '125'], [6, '125'], [5.9, '175'], [4, '175'],
      [3.9, '250'], [2, '250'], [1.9, '300'], [1, '300'], [0.99, '400'], [0, '400'],
    ];
    for (const [density, cls] of cases) expect([density, freightClassForDensity(density, day)]).toEqual([density, cls]);
    // 77.5, 110, 150 and 200 no longer come out of the density scale.
    expect(densityScaleOn(day)!.tiers.map((t) => t.freightClass)).not.toContain('77.5');
  });

  it('is tier for tier the published 13-sub scale of Docket 2025-1 (NMFC Item 110), 10 but less than 12 lb/ft³ being 92.5', () => {
    // Sub 1 … 13 as published: [lowest density (inclusive), class]; each tier ends where the next denser one starts.
    const published: [number, string][] = [
      [0, '400'], [1, '300'], [2, '250'], [4, '175'], [6, '125'], [8, '100'], [10, '92.5'], [12, '85'], [15, '70'], [22.5, '65'], [30, '60'], [35, '55'], [50, '50'],
    ];
    expect(densityScaleOn('2025-07-19')!.tiers.map((t) => [t.minDensity, t.freightClass]).reverse()).toEqual(published);
    // Just inside each end of the 10–12 tier.
    expect([freightClassForDensity(10, '2026-01-01'), freightClassForDensity(11.999, '2026-01-01'), freightClassForDensity(12, '2026-01-01')]).toEqual(['92.5', '92.5', '85']);
  });

  it('is dated: before the scale took effect there is none we hold', () => {
    expect(densityScaleOn('2025-07-18')).toBeNull();
    expect(freightClassForDensity(9, '2025-07-18')).toBeNull();
    expect(densityScaleOn('2031-01-01')!.effectiveFrom).toBe('2025-07-19');
  });

  it('refuses a freight class that is not an NMFC class, naming the field', () => {
    const parsed = createFreightShipmentInput.safeParse({
      warehouseId: 1, customerId: 1, consignee: { name: 'A', address1: 'B', city: 'C', state: 'D', zip: '1' }, carrierName: 'X', scac: 'ABCD', chargeTerms: 'Prepaid',
      handlingUnits: [{ handlingType: 'Pallet', handlingQty: 1, packageType: 'Carton', pieces: 1, weightKg: 1, lengthCm: 1, widthCm: 1, heightCm: 1, freightClass: '92', description: 'x' }],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0].path).toEqual(['handlingUnits', 0, 'freightClass']);
  });
});
