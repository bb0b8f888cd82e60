import { describe, expect, it } from 'vitest';
import { nextSlot, parseCron, previousSlot } from './cron.js';

const at = (s: string) => Date.parse(s);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('cron', () => {
  it('reads the five fields: lists, ranges, steps, and Sunday as 0 or 7', () => {
    const c = parseCron('*/15 8-10,14 1 * 7');
    expect([...c.minutes]).toEqual([0, 15, 30, 45]);
    expect([...c.hours]).toEqual([8, 9, 10, 14]);
    expect([...c.daysOfWeek]).toEqual([0]);
    expect(() => parseCron('* * *')).toThrow(/5 fields/);
    expect(() => parseCron('60 * * * *')).toThrow(/minute/);
    expect(() => parseCron('* * * 13 *')).toThrow(/month/);
  });

  it('finds the latest and the next slot in the warehouse’s zone, not UTC', () => {
    const daily2am = parseCron('0 2 * * *');
    // 2026-11-25 09:00Z is 01:00 in Los Angeles: the latest 02:00 there is the day before (10:00Z), the next today.
    expect(iso(previousSlot(daily2am, 'America/Los_Angeles', at('2026-11-25T09:00:00Z')))).toBe('2026-11-24T10:00:00.000Z');
    expect(iso(nextSlot(daily2am, 'America/Los_Angeles', at('2026-11-25T09:00:00Z')))).toBe('2026-11-25T10:00:00.000Z');
    expect(iso(previousSlot(daily2am, 'Asia/Tokyo', at('2026-11-25T09:00:00Z')))).toBe('2026-11-24T17:00:00.000Z');
    expect(iso(previousSlot(daily2am, 'UTC', at('2026-11-25T02:00:00Z')))).toBe('2026-11-25T02:00:00.000Z');
  });

  it('skips a local time that a DST change skips, and runs a repeated one once', () => {
    const c = parseCron('30 2 * * *');
    // 2026-03-08 02:30 does not exist in New York (clocks jump 02:00 → 03:00): the next run is the 9th.
    expect(iso(nextSlot(c, 'America/New_York', at('2026-03-08T05:00:00Z')))).toBe('2026-03-09T06:30:00.000Z');
    const oneThirty = parseCron('30 1 * * *');
    // 2026-11-01 01:30 happens twice in New York; it runs at the first (05:30Z), and next on the 2nd.
    expect(iso(nextSlot(oneThirty, 'America/New_York', at('2026-11-01T04:00:00Z')))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(nextSlot(oneThirty, 'America/New_York', at('2026-11-01T05:30:00Z')))).toBe('2026-11-02T06:30:00.000Z');
  });

  it('runs a day matching either day of month or day of week when both are given', () => {
    const c = parseCron('0 0 13 * 5'); // the 13th, and every Friday
    expect(iso(nextSlot(c, 'UTC', at('2026-11-25T00:00:00Z')))).toBe('2026-11-27T00:00:00.000Z'); // a Friday
    expect(iso(nextSlot(c, 'UTC', at('2026-12-12T00:00:00Z')))).toBe('2026-12-13T00:00:00.000Z'); // the 13th, a Sunday
  });
});
