import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { businessDay } from '../platform/business-day.js';
import { registerSqliteFunctions } from './dialect.js';

describe('SQLite local_day (kept per zone and quarter hour)', () => {
  it('gives the runtime’s business day for every minute around midnights and DST changes, in whole, half and quarter-hour zones', () => {
    const sqlite = new Database(':memory:');
    registerSqliteFunctions(sqlite);
    const day = sqlite.prepare('SELECT local_day(?, ?) AS d');
    const starts = ['2026-03-08T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-03-29T00:00:00.000Z', '2026-10-04T12:00:00.000Z'];
    const zones = ['America/New_York', 'Europe/Berlin', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'];
    for (const start of starts) {
      for (let minute = 0; minute < 36 * 60; minute += 7) {
        const at = new Date(Date.parse(start) + minute * 60_000 + 13_000).toISOString();
        for (const zone of zones) expect((day.get(at, zone) as { d: string }).d, `${at} ${zone}`).toBe(businessDay(zone, at));
      }
    }
    expect((day.get('not a time', 'UTC') as { d: string | null }).d).toBeNull();
    sqlite.close();
  });
});
