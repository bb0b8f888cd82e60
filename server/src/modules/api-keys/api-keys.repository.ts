import type { Executor } from '../../db/schema.js';

const LISTED = [
  'k.id', 'k.customer_id', 'k.name', 'k.key_prefix', 'k.created_at', 'k.last_used_at', 'k.revoked_at',
  'creator.username as created_by_name', 'revoker.username as revoked_by_name',
] as const;

/** A key with its customer and the warehouses serving it (one row per warehouse; none: one row, null warehouse). */
function keyWithCustomer(db: Executor) {
  return db.selectFrom('customer_api_key as k')
    .innerJoin('customer as c', 'c.id', 'k.customer_id')
    .leftJoin('customer_warehouse as cw', 'cw.customer_id', 'k.customer_id')
    .select(['k.id', 'k.customer_id', 'k.name', 'k.key_prefix', 'k.key_hash', 'k.created_by', 'k.last_used_at', 'k.revoked_at',
      'c.is_active as customer_active', 'cw.warehouse_id']);
}

/** Every statement of the customer_api_key table. The hash is read only to authenticate, never to list. */
export const apiKeyRepository = {
  insert(db: Executor, row: { customerId: number; name: string; prefix: string; hash: string; createdBy: number; at: string }) {
    return db.insertInto('customer_api_key').values({
      customer_id: row.customerId, name: row.name, key_prefix: row.prefix, key_hash: row.hash, created_by: row.createdBy, created_at: row.at,
    }).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },

  /** A customer's keys, newest first, with who created and revoked them (a customer has a handful). */
  ofCustomer(db: Executor, customerId: number, id?: number) {
    let q = db.selectFrom('customer_api_key as k')
      .leftJoin('app_user as creator', 'creator.id', 'k.created_by')
      .leftJoin('app_user as revoker', 'revoker.id', 'k.revoked_by')
      .select(LISTED).where('k.customer_id', '=', customerId);
    if (id !== undefined) q = q.where('k.id', '=', id);
    return q.orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
  },

  /** Revokes a live key of the customer in one conditional statement: undefined when there is none live. */
  revoke(db: Executor, customerId: number, id: number, by: number, at: string) {
    return db.updateTable('customer_api_key').set({ revoked_at: at, revoked_by: by })
      .where('id', '=', id).where('customer_id', '=', customerId).where('revoked_at', 'is', null)
      .returning('id').executeTakeFirst();
  },

  exists(db: Executor, customerId: number, id: number) {
    return db.selectFrom('customer_api_key').select('id').where('id', '=', id).where('customer_id', '=', customerId).executeTakeFirst();
  },

  /**
   * A key by its prefix, for authentication, with its customer and the warehouses serving it, in one statement
   * (one row per warehouse; a customer served by none gives one row with a null warehouse).
   */
  forAuthentication(db: Executor, prefix: string) {
    return keyWithCustomer(db).where('k.key_prefix', '=', prefix).orderBy('cw.warehouse_id').execute();
  },

  /** The same by the key's id: a job queued by a key runs as the key as it is when the job runs. */
  forJob(db: Executor, id: number) {
    return keyWithCustomer(db).where('k.id', '=', id).orderBy('cw.warehouse_id').execute();
  },

  /** Marks a key used, at most once a minute: one conditional statement that does nothing within the minute. */
  async touch(db: Executor, id: number, at: string, notSince: string) {
    await db.updateTable('customer_api_key').set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notSince)]))
      .execute();
  },

  customerName(db: Executor, customerId: number) {
    return db.selectFrom('customer').select('name').where('id', '=', customerId).executeTakeFirst().then((r) => r?.name ?? null);
  },
};
