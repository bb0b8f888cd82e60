import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** The files kept with orders (order_document → stored_file). */
export const orderDocumentRepository = {
  list(db: Executor, orderId: number) {
    return db.selectFrom('order_document as d').innerJoin('stored_file as f', 'f.id', 'd.file_id').leftJoin('app_user as u', 'u.id', 'd.uploaded_by')
      .select(['d.id', 'd.file_id', 'd.created_at', 'f.file_name', 'f.size_bytes', 'u.username'])
      .where('d.order_id', '=', orderId).orderBy('d.id').execute();
  },

  find(db: Executor, id: number) {
    return db.selectFrom('order_document').select(['id', 'order_id', 'file_id']).where('id', '=', id).executeTakeFirst();
  },

  async count(db: Executor, orderId: number) {
    const r = await db.selectFrom('order_document').select(sql<number>`count(*)`.as('n')).where('order_id', '=', orderId).executeTakeFirstOrThrow();
    return Number(r.n);
  },

  insert(tx: Executor, rows: { order_id: number; file_id: number; uploaded_by: number | null }[]) {
    return tx.insertInto('order_document').values(rows.map((r) => ({ ...r, created_at: new Date().toISOString() }))).execute();
  },

  delete(tx: Executor, id: number) {
    return tx.deleteFrom('order_document').where('id', '=', id).execute();
  },

  /** Whether any order still keeps this file (one upload's documents are kept with each of its orders). */
  async fileKept(tx: Executor, fileId: number) {
    return !!(await tx.selectFrom('order_document').select('id').where('file_id', '=', fileId).executeTakeFirst());
  },

  /** Locks the order's row for a change of its documents (so two at once cannot both pass the count); its status. */
  lockOrder(tx: Executor, orderId: number, at: string) {
    return tx.updateTable('sales_order').set({ updated_at: at }).where('id', '=', orderId).returning(['id', 'status']).executeTakeFirst();
  },
};
