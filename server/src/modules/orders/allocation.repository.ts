import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** Statements of allocation: an order's lines as allocation sees them, their reservations, and the waiting lines. */
export const allocationRepository = {
  /** What allocation needs of an order (the row was locked by the status machine's hold first). */
  order(db: Executor, id: number) {
    return db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .select(['o.id', 'o.so_number', 'o.warehouse_id', 'o.customer_id', 'o.order_type', 'o.status', 'c.allow_backorders'])
      .where('o.id', '=', id).executeTakeFirst();
  },

  lines(db: Executor, orderId: number) {
    return db.selectFrom('sales_order_line as l').innerJoin('sku as s', 's.id', 'l.sku_id')
      .select(['l.id', 'l.line_no', 'l.sku_id', 's.sku_code', 's.is_kit', 'l.quantity', 'l.units_per_package', 'l.lot', 'l.allocated_qty', 'l.short_reason'])
      .where('l.order_id', '=', orderId).orderBy('l.line_no').execute();
  },

  /** Each line's allocated quantity and short reason: one statement for an order's lines. */
  setLines(tx: Executor, rows: { lineId: number; allocated: number; shortReason: string | null }[]) {
    if (rows.length === 0) return Promise.resolve();
    const ids = rows.map((r) => r.lineId);
    const allocated = sql.join(rows.map((r) => sql`WHEN ${r.lineId} THEN ${r.allocated}`), sql` `);
    const reason = sql.join(rows.map((r) => sql`WHEN ${r.lineId} THEN ${r.shortReason}`), sql` `);
    return tx.updateTable('sales_order_line').set({
      allocated_qty: sql<number>`CAST(CASE id ${allocated} END AS INTEGER)`,
      short_reason: sql<string | null>`CAST(CASE id ${reason} END AS VARCHAR(32))`,
    }).where('id', 'in', ids).execute();
  },

  /** Every line of an order back to nothing allocated (its reservations were released). */
  clearLines(tx: Executor, orderId: number) {
    return tx.updateTable('sales_order_line').set({ allocated_qty: 0, short_reason: null }).where('order_id', '=', orderId).execute();
  },

  /** Where an order's lines' allocated units are: the open reservations with their balance's place. */
  reservations(db: Executor, soNumber: string) {
    return db.selectFrom('stock_reservation as r')
      .innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['r.document_line', 'r.balance_id', 'b.location_id', 'l.code as location_code', 'b.lot', 'b.expiry_date', 'b.pallet', 'r.quantity'])
      .where('r.document_type', '=', 'SO').where('r.document_id', '=', soNumber).where('r.quantity', '>', 0)
      .orderBy('r.document_line').orderBy('l.code').orderBy('r.balance_id').execute();
  },

  /**
   * Orders waiting for these SKUs in a warehouse for a client (Backordered or Partially Allocated with a line of
   * one of them short), most urgent first, then the longest waiting (by order id: taken in first).
   */
  waitingOrders(db: Executor, f: { warehouseId: number; customerId: number; skuIds: number[] }) {
    if (f.skuIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('sales_order as o').select(['o.id'])
      .where('o.warehouse_id', '=', f.warehouseId).where('o.customer_id', '=', f.customerId)
      .where('o.status', 'in', ['Backordered', 'Partially Allocated'])
      .where((eb) => eb.exists(eb.selectFrom('sales_order_line as l').select(sql`1`.as('one'))
        .whereRef('l.order_id', '=', 'o.id').where('l.sku_id', 'in', f.skuIds).where(sql<boolean>`l.allocated_qty < l.quantity`)))
      .orderBy('o.priority').orderBy('o.id').execute().then((rows) => rows.map((r) => Number(r.id)));
  },
};
