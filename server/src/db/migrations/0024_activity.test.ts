import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectFor } from '../dialect.js';
import { STEPS } from '../migrate.js';
import { widenFloorEventKinds } from './0024_activity.js';

const schemaOf = async (db: Kysely<any>, name: string) =>
  (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = ${name}`.execute(db)).rows[0]?.sql;

// A database of the floor's release (0023) holding floor events: 0024 rebuilds floor_event with the new kinds.
describe('migration 0024 on an existing SQLite database', () => {
  it('keeps the floor events and their indexes, accepts the new kinds and still refuses unknown ones', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const d = dialectFor('sqlite');
    const names = Object.keys(STEPS).sort();
    for (const name of names.slice(0, names.indexOf('0024_activity'))) await STEPS[name].up(db, d);
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    const event = { warehouse_id: 1, customer_id: 1, quantity: 2, at: 'x', at_ms: 1, business_day: '2026-11-26' };
    await db.insertInto('floor_event').values({ ...event, kind: 'pick' }).execute();
    await expect(db.insertInto('floor_event').values({ ...event, kind: 'receive' }).execute()).rejects.toThrow(/CHECK/);

    await STEPS['0024_activity'].up(db, d);
    await db.insertInto('floor_event').values({ ...event, kind: 'return-dispose', doc_type: 'RMA', doc_id: 7, detail: 'quarantine', amount_minor: 1250 }).execute();
    expect(await db.selectFrom('floor_event').select(['kind', 'quantity', 'doc_type', 'detail', 'amount_minor']).orderBy('id').execute()).toEqual([
      { kind: 'pick', quantity: 2, doc_type: null, detail: null, amount_minor: null },
      { kind: 'return-dispose', quantity: 2, doc_type: 'RMA', detail: 'quarantine', amount_minor: 1250 },
    ]);
    await expect(db.insertInto('floor_event').values({ ...event, kind: 'bogus' }).execute()).rejects.toThrow(/CHECK/);
    for (const index of ['floor_event_user', 'floor_event_day', 'floor_event_customer_day', 'floor_event_job', 'floor_event_doc']) {
      expect(await schemaOf(db, index)).toMatch(/CREATE INDEX/);
    }
    // Run again (a later migration growing the list): nothing is lost.
    await widenFloorEventKinds(db, d);
    expect(await db.selectFrom('floor_event').select('kind').execute()).toHaveLength(2);
  });
});
