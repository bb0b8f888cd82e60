import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveredEvent, DomainEvent } from '../src/platform/events.js';
import { inTransaction } from '../src/platform/unit-of-work.js';
import { buildTestApp, type TestApp } from './helpers.js';
import { statementCounter } from './statements.js';

/**
 * PostgreSQL's announcements of committed events (platform/events.ts): they carry the events themselves, so no
 * node reads them back, and a node sends at most one every few milliseconds, so a busy floor's commits share them.
 * PostgreSQL only: on SQLite events are delivered in-process after commit.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('announcements of committed events (PostgreSQL)', () => {
  let t: TestApp;
  let counter: ReturnType<typeof statementCounter>;
  const delivered: DeliveredEvent[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    counter = statementCounter();
    t.app.services.events.subscribe((e) => delivered.push(e));
  }, 60_000);
  afterAll(async () => {
    counter?.restore();
    await t?.close();
  });

  let marker = 0;
  const event = (text = ''): DomainEvent => ({
    target: 'ReceiveSkuData', payload: { subEvent: 'SkuUpdate', payload: { marker: ++marker, text } }, warehouseId: marker, customerId: null,
  });
  const commit = (events: DomainEvent[]) => inTransaction(t.database.db, async ({ tx, afterCommit }) => {
    for (const e of events) await t.app.services.events.record(tx, e, afterCommit);
  });
  async function deliveredOf(events: DomainEvent[]): Promise<DeliveredEvent[]> {
    const markers = new Set(events.map((e) => (e.payload as { payload: { marker: number } }).payload.marker));
    const mine = () => delivered.filter((d) => markers.has((d.payload as { payload: { marker: number } }).payload.marker));
    const deadline = Date.now() + 5000;
    while (mine().length < events.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return mine();
  }
  const sent = () => {
    const statements = counter.take();
    return {
      notifications: statements.filter((q) => /pg_notify/.test(q)).length,
      loads: statements.filter((q) => /^select \* from "event_outbox"/.test(q)).length,
    };
  };

  it('an announcement carries its events whole: every node delivers them without reading the outbox', async () => {
    await new Promise((r) => setTimeout(r, 50));
    counter.take();
    const events = [event(), event('é ✓ "quoted"'), event()];
    await commit(events);
    const got = await deliveredOf(events);
    expect(got.map(({ target, payload, warehouseId, customerId }) => ({ target, payload, warehouseId, customerId })))
      .toEqual(events.map(({ target, payload, warehouseId, customerId }) => ({ target, payload, warehouseId, customerId })));
    expect(got.map((e) => Number(e.id))).toEqual([...got.map((e) => Number(e.id))].sort((a, b) => a - b));
    const stored = await t.database.db.selectFrom('event_outbox').select(['id', 'payload_json']).where('id', 'in', got.map((e) => Number(e.id))).orderBy('id').execute();
    expect(stored.map((r) => JSON.parse(r.payload_json))).toEqual(events.map((e) => e.payload));
    expect(sent()).toEqual({ notifications: 1, loads: 0 });
  });

  it('commits close together share announcements, delivered in commit order', async () => {
    await new Promise((r) => setTimeout(r, 50));
    counter.take();
    const events = Array.from({ length: 30 }, () => event());
    for (const e of events) await commit([e]);
    const got = await deliveredOf(events);
    expect(got.map((e) => e.payload)).toEqual(events.map((e) => e.payload));
    // Thirty commits, one after the other; announced one by one (as before), they were thirty notifications.
    const { notifications, loads } = sent();
    expect(notifications).toBeLessThan(15);
    expect(loads).toBe(0);
  });

  it('an event too large for a notification is announced by its id and read back, in its place among the others', async () => {
    await new Promise((r) => setTimeout(r, 50));
    counter.take();
    const events = [event(), event('x'.repeat(9000)), event()];
    await commit(events);
    const got = await deliveredOf(events);
    expect(got.map((e) => e.payload)).toEqual(events.map((e) => e.payload));
    expect(sent()).toEqual({ notifications: 1, loads: 1 });
  });

  it('a thousand events of one change go in notifications under PostgreSQL\'s 8,000 bytes, none lost', async () => {
    const events = Array.from({ length: 1000 }, () => event('some text of an event'));
    await inTransaction(t.database.db, async ({ tx, afterCommit }) => t.app.services.events.recordMany(tx, events, afterCommit));
    const got = await deliveredOf(events);
    expect(got.map((e) => e.payload)).toEqual(events.map((e) => e.payload));
    expect(sent().notifications).toBeGreaterThan(1);
  });

  it('a transaction\'s changes recorded one after the other share one insert; a statement between them parts them', async () => {
    await new Promise((r) => setTimeout(r, 50));
    counter.take();
    const inserts = () => counter.take().filter((q) => /insert into "event_outbox"/.test(q)).length;
    const together = [event(), event()];
    await commit(together);
    expect((await deliveredOf(together)).map((e) => e.payload)).toEqual(together.map((e) => e.payload));
    expect(inserts()).toBe(1);
    const apart = [event(), event()];
    await inTransaction(t.database.db, async ({ tx, afterCommit }) => {
      await t.app.services.events.record(tx, apart[0], afterCommit);
      await sql`select 1`.execute(tx); // the first insert goes with this statement
      await t.app.services.events.record(tx, apart[1], afterCommit);
    });
    const got = await deliveredOf(apart);
    expect(got.map((e) => e.payload)).toEqual(apart.map((e) => e.payload));
    expect(Number(got[0].id)).toBeLessThan(Number(got[1].id));
    expect(inserts()).toBe(2);
  });

  it('an announcement of ids alone (a node of the version before) is still delivered', async () => {
    const e = event();
    const [row] = await t.database.db.insertInto('event_outbox')
      .values({ name: e.target, payload_json: JSON.stringify(e.payload), warehouse_id: e.warehouseId ?? null, customer_id: null } as never)
      .returning('id').execute();
    await t.database.pool!.query('select pg_notify($1, $2)', [`bolx_events_${t.database.pgSchema}`, String(row.id)]);
    const [got] = await deliveredOf([e]);
    expect(got).toMatchObject({ id: row.id, target: e.target, payload: e.payload, warehouseId: e.warehouseId });
  });
});
