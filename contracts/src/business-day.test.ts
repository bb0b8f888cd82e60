import { describe, expect, it } from 'vitest';
import { addDays, businessDay, monthOfDay } from './business-day.js';

describe('business days', () => {
  it('an instant belongs to the day of the warehouse’s zone, not the UTC day', () => {
    expect(businessDay('America/Los_Angeles', new Date('2026-11-27T04:20:00Z'))).toBe('2026-11-26');
    expect(businessDay('UTC', new Date('2026-11-27T04:20:00Z'))).toBe('2026-11-27');
    expect(businessDay('Not/AZone', new Date('2026-11-27T04:20:00Z'))).toBe('2026-11-27');
  });

  it('a month runs from its first to its last day, leap years included', () => {
    expect(monthOfDay('2026-11-26')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(monthOfDay('2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthOfDay(addDays('2027-01-01', -1))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
});
