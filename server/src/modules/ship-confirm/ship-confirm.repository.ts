import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';

/** Statements of ship confirm: which orders, what each ships (its lines and closed cartons), and the rows shipping writes. Each is one statement per order, whatever its lines. */
export const shipConfirmRepository = {
  /** The orders named, in the caller's scope (others are simply absent). */
  orders(db: Executor, scope: Scope, ids: number[]) {
    return db.selectFrom('sales_order as o').select(['o.id', 'o.so_number', 'o.warehouse_id'])
      .where('o.id', 'in', ids).where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' })).execute();
  },

  /** Every Packed order of a warehouse for a carrier account, in the caller's scope, oldest first. */
  packedOfCarrier(db: Executor, scope: Scope, warehouseId: number, carrierAccountId: number) {
    return db.selectFrom('sales_order as o').select(['o.id', 'o.so_number', 'o.warehouse_id'])
      .where('o.warehouse_id', '=', warehouseId).where('o.status', '=', 'Packed').where('o.carrier_account_id', '=', carrierAccountId)
      .where(scope.where({ customer: 'o.customer_id' })).orderBy('o.id').execute();
  },

  /** An order's lines with what was packed, and its customer's backorder setting and name. */
  lines(tx: Executor, orderId: number) {
    return tx.selectFrom('sales_order_line as l').innerJoin('sales_order as o', 'o.id', 'l.order_id').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .select(['l.id', 'l.line_no', 'l.sku_id', 'l.quantity', 'l.packed_qty', 'l.package_id', 'l.units_per_package', 'l.lot', 'l.notes', 'c.allow_backorders', 'c.name as customer_name'])
      .where('l.order_id', '=', orderId).orderBy('l.line_no').execute();
  },

  /** The lines of an order's closed cartons, with where each carton waits (its pack station location). */
  closedCartonLines(tx: Executor, orderId: number) {
    return tx.selectFrom('carton_line as cl').innerJoin('carton as c', 'c.id', 'cl.carton_id')
      .select(['cl.carton_id', 'cl.order_line_id', 'cl.sku_id', 'cl.lot', 'cl.quantity', 'c.location_id', 'c.warehouse_id', 'c.customer_id'])
      .where('c.order_id', '=', orderId).where('c.status', '=', 'Closed').orderBy('cl.id').execute();
  },

  /** Every line of the order shipped what was packed: one statement. */
  setShipped(tx: Executor, orderId: number) {
    return tx.updateTable('sales_order_line').set({ shipped_qty: sql`packed_qty` }).where('order_id', '=', orderId).execute();
  },

  /** Tracking numbers onto the order's cartons named: one statement. */
  setTracking(tx: Executor, orderId: number, tracking: { cartonId: number; trackingNumber: string }[]) {
    const cases = sql.join(tracking.map((t) => sql`when ${t.cartonId} then ${t.trackingNumber}`), sql` `);
    return tx.updateTable('carton').set({ tracking_number: sql`case id ${cases} end` })
      .where('order_id', '=', orderId).where('id', 'in', tracking.map((t) => t.cartonId)).execute();
  },

  /** How many orders were taken in for an order's remainders before. */
  backorderCount(tx: Executor, orderId: number) {
    return tx.selectFrom('sales_order').select(sql<number>`count(*)`.as('n')).where('backorder_of_id', '=', orderId).executeTakeFirstOrThrow().then((r) => Number(r.n));
  },

  markBackorder(tx: Executor, orderId: number, backorderOfId: number) {
    return tx.updateTable('sales_order').set({ backorder_of_id: backorderOfId }).where('id', '=', orderId).execute();
  },
};
