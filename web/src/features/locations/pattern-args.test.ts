import { describe, expect, it } from 'vitest';
import { rangeValue, toPatternArgs, type PatternFormValues } from './pattern-args';

const base: PatternFormValues = {
  warehouseId: 1, type: 'rack', zone: ' a ', aisles: { from: '1', to: '5' }, racks: { from: '01', to: '05' },
  levels: { from: 'a', to: 'd' }, capacity: 100,
};

describe('rangeValue', () => {
  it('reads numbers and single letters, nothing else', () => {
    expect(rangeValue('07')).toBe(7);
    expect(rangeValue(' b ')).toBe('B');
    expect(rangeValue('')).toBeUndefined();
    expect(rangeValue('AB')).toBeUndefined();
    expect(rangeValue('1A')).toBeUndefined();
    expect(rangeValue('12345')).toBeUndefined();
  });
});

describe('toPatternArgs', () => {
  it('builds the body with defaults, the zone upper-cased and no bins unless asked', () => {
    expect(toPatternArgs(base)).toEqual({
      warehouseId: 1, type: 'rack', zone: 'A', aisles: { from: 1, to: 5 }, racks: { from: 1, to: 5 }, levels: { from: 'A', to: 'D' },
      separator: '-', padding: 2, capacity: 100, maxWeightKg: null, isPickable: true, description: null,
    });
    expect(toPatternArgs({ ...base, bins: { from: '1', to: '2' } })).not.toHaveProperty('bins');
    expect(toPatternArgs({ ...base, useBins: true, bins: { from: '1', to: '2' } })?.bins).toEqual({ from: 1, to: 2 });
  });

  it('waits (null) while a required part is missing or unreadable', () => {
    expect(toPatternArgs({ ...base, warehouseId: undefined })).toBeNull();
    expect(toPatternArgs({ ...base, type: undefined })).toBeNull();
    expect(toPatternArgs({ ...base, aisles: { from: '1' } })).toBeNull();
    expect(toPatternArgs({ ...base, racks: { from: 'x1', to: '2' } })).toBeNull();
    expect(toPatternArgs({ ...base, useBins: true })).toBeNull();
    expect(toPatternArgs({ ...base, capacity: null })).toBeNull();
  });

  it('keeps a zero capacity (unlimited) and drops an empty zone', () => {
    const args = toPatternArgs({ ...base, zone: '  ', capacity: 0 });
    expect(args?.capacity).toBe(0);
    expect(args).not.toHaveProperty('zone');
  });
});
