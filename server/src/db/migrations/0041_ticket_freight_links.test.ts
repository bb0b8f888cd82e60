import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { engine, makeCustomer, makeWarehouse, openEmptyDatabase } from '../../../test/helpers.js';
import { widenTicketLinkKinds } from './0041_ticket_freight_links.js';

/** The link kinds 0032 wrote into ticket.link_kind's CHECK before freight shipments could be linked. */
const KINDS_OF_0032 = ['order', 'receiving-order', 'shipment', 'rma', 'invoice'];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

// A database whose tickets predate freight links: 0041 widens the CHECK and keeps every ticket, comment and index.
describe('migration 0041 on a database with tickets', () => {
  it('accepts freight-shipment links, keeps the tickets with their comments and still refuses unknown kinds', async () => {
    const empty = await openEmptyDatabase();
    cleanups.push(empty.drop, () => empty.database.close());
    const { db, dialect } = empty.database;
    await migrateToLatest(db, dialect, empty.database.pgSchema, '0038_report_jobs');
    await widenTicketLinkKinds(db as never, dialect, KINDS_OF_0032); // as 0032 left it before the kind was added
    const wh = await makeWarehouse(empty.database);
    const cust = await makeCustomer(empty.database, [wh]);
    const at = new Date().toISOString();
    const ticket = (n: string, kind: string) => ({
      ticket_number: n, warehouse_id: wh, customer_id: cust, title: n, description: null, category: 'other', priority: 'Normal',
      assignee_id: null, link_kind: kind, link_id: 1, due_at: at, created_by: null, created_at: at, updated_at: at,
    });
    const old = await db.insertInto('ticket').values(ticket('TKT-OLD', 'shipment')).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('ticket_comment').values({ ticket_id: old.id, body: 'kept', author_id: null, created_at: at }).execute();
    await expect(db.insertInto('ticket').values(ticket('TKT-EARLY', 'freight-shipment')).execute()).rejects.toThrow(/check/i);

    await migrateToLatest(db, dialect, empty.database.pgSchema);
    await db.insertInto('ticket').values(ticket('TKT-NEW', 'freight-shipment')).execute();
    expect(await db.selectFrom('ticket').select(['ticket_number', 'link_kind']).orderBy('id').execute()).toEqual([
      { ticket_number: 'TKT-OLD', link_kind: 'shipment' }, { ticket_number: 'TKT-NEW', link_kind: 'freight-shipment' },
    ]);
    expect(await db.selectFrom('ticket_comment').select(['ticket_id', 'body']).execute()).toEqual([{ ticket_id: old.id, body: 'kept' }]);
    await expect(db.insertInto('ticket').values(ticket('TKT-BAD', 'parcel')).execute()).rejects.toThrow(/check/i);
    // The comments still refer to the (rebuilt) ticket table, and the foreign keys are on again.
    await expect(db.insertInto('ticket_comment').values({ ticket_id: 999999, body: 'orphan', author_id: null, created_at: at }).execute()).rejects.toThrow(/foreign key/i);
    if (engine === 'sqlite') {
      const indexes = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ticket' AND sql IS NOT NULL`.execute(db)).rows.map((r) => r.name);
      expect(indexes).toEqual(expect.arrayContaining(['ticket_warehouse_customer', 'ticket_link', 'ticket_status_due', 'ticket_assignee']));
    }
  });
});
