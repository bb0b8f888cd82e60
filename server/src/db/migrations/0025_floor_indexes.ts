import type { Kysely } from 'kysely';

/**
 * The floor's hot paths read pick tasks by order (an order is Picked when none of its tasks, in any job, is still
 * open): without this index each pick scanned every task ever written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('pick_task_order_status').on('pick_task').columns(['order_id', 'status']).execute();
}
