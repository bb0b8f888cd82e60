import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Scheduled reports (issue 17, item 8): a user's subscription to a report with its filters, sent daily or weekly;
 * the due ones are found by next_run_at. Mail attachments: files (kept in stored_file) a mail in the outbox carries.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  await db.schema.createTable('report_subscription')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
    .addColumn('report', 'varchar(32)', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('frequency', 'varchar(8)', (c) => c.notNull())
    .addColumn('weekday', 'integer')
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('next_run_at', ts, (c) => c.notNull())
    .addColumn('last_sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_subscription_due').on('report_subscription').columns(['next_run_at']).execute();
  await db.schema.createIndex('report_subscription_user').on('report_subscription').columns(['user_id', 'report']).execute();

  await db.schema.createTable('mail_attachment')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('mail_id', 'integer', (c) => c.notNull().references('mail_outbox.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
    .execute();
  await db.schema.createIndex('mail_attachment_mail').on('mail_attachment').columns(['mail_id']).execute();
}
