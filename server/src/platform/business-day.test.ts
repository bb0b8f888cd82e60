import { describe, expect, it } from 'vitest';
import { businessDay, isTimeZone } from './business-day.js';

describe('businessDay', () => {
  it('puts an instant in the day of the warehouse’s zone, around midnight on both sides of UTC', () => {
    expect(businessDay('America/Los_Angeles', '2026-03-02T07:30:00Z')).toBe('2026-03-01');
    expect(businessDay('America/Los_Angeles', '2026-03-02T08:30:00Z')).toBe('2026-03-02');
    expect(businessDay('Asia/Tokyo', '2026-03-01T14:59:00Z')).toBe('2026-03-01');
    expect(businessDay('Asia/Tokyo', '2026-03-01T15:00:00Z')).toBe('2026-03-02');
    expect(businessDay('UTC', '2026-03-01T23:59:59Z')).toBe('2026-03-01');
  });

  it('counts an unknown zone as UTC', () => {
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(businessDay('Mars/Olympus', '2026-03-01T23:59:59Z')).toBe('2026-03-01');
  });
});
