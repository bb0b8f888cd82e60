import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Background jobs and schedules (platform/jobs): the job queue any node claims from, the schedules registered in
 * code with their last and next run, and one row per schedule slot so a slot fires once across all nodes.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema.createTable('job')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('queued')
      .check(sql`status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')`))
    .addColumn('progress_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_total', 'integer')
    .addColumn('progress_message', 'varchar(255)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3).check(sql`max_attempts >= 1`))
    .addColumn('backoff_ms', 'integer', (c) => c.notNull().defaultTo(5000).check(sql`backoff_ms >= 0`))
    .addColumn('run_after', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('owner_user_id', 'integer', (c) => c.references('app_user.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.references('warehouse.id'))
    .addColumn('customer_id', 'integer', (c) => c.references('customer.id'))
    .addColumn('lock_owner', 'varchar(64)')
    .addColumn('locked_until', ts)
    .addColumn('result_json', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .execute();
  // The claim's scan: due queued jobs, and running ones whose lock ran out.
  await db.schema.createIndex('job_due').on('job').columns(['status', 'run_after']).execute();
  await db.schema.createIndex('job_owner').on('job').columns(['owner_user_id', 'created_at']).execute();

  await db.schema.createTable('job_schedule')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('cron', 'varchar(64)', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('job_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_slot_at', ts)
    .addColumn('last_job_id', 'integer')
    .addColumn('next_slot_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  // A slot is claimed by inserting its row; the primary key makes every other node's insert do nothing.
  await db.schema.createTable('job_schedule_slot')
    .addColumn('schedule_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('slot_at', ts, (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('node', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('job_schedule_slot_pk', ['schedule_name', 'slot_at'])
    .execute();
}
