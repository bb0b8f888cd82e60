import { sql, type Kysely } from 'kysely';
import { TICKET_CATEGORIES, TICKET_LINK_KINDS, TICKET_PRIORITIES, TICKET_STATUSES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';

/**
 * The help desk (issue 18): tickets of one warehouse and client, with their SLA due time (moved on by the time spent
 * Waiting on Client: waiting_since marks when that began), the document they are about (link_kind + link_id),
 * comments and attached files (stored files).
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const list = (values: readonly string[]) => sql.join(values.map((v) => sql.lit(v)));

  await db.schema.createTable('ticket')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('ticket_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'varchar(16)', (c) => c.notNull().check(sql`category IN (${list(TICKET_CATEGORIES)})`))
    .addColumn('priority', 'varchar(8)', (c) => c.notNull().check(sql`priority IN (${list(TICKET_PRIORITIES)})`))
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('Open').check(sql`status IN (${list(TICKET_STATUSES)})`))
    .addColumn('assignee_id', 'integer', (c) => c.references('app_user.id'))
    .addColumn('link_kind', 'varchar(16)', (c) => c.check(sql`link_kind IN (${list(TICKET_LINK_KINDS)})`))
    .addColumn('link_id', 'integer')
    .addColumn('due_at', ts, (c) => c.notNull())
    .addColumn('waiting_since', ts)
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('ticket_warehouse_customer').on('ticket').columns(['warehouse_id', 'customer_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('ticket_link').on('ticket').columns(['link_kind', 'link_id']).execute();
  await db.schema.createIndex('ticket_status_due').on('ticket').columns(['status', 'due_at']).execute();
  await db.schema.createIndex('ticket_assignee').on('ticket').columns(['assignee_id', 'status']).execute();

  await db.schema.createTable('ticket_comment')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('ticket.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('ticket_comment_ticket').on('ticket_comment').columns(['ticket_id', 'id']).execute();

  await db.schema.createTable('ticket_attachment')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('ticket.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
    .addColumn('uploaded_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('ticket_attachment_ticket').on('ticket_attachment').columns(['ticket_id']).execute();
}
