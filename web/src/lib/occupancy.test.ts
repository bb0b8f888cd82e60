import { describe, expect, it } from 'vitest';
import { formatPercent, occupancyColor, occupancyLevel, OCCUPANCY_COLORS } from './occupancy';

describe('occupancy colour', () => {
  it('is green up to 70, amber above 70, red above 90', () => {
    expect(occupancyLevel(0)).toBe('green');
    expect(occupancyLevel(70)).toBe('green');
    expect(occupancyLevel(70.1)).toBe('amber');
    expect(occupancyLevel(90)).toBe('amber');
    expect(occupancyLevel(90.5)).toBe('red');
    expect(occupancyLevel(100)).toBe('red');
    expect(occupancyColor(93)).toBe(OCCUPANCY_COLORS.red);
  });
  it('formats with at most one decimal', () => {
    expect(formatPercent(75.14)).toBe('75.1%');
    expect(formatPercent(93)).toBe('93%');
  });
});
