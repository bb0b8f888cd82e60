import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';

/** The lines of `count` orders (compiled once per count: one order's allocation is the common case). */
const linesOfOrders = compiledOnce(String, (db, _count: number, ...orderIds: number[]) => db.selectFrom('sales_order_line as l').innerJoin('sku as s', 's.id', 'l.sku_id')
  .select(['l.id', 'l.order_id', 'l.line_no', 'l.sku_id', 's.sku_code', 's.is_kit', 'l.quantity', 'l.units_per_package', 'l.lot', 'l.allocated_qty', 'l.shipped_qty', 'l.short_reason'])
  .where('l.order_id', 'in', orderIds).orderBy('l.order_id').orderBy('l.line_no'));

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
      .select(['l.id', 'l.order_id', 'l.line_no', 'l.sku_id', 's.sku_code', 's.is_kit', 'l.quantity', 'l.units_per_package', 'l.lot', 'l.allocated_qty', 'l.shipped_qty', 'l.short_reason'])
      .where('l.order_id', '=', orderId).orderBy('l.line_no').execute();
  },

  /** The lines of many orders (as `lines`), by order then line number: one statement per 500 orders. */
  async linesOf(db: Executor, orderIds: number[]) {
    const rows: Awaited<ReturnType<typeof allocationRepository.lines>> = [];
    for (let i = 0; i < orderIds.length; i += 500) {
      const part = orderIds.slice(i, i + 500);
      rows.push(...await linesOfOrders(db, part.length, ...part));
    }
    return rows;
  },

  /** Each line's allocated quantity and short reason: one statement per 1,000 lines, whatever their orders. */
  async setLines(tx: Executor, dialect: Dialect, rows: { lineId: number; allocated: number; shortReason: string | null }[]) {
    const pg = dialect.engine === 'postgres';
    for (let i = 0; i < rows.length; i += 1000) {
      const values = sql.join(rows.slice(i, i + 1000).map((r) => (pg
        ? sql`(cast(${r.lineId} as integer), cast(${r.allocated} as integer), cast(${r.shortReason} as varchar(32)))`
        : sql`(${r.lineId}, ${r.allocated}, ${r.shortReason})`)));
      await sql`WITH v(id, allocated, reason) AS (VALUES ${values})
        UPDATE sales_order_line SET allocated_qty = v.allocated, short_reason = v.reason FROM v WHERE sales_order_line.id = v.id`.execute(tx);
    }
  },

  /** Every line of an order back to nothing allocated (its reservations were released). */
  clearLines(tx: Executor, orderId: number) {
    return tx.updateTable('sales_order_line').set({ allocated_qty: 0, short_reason: null }).where('order_id', '=', orderId).execute();
  },

  /** Every line of these orders back to nothing allocated (their reservations were released): one statement per 500 orders. */
  async clearLinesOf(tx: Executor, orderIds: number[]) {
    for (let i = 0; i < orderIds.length; i += 500) {
      await tx.updateTable('sales_order_line').set({ allocated_qty: 0, short_reason: null }).where('order_id', 'in', orderIds.slice(i, i + 500)).execute();
    }
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
