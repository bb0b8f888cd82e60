import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { businessDay } from '../platform/business-day.js';
import { dialectFor, registerSqliteFunctions } from './dialect.js';

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

describe('SQLite local day from the zones’ offsets (a report over a year)', () => {
  it('is the runtime’s business day for instants all through a year, across DST changes, in whole, half and quarter-hour zones', async () => {
    const sqlite = new Database(':memory:');
    registerSqliteFunctions(sqlite);
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) }); // eslint-disable-line @typescript-eslint/no-explicit-any
    const zones = ['America/New_York', 'America/Los_Angeles', 'Europe/Berlin', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'];
    await sql`CREATE TABLE t (at TEXT, tz TEXT)`.execute(db);
    const from = Date.parse('2025-12-31T00:00:00.000Z');
    const until = Date.parse('2027-01-02T00:00:00.000Z');
    const rows: { at: string; tz: string }[] = [];
    // Every 97 minutes through the year, and every minute of each zone's DST change days.
    for (let ms = from; ms < until; ms += 97 * 60_000) for (const tz of zones) rows.push({ at: new Date(ms).toISOString(), tz });
    for (const day of ['2026-03-08', '2026-11-01', '2026-03-29', '2026-10-25', '2026-04-05', '2026-10-04', '2026-09-27']) {
      for (let m = -12 * 60; m < 36 * 60; m += 1) for (const tz of zones) rows.push({ at: new Date(Date.parse(`${day}T00:00:00.000Z`) + m * 60_000 + 7_000).toISOString(), tz });
    }
    for (let i = 0; i < rows.length; i += 5000) await db.insertInto('t').values(rows.slice(i, i + 5000)).execute();
    const day = dialectFor('sqlite').localDay(sql.ref('at'), sql.ref('tz'), { zones, from: new Date(from).toISOString(), until: new Date(until).toISOString() });
    const got = await db.selectFrom('t').select(['at', 'tz', day.as('d')]).execute();
    const wrong = got.filter((r) => r.d !== businessDay(r.tz, r.at));
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(got.length).toBe(rows.length);
    await db.destroy();
  });
});
