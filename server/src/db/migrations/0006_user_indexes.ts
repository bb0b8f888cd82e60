import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Indexes behind the user list's filters and sorts. */
export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  for (const column of ['role', 'is_active', 'first_name', 'last_name', 'created_at', 'customer_id']) {
    await db.schema.createIndex(`app_user_${column}`).on('app_user').column(column).execute();
  }
  await db.schema.createIndex('user_warehouse_warehouse').on('user_warehouse').columns(['warehouse_id', 'user_id']).execute();
  await db.schema.createIndex('user_customer_customer').on('user_customer').column('customer_id').execute();
}
